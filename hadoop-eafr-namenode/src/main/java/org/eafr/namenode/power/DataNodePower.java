package org.eafr.namenode.power;

import java.util.OptionalDouble;
import java.util.Set;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;

/**
 * One DataNode's power state, from what the NameNode knows: the power manager's record of the DataNode's inventory
 * host (an action in flight, quarantine, the state its BMC last read), the DataNode's heartbeats, and the gear state
 * (DataNodes the gears put to sleep). The newer of the two wins: a BMC that read OFF after the DataNode's last heartbeat
 * makes it OFF at once (HDFS still shows it alive until its heartbeat recheck, 10.5 minutes by default), and a
 * heartbeat after the BMC's last OFF reading makes it ON (it was switched on since, by hand or by another NameNode).
 *
 * <p>It also says what the DataNode draws in the core's power model ({@link #forPowerModel}): awake at its
 * utilization while on (idle when its host is on but its DataNode process is not), the model's off draw while off,
 * nothing when its state is unknown (the core's failed server: an estimate that does not guess). A DataNode in
 * transition or quarantine draws as its last known state.
 */
public final class DataNodePower {
  private final DataNodePowerState state;
  private final PowerState drawing;
  private final String host;
  private final Double hostMeasuredWatts;

  private DataNodePower(DataNodePowerState state, PowerState drawing, String host, Double hostMeasuredWatts) {
    this.state = state;
    this.drawing = drawing;
    this.host = host;
    this.hostMeasuredWatts = hostMeasuredWatts;
  }

  /**
   * @param power the NameNode's power manager, or null when none is configured
   * @param gearSleeping the DataNodes (IP:transfer port) the gear state has asleep
   */
  public static DataNodePower of(DatanodeDescriptor dataNode, PowerManager power, Set<String> gearSleeping) {
    NodePowerStatus host = hostStatus(dataNode, power);
    PowerState drawing = drawing(dataNode, host, gearSleeping);
    String name = host == null ? null : host.host();
    Double measured = measured(power, host, drawing);
    if (host != null && host.inFlight() != null) {
      return new DataNodePower(DataNodePowerState.TRANSITIONING, drawing, name, measured);
    }
    if (host != null && host.quarantined()) {
      return new DataNodePower(DataNodePowerState.QUARANTINED, drawing, name, measured);
    }
    return new DataNodePower(DataNodePowerState.valueOf(drawing.name()), drawing, name, measured);
  }

  /** The host's fresh measured draw, taken in the state the DataNode is drawn in now; else null. */
  private static Double measured(PowerManager power, NodePowerStatus host, PowerState drawing) {
    if (host == null || host.lastKnown() != drawing) {
      return null;
    }
    OptionalDouble watts = power.measured().watts(host.host(), drawing);
    return watts.isPresent() ? watts.getAsDouble() : null;
  }

  /** The inventory host the DataNode runs on, or null when no entry switches it. */
  public String host() {
    return host;
  }

  /**
   * What the DataNode's whole host draws as its BMC measured it (fresh, and in the state the DataNode is drawn in),
   * or null: then the power model stands in.
   */
  public Double hostMeasuredWatts() {
    return hostMeasuredWatts;
  }

  private static NodePowerStatus hostStatus(DatanodeDescriptor dataNode, PowerManager power) {
    if (power == null) {
      return null;
    }
    InventoryEntry entry = power.entryFor(ServerTranslator.nameOf(dataNode));
    return entry == null ? null : power.status(entry.host());
  }

  /** ON, OFF or UNKNOWN: what the DataNode's host is doing, as best known. */
  private static PowerState drawing(DatanodeDescriptor dataNode, NodePowerStatus host, Set<String> gearSleeping) {
    if (host != null && host.lastKnown() == PowerState.OFF
        && host.lastReadMillis() > dataNode.getLastUpdateMonotonic()) {
      return PowerState.OFF;
    }
    if (dataNode.isAlive()) {
      return PowerState.ON;
    }
    if (host != null && host.lastKnown() != PowerState.UNKNOWN) {
      return host.lastKnown();
    }
    // After a NameNode restart no BMC has been read yet; a DataNode the gears switched off is still off.
    if (host != null && gearSleeping.contains(ServerTranslator.idOf(dataNode))) {
      return PowerState.OFF;
    }
    return PowerState.UNKNOWN;
  }

  public DataNodePowerState state() {
    return state;
  }

  /**
   * {@code server} (the DataNode as the core sees it) as the power model should draw it: an awake role (its own when
   * HOT or STANDBY, else HOT) at its load while it heartbeats and at 0 when only its host is known on; COLD (the
   * model's off draw) while off; FAILED (nothing) while unknown.
   */
  public Server forPowerModel(Server server, boolean heartbeating) {
    switch (drawing) {
      case ON:
        ServerRole awake = server.role() == ServerRole.STANDBY ? ServerRole.STANDBY : ServerRole.HOT;
        Server on = server.withRole(awake);
        return heartbeating ? on : on.withConcurrentReads(0);
      case OFF:
        return server.withRole(ServerRole.COLD);
      default:
        return server.withRole(ServerRole.FAILED);
    }
  }
}
