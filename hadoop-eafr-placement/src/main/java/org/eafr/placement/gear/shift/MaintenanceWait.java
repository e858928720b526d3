package org.eafr.placement.gear.shift;

import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * How long a gear-down has waited for its leaving DataNodes to show IN_MAINTENANCE, so that the wait ends: a DataNode
 * whose transfers never drain (a copy crawling into a congested receiver, a block HDFS cannot re-replicate) would
 * otherwise hold the shift in {@link ShiftPhase#ENTERING_MAINTENANCE} for good, with every leaving server on. The
 * bound is the one a move gets ({@link ShiftSettings#moveTimeoutMillis}): entering maintenance is the moves HDFS makes
 * before it. The clock starts when this machine first sees the phase for a target (after a restart or failover it
 * starts again).
 */
final class MaintenanceWait {
  private final long boundMillis;
  private int target = -1;
  private long sinceMillis;

  MaintenanceWait(long boundMillis) {
    this.boundMillis = boundMillis;
  }

  /**
   * Why the gear-down in {@code state} gives up at {@code now}, its {@code leaving} DataNodes not all IN_MAINTENANCE
   * yet, or null while it may wait on.
   */
  String expired(ShiftState state, Set<String> leaving, Function<String, DataNodeView> dataNode, long now) {
    if (state.phase() != ShiftPhase.ENTERING_MAINTENANCE) {
      target = -1;
      return null;
    }
    if (target != state.target()) {
      target = state.target();
      sinceMillis = now;
    }
    if (now - sinceMillis < boundMillis) {
      return null;
    }
    Set<String> notIn = new TreeSet<>(leaving);
    notIn.removeIf(id -> dataNode.apply(id).admin() == AdminState.IN_MAINTENANCE);
    target = -1;
    return "gear-down to " + state.target() + " cancelled: " + notIn.size() + " of " + leaving.size()
        + " leaving DataNodes not IN_MAINTENANCE after " + boundMillis + " ms ("
        + String.join(", ", notIn.stream().limit(5).collect(Collectors.toList())) + (notIn.size() > 5 ? ", ...)"
        : ")");
  }
}
