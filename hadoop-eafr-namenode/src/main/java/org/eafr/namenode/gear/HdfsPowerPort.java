package org.eafr.namenode.gear;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.eafr.namenode.power.InventoryEntry;
import org.eafr.namenode.power.NodePowerStatus;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.PowerRefusedException;
import org.eafr.namenode.power.PowerResult;
import org.eafr.namenode.power.PowerState;
import org.eafr.namenode.power.Requester;
import org.eafr.placement.gear.shift.Power;
import org.eafr.placement.gear.shift.PowerPort;
import org.eafr.placement.gear.shift.Reply;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The core's {@link PowerPort} over the NameNode's asynchronous {@link PowerManager} (IPMI, Redfish or Wake-on-LAN
 * behind it): a command is the manager's action, its future the reply ({@link PowerRefusedException}, the manager's
 * own power-off guard among them, is {@link Reply#refused}); a host's state is the one the manager last read, never a
 * BMC call on the gear thread. A DataNode whose host is in no power inventory (or with no power manager) is switched
 * by nothing. The manager is looked up on each call: it is installed, and may be replaced, at run time.
 */
final class HdfsPowerPort implements PowerPort {
  private static final Logger LOG = LoggerFactory.getLogger(GearService.class);

  private final GearRuntime gears;
  private final GearDataNodes nodes;
  private final Map<Long, Command> commands = new HashMap<>();
  /**
   * The ticket of each host's latest command: a host has one command of the gears in play at a time, so an older one
   * is forgotten when the next is sent (a reply may be read more than once until then).
   */
  private final Map<String, Long> latest = new HashMap<>();
  private final Map<String, String> lastError = new HashMap<>();
  private long nextTicket = 1;

  HdfsPowerPort(GearRuntime gears, GearDataNodes nodes) {
    this.gears = gears;
    this.nodes = nodes;
  }

  @Override
  public long send(String id, Power wanted) {
    String host = entry(id).orElseThrow().host();
    PowerManager power = gears.power();
    CompletableFuture<PowerResult> action = wanted == Power.OFF ? power.powerOff(host, false, Requester.AUTOMATIC)
        : power.powerOn(host, Requester.AUTOMATIC);
    long ticket = nextTicket++;
    Long before = latest.put(id, ticket);
    if (before != null) {
      commands.remove(before);
    }
    commands.put(ticket, new Command(id, wanted, action));
    return ticket;
  }

  @Override
  public Reply poll(long ticket) {
    Command command = commands.get(ticket);
    if (command == null) {
      return Reply.failed("no power command " + ticket + " of the gears is known (sent before a restart)");
    }
    if (!command.action.isDone()) {
      return Reply.PENDING;
    }
    Throwable error = command.action.handle((r, e) -> e instanceof CompletionException ? e.getCause() : e).join();
    if (error instanceof PowerRefusedException) {
      return Reply.refused(error.getMessage());
    }
    if (error != null) {
      if (!error.getMessage().equals(lastError.put(command.id, error.getMessage()))) { // once per error
        gears.counters().powerFailures.incrementAndGet();
        LOG.warn("EAFR gears: turning {} {} failed: {}", command.id, command.wanted, error.getMessage());
      }
      return Reply.failed(error.getMessage());
    }
    lastError.remove(command.id);
    PowerState reached = command.action.join().state();
    return reached.name().equals(command.wanted.name()) ? Reply.DONE
        : Reply.failed("the power manager left the host " + reached + ", not " + command.wanted);
  }

  /** The state the power manager last read, with no action of it under way; empty when it knows none. */
  @Override
  public Optional<Power> read(String id) {
    Optional<NodePowerStatus> status = status(id);
    if (status.isEmpty() || status.get().inFlight() != null) {
      return Optional.empty();
    }
    PowerState known = status.get().lastKnown();
    return known == PowerState.ON ? Optional.of(Power.ON)
        : known == PowerState.OFF ? Optional.of(Power.OFF) : Optional.empty();
  }

  @Override
  public boolean controls(String id) {
    return entry(id).isPresent();
  }

  @Override
  public Optional<String> heldBack(String id) {
    return status(id).filter(NodePowerStatus::quarantined).map(status -> "quarantined (" + status.lastError()
        + "); lift it with 'hdfs eafr power clear " + status.host() + "' once its BMC works, or end the shift with"
        + " 'hdfs eafr gear cancel'");
  }

  /** The power manager runs {@code PowerOffGuard} itself, with the maintenance it saw each DataNode alive in. */
  @Override
  public boolean guardsPowerOff() {
    return true;
  }

  private Optional<InventoryEntry> entry(String id) {
    PowerManager power = gears.power();
    return power == null ? Optional.empty() : Optional.ofNullable(power.entryFor(nodes.nameOf(id)));
  }

  private Optional<NodePowerStatus> status(String id) {
    return entry(id).map(entry -> gears.power().status(entry.host()));
  }

  /** A power action the gears started: for whom, to which state, and its outcome. */
  private static final class Command {
    final String id;
    final Power wanted;
    final CompletableFuture<PowerResult> action;

    Command(String id, Power wanted, CompletableFuture<PowerResult> action) {
      this.id = id;
      this.wanted = wanted;
      this.action = action;
    }
  }
}
