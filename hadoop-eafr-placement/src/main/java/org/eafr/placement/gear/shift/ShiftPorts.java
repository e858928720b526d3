package org.eafr.placement.gear.shift;

import java.util.Objects;

/** The narrow ports a {@link GearShift} talks through, gathered so that its host wires them in one place. */
public final class ShiftPorts {
  final ShiftCluster cluster;
  final PowerPort power;
  final MaintenancePort maintenance;
  final MovePort moves;
  final ShiftStore store;
  final ShiftEvents events;

  public ShiftPorts(ShiftCluster cluster, PowerPort power, MaintenancePort maintenance, MovePort moves,
      ShiftStore store) {
    this(cluster, power, maintenance, moves, store, ShiftEvents.NONE);
  }

  /** The same, telling {@code events} what happens (for the host's counters). */
  public ShiftPorts(ShiftCluster cluster, PowerPort power, MaintenancePort maintenance, MovePort moves,
      ShiftStore store, ShiftEvents events) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.power = Objects.requireNonNull(power, "power");
    this.maintenance = Objects.requireNonNull(maintenance, "maintenance");
    this.moves = Objects.requireNonNull(moves, "moves");
    this.store = Objects.requireNonNull(store, "store");
    this.events = Objects.requireNonNull(events, "events");
  }
}
