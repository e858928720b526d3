package org.eafr.namenode.gear;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.eafr.namenode.power.InventoryEntry;
import org.eafr.namenode.power.NodePowerStatus;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.PowerRefusedException;
import org.eafr.namenode.power.PowerResult;
import org.eafr.namenode.power.PowerState;
import org.eafr.namenode.power.Requester;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the hosts of a gear shift to a power state through the NameNode's asynchronous {@link PowerManager} (IPMI,
 * Redfish or Wake-on-LAN behind it, each power-off behind its guard) and says when each is verified there, step after
 * step without blocking: a verified state is kept while nothing contradicts it, a DataNode that is not running and
 * whose power-off was refused is counted asleep, and a host in no power inventory stays on.
 */
final class GearPower {
  private static final Logger LOG = LoggerFactory.getLogger(GearService.class);

  private final GearRuntime gears;
  private final GearDataNodes nodes;
  private final Map<String, CompletableFuture<PowerResult>> powerActions = new HashMap<>();
  private final Set<String> notInInventory = new HashSet<>();
  private final Map<String, String> lastPowerError = new HashMap<>();
  /**
   * DataNodes whose host this service's own power action verified in a state; none is sent a command or read again
   * for that state while the power manager still knows it there (a gear-down to 0 after one to 2 leaves the hosts
   * already off alone). Forgotten when anything contradicts it (a later read, a running DataNode).
   */
  private final Map<String, PowerState> verified = new HashMap<>();
  /**
   * DataNodes asked to sleep that are not running (never registered with this NameNode, asleep since before it
   * started; or registered and dead before the gear-down, so IN_MAINTENANCE at once without this NameNode seeing them
   * alive in it) whose power-off the power manager refused: they serve nothing, so the shift counts them asleep with
   * no power command (logged once) until their DataNode runs again. Their hosts are never switched off unguarded.
   */
  private final Set<String> countedAsleep = new HashSet<>();

  GearPower(GearRuntime gears, GearDataNodes nodes) {
    this.gears = gears;
    this.nodes = nodes;
  }

  /** Forgets the actions and errors of {@code ids} (a cancelled shift): the next shift starts afresh for them. */
  void forget(Set<String> ids) {
    powerActions.keySet().removeAll(ids);
    lastPowerError.keySet().removeAll(ids);
  }

  /** Why {@code id}'s host has not reached its state: quarantined, the last error, or the action under way. */
  String blocker(String id) {
    PowerManager power = gears.power();
    InventoryEntry entry = power == null ? null : power.entryFor(nodes.nameOf(id));
    if (entry == null) {
      return nodes.isAlive(id) ? null : "in no power inventory (eafr.power.inventory.file) and not running";
    }
    NodePowerStatus status = power.status(entry.host());
    if (status != null && status.quarantined()) {
      return "quarantined (" + status.lastError() + "); lift it with 'hdfs eafr power clear " + entry.host()
          + "' once its BMC works, or end the shift with 'hdfs eafr gear cancel'";
    }
    String error = lastPowerError.get(id);
    CompletableFuture<PowerResult> action = powerActions.get(id);
    if (action != null && !action.isDone()) {
      return "power " + (gears.state().target() < gears.state().gear() ? "off" : "on") + " under way"
          + (error == null ? "" : "; last error: " + error);
    }
    return error == null ? null : "last power error: " + error;
  }

  /**
   * Whether {@code id}'s host is verified off: its DataNode is not alive, and this service verified the host OFF, or
   * the power manager read it OFF with no action in flight, or it is counted asleep (not running, its power-off
   * refused).
   */
  boolean verifiedOff(String id) {
    if (nodes.isAlive(id)) {
      return false;
    }
    if (verified.get(id) == PowerState.OFF || countedAsleep.contains(id)) {
      return true;
    }
    PowerManager power = gears.power();
    InventoryEntry entry = power == null ? null : power.entryFor(nodes.nameOf(id));
    NodePowerStatus status = entry == null ? null : power.status(entry.host());
    return status != null && status.inFlight() == null && status.lastKnown() == PowerState.OFF;
  }

  /**
   * Whether every DataNode of {@code ids} has reached {@code wanted} through the power manager (verified by its
   * driver); starts the missing actions. A DataNode whose host is in no power inventory cannot be switched: it stays
   * on (in maintenance when sleeping), logged once.
   */
  boolean powered(Set<String> ids, PowerState wanted) {
    PowerManager power = gears.power();
    boolean all = true;
    for (String id : ids) {
      if (nodes.outOfLayout(id)) {
        continue; // never powered: HDFS decommissions it, or has
      }
      InventoryEntry entry = power == null ? null : power.entryFor(nodes.nameOf(id));
      if (entry == null) {
        if (wanted == PowerState.ON && !nodes.isAlive(id)) {
          all = false; // nothing can switch it on: the shift waits, loudly, for an operator
          if (notInInventory.add(id + " " + wanted)) {
            gears.counters().powerFailures.incrementAndGet();
            LOG.error("EAFR gears: DataNode {} ({}) must be switched on for gear {}, but it is in no power inventory"
                + " ({}) and not running: the shift waits in {} until it is switched on by hand or added to the"
                + " inventory", id, nodes.nameOf(id), gears.state().target(), "eafr.power.inventory.file",
                gears.state().phase());
          }
        } else if (notInInventory.add(id)) {
          LOG.warn("EAFR gears: DataNode {} is in no power inventory ({}): it stays on{}", id,
              "eafr.power.inventory.file", wanted == PowerState.OFF ? ", in maintenance" : "");
        }
        continue;
      }
      CompletableFuture<PowerResult> action = powerActions.get(id);
      if (action != null && action.isDone() && !action.isCompletedExceptionally()
          && action.join().state() == wanted) {
        verified.put(id, wanted);
        continue;
      }
      if (wanted == PowerState.OFF && countedAsleep(id, action)) {
        continue;
      }
      if (stillVerified(id, entry, wanted)) {
        continue; // e.g. off since an earlier gear-down: no command, no read
      }
      if (action == null || action.isCompletedExceptionally() || action.isDone()) {
        if (action != null && action.isCompletedExceptionally()) {
          String error = action.handle((r, e) -> e.getMessage()).join();
          if (!error.equals(lastPowerError.put(id, error))) { // once per error: a quarantined host stays refused
            gears.counters().powerFailures.incrementAndGet();
            LOG.warn("EAFR gears: turning {} {} failed: {}", id, wanted, error);
          }
        }
        powerActions.put(id, wanted == PowerState.OFF ? power.powerOff(entry.host(), false, Requester.AUTOMATIC)
            : power.powerOn(entry.host(), Requester.AUTOMATIC));
        all = false;
      } else {
        all = false; // under way
      }
    }
    if (all) {
      powerActions.keySet().removeAll(ids);
      lastPowerError.keySet().removeAll(ids);
    }
    return all;
  }

  /**
   * Whether {@code id} is asleep as far as HDFS can tell: its DataNode is not running (never registered with this
   * NameNode, or dead) and its power-off ({@code action}) was refused, since the guard cannot see it alive in
   * maintenance and its host could not be read OFF. Nothing is lost by counting it asleep: the NameNode holds no live
   * replica on it (its host may still run: the energy is lost, no data is). Its DataNode running again ends this, and
   * its power-off is asked for again.
   */
  private boolean countedAsleep(String id, CompletableFuture<PowerResult> action) {
    if (nodes.isAlive(id)) {
      countedAsleep.remove(id);
      return false;
    }
    if (countedAsleep.contains(id)) {
      return true;
    }
    Throwable error = action == null || !action.isCompletedExceptionally() ? null
        : action.handle((r, e) -> e instanceof CompletionException ? e.getCause() : e).join();
    if (!(error instanceof PowerRefusedException)) {
      return false;
    }
    countedAsleep.add(id);
    LOG.warn("EAFR gears: DataNode {} ({}) is not running ({}) and its power-off was refused ({}): counted asleep for"
        + " gear {}, with no power command", id, nodes.nameOf(id), nodes.descriptor(id) == null ? "not registered with this"
        + " NameNode since it started" : "dead", error.getMessage(), gears.state().target());
    return true;
  }

  /**
   * Whether this service verified {@code id}'s host in {@code wanted} and nothing says otherwise since: the power
   * manager still knows it there with no action in flight (an operator's command or status read would have changed
   * that), and, for OFF, its DataNode does not heartbeat. Else the record is forgotten.
   */
  private boolean stillVerified(String id, InventoryEntry entry, PowerState wanted) {
    if (verified.get(id) != wanted) {
      return false;
    }
    NodePowerStatus status = gears.power().status(entry.host());
    boolean stands = status != null && status.inFlight() == null && status.lastKnown() == wanted
        && (wanted != PowerState.OFF || !nodes.isAlive(id));
    if (!stands) {
      verified.remove(id);
    }
    return stands;
  }
}
