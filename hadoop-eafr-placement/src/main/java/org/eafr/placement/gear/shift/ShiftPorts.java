package org.eafr.placement.gear.shift;

import java.util.Objects;

/** The narrow ports a {@link GearShift} talks through, gathered so that its host wires them in one place. */
public final class ShiftPorts {
  final ShiftCluster cluster;
  final PowerPort power;
  final MaintenancePort maintenance;
  final MovePort moves;
  final ShiftStore store;

  public ShiftPorts(ShiftCluster cluster, PowerPort power, MaintenancePort maintenance, MovePort moves,
      ShiftStore store) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.power = Objects.requireNonNull(power, "power");
    this.maintenance = Objects.requireNonNull(maintenance, "maintenance");
    this.moves = Objects.requireNonNull(moves, "moves");
    this.store = Objects.requireNonNull(store, "store");
  }
}
