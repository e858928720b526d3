package org.eafr.placement.gear.shift;

import java.util.Objects;
import java.util.function.Function;

/** The narrow ports a {@link GearShift} talks through, gathered so that its host wires them in one place. */
public final class ShiftPorts {
  final ShiftCluster cluster;
  final PowerPort power;
  final MaintenancePort maintenance;
  final MovePort moves;
  final ShiftStore store;
  final ShiftEvents events;
  /** How what a shift waits for names a DataNode to an operator (the NameNode: its host); by default its id. */
  final Function<String, String> names;

  public ShiftPorts(ShiftCluster cluster, PowerPort power, MaintenancePort maintenance, MovePort moves,
      ShiftStore store) {
    this(cluster, power, maintenance, moves, store, ShiftEvents.NONE);
  }

  /** The same, telling {@code events} what happens (for the host's counters). */
  public ShiftPorts(ShiftCluster cluster, PowerPort power, MaintenancePort maintenance, MovePort moves,
      ShiftStore store, ShiftEvents events) {
    this(cluster, power, maintenance, moves, store, events, Function.identity());
  }

  private ShiftPorts(ShiftCluster cluster, PowerPort power, MaintenancePort maintenance, MovePort moves,
      ShiftStore store, ShiftEvents events, Function<String, String> names) {
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.power = Objects.requireNonNull(power, "power");
    this.maintenance = Objects.requireNonNull(maintenance, "maintenance");
    this.moves = Objects.requireNonNull(moves, "moves");
    this.store = Objects.requireNonNull(store, "store");
    this.events = Objects.requireNonNull(events, "events");
    this.names = Objects.requireNonNull(names, "names");
  }

  /**
   * The same ports, naming DataNodes to an operator by {@code names} (id to name) in what a shift waits for
   * ({@link GearShift#blockedBy}): the NameNode names hosts as {@code hdfs eafr status} always has.
   */
  public ShiftPorts namingBy(Function<String, String> names) {
    return new ShiftPorts(cluster, power, maintenance, moves, store, events, names);
  }
}
