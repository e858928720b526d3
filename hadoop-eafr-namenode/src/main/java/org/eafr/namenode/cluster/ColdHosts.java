package org.eafr.namenode.cluster;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the NameNode's parts need to know of EAFR's cold servers that sleep for real ({@code eafr.cold.power-off}):
 * the DataNodes (IP:transfer port) whose hosts the cold-sleep service switched off, each DataNode's cold-sleep state
 * as one line for {@code hdfs eafr status}, and the reader ordering's signal that a read found no live replica. The
 * service itself ({@code org.eafr.namenode.cold.ColdSleep}) writes it; energy, status and the reader ordering read it.
 */
public final class ColdHosts {
  private final Set<String> asleep = ConcurrentHashMap.newKeySet();
  private final Set<String> heldAwake = ConcurrentHashMap.newKeySet();
  private final Map<String, String> states = new ConcurrentHashMap<>();
  private final AtomicBoolean readFoundNoReplica = new AtomicBoolean();
  private volatile boolean enabled;
  private volatile boolean holdReReplication;
  private volatile Runnable step = () -> { };

  /** The DataNodes whose hosts are switched off as cold servers. */
  public Set<String> asleep() {
    return Set.copyOf(asleep);
  }

  /** Records {@code id}'s host as off ({@code true}) or on again ({@code false}). */
  public void asleep(String id, boolean off) {
    if (off) {
      asleep.add(id);
    } else {
      asleep.remove(id);
    }
  }

  /**
   * Whether {@code id} was woken and is held in service for {@code eafr.cold.awake.ms}: the replication monitor does
   * not turn it cold again meanwhile (the read or recovery that woke it is served first).
   */
  public boolean heldAwake(String id) {
    return heldAwake.contains(id);
  }

  public void heldAwake(String id, boolean held) {
    if (held) {
      heldAwake.add(id);
    } else {
      heldAwake.remove(id);
    }
  }

  /** Each DataNode the service looks after, with its state and why (sorted by id). */
  public Map<String, String> states() {
    return new TreeMap<>(states);
  }

  /** Sets {@code id}'s state line, or forgets it with {@code null}. */
  public void state(String id, String line) {
    if (line == null) {
      states.remove(id);
    } else {
      states.put(id, line);
    }
  }

  /**
   * Whether the placement policy gives no target to re-replications now: switched-off cold servers are recorded
   * whose replicas this NameNode does not hold (a restart or a failover), so a block that looks short of replicas
   * may have them asleep there; they are being woken to report. O(1), asked on the redundancy monitor's thread.
   */
  public boolean holdReReplication() {
    return holdReReplication;
  }

  public void holdReReplication(boolean hold) {
    this.holdReReplication = hold;
  }

  /** Whether {@code eafr.cold.power-off} is in force on this NameNode. */
  public boolean enabled() {
    return enabled;
  }

  public void enabled(boolean inForce) {
    this.enabled = inForce;
  }

  /** From the reader ordering, on an IPC handler thread: a reader got a block with no location. O(1). */
  public void readFoundNoReplica() {
    if (!asleep.isEmpty()) {
      readFoundNoReplica.set(true);
    }
  }

  /** Whether a read found no replica since the last call (and clears it). */
  public boolean takeReadFoundNoReplica() {
    return readFoundNoReplica.getAndSet(false);
  }

  /** The running service's step, run now on the caller's thread (tests and the admin command drive it). */
  public void stepNow() {
    step.run();
  }

  public void step(Runnable running) {
    this.step = running == null ? () -> { } : running;
  }
}
