package org.eafr.namenode.power;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.hadoop.util.Time;
import org.eafr.namenode.config.DataNodeName;

/**
 * The seam between the power manager and the DataNodes' in-band power agents ({@code hadoop-eafr-datanode}), for
 * hosts whose only out-of-band path is Wake-on-LAN: such a host can be woken by a packet but can only be put to sleep
 * by software on the host itself. One per NameNode ({@code EafrRuntime.sleepRequests()}): the admin handler answers
 * the agents' polls from it and the power manager records into it.
 *
 * <p>An agent {@link #attach attaches} its DataNode with every poll and {@link #takeFor takes} the request recorded
 * for the inventory host its DataNode belongs to (HOST or HOST:PORT, matched as in the roles file); the manager then
 * sees the host go down through the NameNode's view of its DataNode. Until an agent has attached for a host, a
 * power-off request for it is refused at once, saying so: nothing pretends to switch a host off. A request not taken
 * within its lifetime (the manager's state timeout: the manager has given up on it by then) is dropped, so an agent
 * that starts much later never acts on a stale request.
 */
public final class SleepRequests {
  private final Map<String, DataNodeName> attached = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> polls = new ConcurrentHashMap<>();
  private final Map<String, Recorded> pending = new ConcurrentHashMap<>();
  /** The host whose request each DataNode's agent took last (by server id), for its report of a failure. */
  private final Map<String, String> taken = new ConcurrentHashMap<>();
  /** Per host, the failure an agent reported for the request it took, until the manager reads it. */
  private final Map<String, String> failures = new ConcurrentHashMap<>();
  private final LongSupplier clock;

  public SleepRequests() {
    this(Time::monotonicNow);
  }

  SleepRequests(LongSupplier clock) {
    this.clock = clock;
  }

  /** Called for {@code dataNode} on every poll of its power agent. */
  public void attach(DataNodeName dataNode) {
    attached.put(dataNode.serverId(), dataNode);
    polls.computeIfAbsent(dataNode.serverId(), id -> new AtomicLong()).incrementAndGet();
  }

  /** Polls answered for the agents of DataNodes on {@code host} (HOST or HOST:PORT) since this NameNode started. */
  public long polls(String host) {
    return attached.values().stream().filter(dataNode -> dataNode.matches(host))
        .mapToLong(dataNode -> polls.getOrDefault(dataNode.serverId(), new AtomicLong()).get()).sum();
  }

  /** Polls answered for every agent since this NameNode started. */
  public long polls() {
    return polls.values().stream().mapToLong(AtomicLong::get).sum();
  }

  /** The agent of {@code dataNode} goes down (it took its request) or stopped. */
  public void detach(DataNodeName dataNode) {
    attached.remove(dataNode.serverId());
  }

  /** Whether the agent of a DataNode on inventory host {@code host} (HOST or HOST:PORT) has attached. */
  public boolean attached(String host) {
    return attached.values().stream().anyMatch(dataNode -> dataNode.matches(host));
  }

  /**
   * Records that inventory host {@code host} should go down by {@code command} within {@code lifetimeMillis};
   * refused when no agent can carry it out. The power manager calls it only once HDFS shows the host
   * IN_MAINTENANCE; the agent checks that state again before it acts.
   */
  public void request(String host, PowerCommand command, long lifetimeMillis) throws PowerRefusedException {
    if (!attached(host)) {
      throw new PowerRefusedException("wol can only wake " + host + ": no in-band power agent has attached for it"
          + " (org.eafr.datanode.power.PowerAgentPlugin with eafr.datanode.power-agent.enabled = true on its"
          + " DataNode); give it an ipmi, redfish or command entry in the power inventory to switch it off");
    }
    pending.put(host, new Recorded(command, clock.getAsLong() + lifetimeMillis));
  }

  /** The request recorded for the host {@code dataNode} belongs to, not yet taken nor expired: host and command. */
  public Optional<Map.Entry<String, PowerCommand>> pendingFor(DataNodeName dataNode) {
    long now = clock.getAsLong();
    pending.values().removeIf(recorded -> recorded.expiresAt <= now);
    return pending.entrySet().stream().filter(entry -> dataNode.matches(entry.getKey()))
        .map(entry -> Map.entry(entry.getKey(), entry.getValue().command)).findFirst();
  }

  /** Removes and returns the request for {@code dataNode}'s host: what its agent calls before it goes down. */
  public Optional<Map.Entry<String, PowerCommand>> takeFor(DataNodeName dataNode) {
    Optional<Map.Entry<String, PowerCommand>> request = pendingFor(dataNode);
    request.ifPresent(entry -> {
      pending.remove(entry.getKey());
      taken.put(dataNode.serverId(), entry.getKey());
    });
    return request;
  }

  /**
   * The agent of {@code dataNode} could not carry out the request it took ({@code reason}, its own message, scrubbed
   * of secrets by the agent): kept for the manager, whose next state read of the host fails the attempt with it.
   * Returns the host, or empty when this DataNode's agent took no request here.
   */
  public Optional<String> failed(DataNodeName dataNode, String reason) {
    String host = taken.remove(dataNode.serverId());
    if (host == null) {
      return Optional.empty();
    }
    failures.put(host, "the power agent of DataNode " + dataNode + " could not carry out the sleep request, so the"
        + " host stays up: " + reason);
    return Optional.of(host);
  }

  /** The failure an agent reported for {@code host}'s request, once (then forgotten), or null. */
  public String takeFailure(String host) {
    return failures.remove(host);
  }

  /** The request recorded for inventory host {@code host} and not yet taken nor expired, or null. */
  public PowerCommand pending(String host) {
    Recorded recorded = pending.get(host);
    return recorded == null || recorded.expiresAt <= clock.getAsLong() ? null : recorded.command;
  }

  /** A request and when it stops counting. */
  private static final class Recorded {
    final PowerCommand command;
    final long expiresAt;

    Recorded(PowerCommand command, long expiresAt) {
      this.command = command;
      this.expiresAt = expiresAt;
    }
  }
}
