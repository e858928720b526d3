package org.eafr.placement.gear.shift;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eafr.placement.power.PowerOffGuard;

/**
 * Power verification bookkeeping of a gear shift: brings a set of hosts to a power state over several steps and says
 * when every one is verified there. Per host, each step: a command's DONE reply verifies it; a reply still pending
 * within the timeout is waited for; after a failure or a timeout (a hung BMC) the host's state is read, and a host
 * read in the wanted state is verified with no command; otherwise the command is sent again. Every power-off is sent
 * only after {@link PowerOffGuard} passes at that moment (IN_MAINTENANCE, the block list trusted, each block live on
 * a DataNode in service off the host). A dead or unregistered leaving DataNode the guard refuses serves nothing: it
 * is counted asleep with no command (its host may still run; the energy is lost, no data is). A host no power
 * controller switches ({@link PowerPort#controls}) is never sent a command: it counts as off once in maintenance
 * (it stays on, serving nothing), and as on only once its DataNode runs.
 *
 * <p>Kept in memory only: after a restart or failover a host is read again before anything is sent, so a command
 * whose reply was lost is never repeated blindly.
 */
final class PowerSteps {
  private final ShiftPorts ports;
  private final long timeoutMillis;
  private final Map<String, Sent> sent = new HashMap<>();
  private final Map<String, Power> verified = new HashMap<>();
  private final Set<String> countedAsleep = new HashSet<>();
  private final Map<String, String> lastFailure = new HashMap<>();
  private String lastRefusal = "";

  PowerSteps(ShiftPorts ports, long timeoutMillis) {
    this.ports = ports;
    this.timeoutMillis = timeoutMillis;
  }

  /** Whether every host of {@code ids} is verified in {@code wanted}; sends what is missing. */
  boolean reach(Set<String> ids, Power wanted, long now) {
    boolean all = true;
    for (String id : ids) {
      all &= reached(id, wanted, now);
    }
    return all;
  }

  /** The last power-off the guard refused, with its reason, once ("" when none since the last call). */
  String lastRefusal() {
    String refusal = lastRefusal;
    lastRefusal = "";
    return refusal;
  }

  /**
   * Why {@code id}'s host has not reached its state yet, for an operator: a command under way (with the last failure),
   * or the last failure; empty when nothing is known against it.
   */
  Optional<String> why(String id) {
    if (!ports.power.controls(id)) {
      return ports.cluster.dataNode(id).alive() ? Optional.empty()
          : Optional.of("in no power inventory and not running; switch it on by hand or add it to the inventory");
    }
    Optional<String> held = ports.power.heldBack(id);
    if (held.isPresent()) {
      return held;
    }
    String failure = lastFailure.get(id);
    Sent command = sent.get(id);
    if (command != null) {
      return Optional.of("power " + command.wanted.name().toLowerCase(java.util.Locale.ROOT) + " under way"
          + (failure == null ? "" : "; last error: " + failure));
    }
    return failure == null ? Optional.empty() : Optional.of("last power error: " + failure);
  }

  /** Forgets what is under way for {@code ids} (a cancelled shift): the next shift reads their hosts again. */
  void forget(Set<String> ids) {
    sent.keySet().removeAll(ids);
    lastFailure.keySet().removeAll(ids);
  }

  /**
   * Whether {@code id}'s host is verified off: its DataNode does not run, and this machine verified it OFF or counted it
   * asleep, or its driver reads it OFF with no command of this machine under way.
   */
  boolean verifiedOff(String id) {
    if (ports.cluster.dataNode(id).alive()) {
      return false;
    }
    if (verified.get(id) == Power.OFF || countedAsleep.contains(id)) {
      return true;
    }
    return !sent.containsKey(id) && ports.power.controls(id) && ports.power.read(id).orElse(Power.ON) == Power.OFF;
  }

  private boolean reached(String id, Power wanted, long now) {
    if (!ports.power.controls(id)) {
      return wanted == Power.OFF || ports.cluster.dataNode(id).alive(); // nothing switches it: it stays on
    }
    if (stillVerified(id, wanted)) {
      return true;
    }
    Sent command = sent.get(id);
    if (command != null && command.wanted == wanted) {
      Reply reply = ports.power.poll(command.ticket);
      if (reply.kind() == Reply.Kind.DONE) {
        sent.remove(id);
        lastFailure.remove(id);
        verified.put(id, wanted);
        return true;
      }
      if (reply.kind() == Reply.Kind.FAILED) {
        lastFailure.put(id, reply.reason());
      }
      if (reply.kind() == Reply.Kind.PENDING && now - command.sentAt < timeoutMillis) {
        return false;
      }
    }
    sent.remove(id);
    Optional<Power> read = ports.power.read(id);
    if (read.isPresent() && read.get() == wanted) {
      lastFailure.remove(id);
      verified.put(id, wanted);
      return true;
    }
    if (wanted == Power.OFF && refusedOff(id)) {
      return countedAsleep.contains(id);
    }
    sent.put(id, new Sent(ports.power.send(id, wanted), wanted, now));
    return false;
  }

  /**
   * Whether a record of {@code id} verified in {@code wanted} still stands: for OFF, its DataNode does not heartbeat
   * (a running DataNode contradicts it); else the record is forgotten.
   */
  private boolean stillVerified(String id, Power wanted) {
    if (countedAsleep.contains(id) && wanted == Power.OFF && !ports.cluster.dataNode(id).alive()) {
      return true;
    }
    countedAsleep.remove(id);
    if (verified.get(id) != wanted) {
      verified.remove(id);
      return false;
    }
    if (wanted == Power.OFF && ports.cluster.dataNode(id).alive()) {
      verified.remove(id);
      return false;
    }
    return true;
  }

  /** Runs the power-off guard for {@code id} now; a refusal of a DataNode that serves nothing counts it asleep. */
  private boolean refusedOff(String id) {
    DataNodeView node = ports.cluster.dataNode(id);
    List<PowerOffGuard.Member> members = node.registered() ? List.of(node.member(id)) : List.of();
    Optional<String> refusal = PowerOffGuard.refusal(id, "ACTIVE", Set.of(), members);
    if (refusal.isEmpty()) {
      refusal = PowerOffGuard.blockRefusal(id, ports.cluster.blocksOn(id),
          PowerOffGuard.staysOn(Set.of(id), other -> ports.cluster.dataNode(other).liveInService()));
    }
    if (refusal.isEmpty()) {
      return false;
    }
    lastRefusal = refusal.get();
    if (!node.alive()) {
      countedAsleep.add(id);
    }
    return true;
  }

  /** A command sent and not yet answered. */
  private static final class Sent {
    final long ticket;
    final Power wanted;
    final long sentAt;

    Sent(long ticket, Power wanted, long sentAt) {
      this.ticket = ticket;
      this.wanted = wanted;
      this.sentAt = sentAt;
    }
  }
}
