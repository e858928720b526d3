package org.eafr.placement.gear.shift;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.eafr.placement.power.PowerOffGuard;

/**
 * Power verification bookkeeping of a gear shift: brings a set of hosts to a power state over several steps and says
 * when every one is verified there. Per host, each step: a command's DONE reply verifies it; a reply still pending
 * within the timeout is waited for; after a failure, a refusal or a timeout (a hung BMC) the host's state is read, and
 * a host read in the wanted state is verified with no command; otherwise the command is sent again. Every power-off
 * passes {@link PowerOffGuard} at that moment (IN_MAINTENANCE, the block list trusted, each block live on a DataNode
 * in service off the host), run by the controller ({@link PowerPort#guardsPowerOff}) or by {@link GuardedPower} in
 * front of it; a refusal is answered at once. A dead or unregistered leaving DataNode whose power-off is refused
 * serves nothing: it is counted asleep with no command (its host may still run; the energy is lost, no data is). A host no power
 * controller switches ({@link PowerPort#controls}) is never sent a command: it counts as off once in maintenance
 * (it stays on, serving nothing), and as on only once its DataNode runs.
 *
 * <p>Kept in memory only: after a restart or failover a host is read again before anything is sent, so a command
 * whose reply was lost is never repeated blindly.
 */
public final class PowerSteps {
  private final Function<String, DataNodeView> nodes;
  private final PowerPort power;
  private final long timeoutMillis;
  private final Map<String, Sent> sent = new HashMap<>();
  private final Map<String, Power> verified = new HashMap<>();
  private final Set<String> countedAsleep = new HashSet<>();
  private final Map<String, String> lastFailure = new HashMap<>();
  private String lastRefusal = "";

  /**
   * @param nodes the DataNode of an id as HDFS shows it
   * @param power the power controller, behind its power-off guard ({@link GuardedPower} when it runs none itself)
   * @param timeoutMillis how long a command may stay unanswered before the host is read and the command sent again
   */
  public PowerSteps(Function<String, DataNodeView> nodes, PowerPort power, long timeoutMillis) {
    this.nodes = nodes;
    this.power = power;
    this.timeoutMillis = timeoutMillis;
  }

  /** Whether every host of {@code ids} is verified in {@code wanted}; sends what is missing. */
  public boolean reach(Set<String> ids, Power wanted, long now) {
    boolean all = true;
    for (String id : ids) {
      all &= reached(id, wanted, now);
    }
    return all;
  }

  /** The last power-off the guard refused, with its reason, once ("" when none since the last call). */
  public String lastRefusal() {
    String refusal = lastRefusal;
    lastRefusal = "";
    return refusal;
  }

  /**
   * Why {@code id}'s host has not reached its state yet, for an operator: a command under way (with the last failure),
   * or the last failure; empty when nothing is known against it.
   */
  public Optional<String> why(String id) {
    if (!power.controls(id)) {
      return nodes.apply(id).alive() ? Optional.empty()
          : Optional.of("in no power inventory and not running; switch it on by hand or add it to the inventory");
    }
    Optional<String> held = power.heldBack(id);
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
  public void forget(Set<String> ids) {
    sent.keySet().removeAll(ids);
    lastFailure.keySet().removeAll(ids);
  }

  private boolean reached(String id, Power wanted, long now) {
    if (!power.controls(id)) {
      return wanted == Power.OFF || nodes.apply(id).alive(); // nothing switches it: it stays on
    }
    if (stillVerified(id, wanted)) {
      return true;
    }
    Sent command = sent.get(id);
    if (command != null && command.wanted == wanted) {
      Optional<Boolean> answer = answered(id, command, power.poll(command.ticket), now);
      if (answer.isPresent()) {
        return answer.get();
      }
    } else if (command != null && answered(id, command, power.poll(command.ticket), now).isPresent()) {
      return false; // the command for the other state may still land: a read now could be undone by it
    }
    sent.remove(id);
    Optional<Power> read = power.read(id);
    if (read.isPresent() && read.get() == wanted) {
      verify(id, wanted);
      return true;
    }
    Sent next = new Sent(power.send(id, wanted), wanted, now);
    sent.put(id, next);
    // A refusal is answered at once, before anything reached the host; any other reply is read next step.
    Reply first = power.poll(next.ticket);
    return first.kind() == Reply.Kind.REFUSED && answered(id, next, first, now).orElse(false);
  }

  private void verify(String id, Power state) {
    lastFailure.remove(id);
    verified.put(id, state);
  }

  /**
   * What {@code command}'s {@code reply} says: verified (or counted asleep), still worth waiting for (false), or empty when it
   * failed, was refused or timed out, so the host is read and the command sent again.
   */
  private Optional<Boolean> answered(String id, Sent command, Reply reply, long now) {
    switch (reply.kind()) {
      case DONE:
        sent.remove(id);
        verify(id, command.wanted);
        return Optional.of(true);
      case PENDING:
        return now - command.sentAt < timeoutMillis ? Optional.of(false) : Optional.empty();
      case REFUSED:
        sent.remove(id);
        lastFailure.put(id, reply.reason());
        if (command.wanted == Power.OFF) {
          lastRefusal = reply.reason();
          if (!nodes.apply(id).alive()) { // serves nothing: counted asleep, its host never switched unguarded
            countedAsleep.add(id);
            return Optional.of(true);
          }
        }
        return Optional.empty();
      default:
        sent.remove(id);
        lastFailure.put(id, reply.reason());
        return Optional.empty();
    }
  }

  /**
   * Whether a record of {@code id} verified in {@code wanted} still stands: for OFF, its DataNode does not heartbeat
   * (a running DataNode contradicts it, and the record is forgotten).
   */
  private boolean stillVerified(String id, Power wanted) {
    if (nodes.apply(id).alive()) {
      countedAsleep.remove(id); // running again: its power-off is asked for again
    } else if (countedAsleep.contains(id) && wanted == Power.OFF) {
      return true;
    }
    if (verified.get(id) != wanted) {
      verified.remove(id); // a command for this state may undo the other
      return false;
    }
    if (wanted == Power.OFF && nodes.apply(id).alive()) {
      verified.remove(id);
      return false;
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
