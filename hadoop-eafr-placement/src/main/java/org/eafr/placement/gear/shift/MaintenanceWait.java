package org.eafr.placement.gear.shift;

import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * How long a gear-down has waited on leaving DataNodes that do not show IN_MAINTENANCE, so that the wait ends: a
 * DataNode whose transfers never drain (a copy crawling into a congested receiver, a block HDFS cannot re-replicate),
 * or one that came back up during {@link ShiftPhase#POWERING_OFF} and never finishes entering maintenance again, would
 * otherwise hold the shift for good, with every leaving server on. The bound is
 * {@link ShiftSettings#maintenanceTimeoutMillis} (the simulator's: the move timeout, as entering maintenance is the
 * moves HDFS makes before it; a NameNode's: {@code eafr.gear.maintenance.timeout.ms}). The clock starts when this
 * machine first sees the phase for a target (after a restart or failover it starts again).
 */
final class MaintenanceWait {
  private final long boundMillis;
  private final Function<String, String> names;
  private int target = -1;
  private ShiftPhase phase;
  private long sinceMillis;

  /** @param names how an operator knows the DataNode of an id ({@link ShiftPorts#namingBy}) */
  MaintenanceWait(long boundMillis, Function<String, String> names) {
    this.boundMillis = boundMillis;
    this.names = names;
  }

  /**
   * Why the gear-down in {@code state} gives up at {@code now}, some of its {@code leaving} DataNodes not
   * IN_MAINTENANCE past the bound, or null while it may wait on (or when every one is IN_MAINTENANCE).
   */
  String expired(ShiftState state, Set<String> leaving, Function<String, DataNodeView> dataNode, long now) {
    if (target != state.target() || phase != state.phase()) {
      target = state.target();
      phase = state.phase();
      sinceMillis = now;
    }
    if (now - sinceMillis < boundMillis) {
      return null;
    }
    Set<String> notIn = new TreeSet<>(leaving);
    notIn.removeIf(id -> dataNode.apply(id).admin() == AdminState.IN_MAINTENANCE);
    if (notIn.isEmpty()) {
      return null;
    }
    target = -1;
    return "gear-down to " + state.target() + " cancelled: " + notIn.size() + " of " + leaving.size()
        + " leaving DataNodes not IN_MAINTENANCE after " + boundMillis + " ms ("
        + String.join(", ", notIn.stream().limit(5).map(names).collect(Collectors.toList())) + (notIn.size() > 5 ? ", ...)"
        : ")");
  }
}
