package org.eafr.placement.gear.shift;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * How long a gear-down has waited on its leaving DataNodes WITHOUT PROGRESS, so that a stalled wait ends: a DataNode
 * whose transfers never drain (a copy into a congested receiver that stopped, a block HDFS cannot re-replicate), or
 * one that came back up during {@link ShiftPhase#POWERING_OFF} and never finishes entering maintenance again, would
 * otherwise hold the shift for good, with every leaving server on. A drain that is slow but moving is never cut short.
 * Progress is a leaving DataNode reaching IN_MAINTENANCE, or one still entering it having fewer blocks left
 * ({@link ShiftCluster#maintenanceBlocksLeft}) than at the last look; each restarts the clock, as does every leaving
 * DataNode showing IN_MAINTENANCE. The wait is cancelled once the clock reaches the bound,
 * {@link ShiftSettings#maintenanceStallMillis} (the simulator's: the move timeout, as entering maintenance is the
 * moves HDFS makes before it; a NameNode's: {@code eafr.gear.maintenance.stall.ms}). The clock starts when this
 * machine first sees the phase for a target (after a restart or failover it starts again).
 *
 * <p>Worked example ({@code GearShiftMaintenanceWaitTest}, a bound of 4 ms): s11 enters maintenance with 3 blocks left
 * and is first seen at t = 1; down to 2 blocks at t = 3 restarts the clock, so nothing is cancelled at t = 5; with no
 * progress after that the gear-down is cancelled at exactly t = 3 + 4 = 7.
 */
final class MaintenanceWait {
  private final long boundMillis;
  private final Function<String, String> names;
  private int target = -1;
  private ShiftPhase phase;
  private long sinceMillis;
  /** Each leaving DataNode's distance to IN_MAINTENANCE at the last look ({@link #distance}). */
  private Map<String, Long> lastDistances = Map.of();

  /** @param names how an operator knows the DataNode of an id ({@link ShiftPorts#namingBy}) */
  MaintenanceWait(long boundMillis, Function<String, String> names) {
    this.boundMillis = boundMillis;
    this.names = names;
  }

  /**
   * Looks at the gear-down in {@code state} at {@code now} (every step of its wait, so that progress is seen): why it
   * gives up, some of its {@code leaving} DataNodes not IN_MAINTENANCE and none of them closer to it for the bound, or
   * null while it may wait on (or when every one is IN_MAINTENANCE).
   */
  String expired(ShiftState state, Set<String> leaving, ShiftCluster cluster, long now) {
    Map<String, Long> distances = new HashMap<>();
    leaving.forEach(id -> distances.put(id, distance(id, cluster)));
    boolean allIn = distances.values().stream().allMatch(d -> d == 0);
    if (target != state.target() || phase != state.phase() || allIn || closer(distances)) {
      target = state.target();
      phase = state.phase();
      sinceMillis = now;
    }
    lastDistances = distances;
    if (allIn || now - sinceMillis < boundMillis) {
      return null;
    }
    Set<String> notIn = new TreeSet<>(leaving);
    notIn.removeIf(id -> distances.get(id) == 0);
    long blocksLeft = notIn.stream().mapToLong(id -> distances.get(id) - 1).sum();
    target = -1;
    return "gear-down to " + state.target() + " cancelled: " + notIn.size() + " of " + leaving.size()
        + " leaving DataNodes not IN_MAINTENANCE, with no progress for " + boundMillis + " ms (" + blocksLeft
        + (blocksLeft == 1 ? " block" : " blocks") + " left; "
        + String.join(", ", notIn.stream().limit(5).map(names).collect(Collectors.toList()))
        + (notIn.size() > 5 ? ", ...)" : ")");
  }

  /** 0 for a DataNode IN_MAINTENANCE, else 1 + the blocks HDFS still waits on before it shows it so. */
  private static long distance(String id, ShiftCluster cluster) {
    return cluster.dataNode(id).admin() == AdminState.IN_MAINTENANCE ? 0 : 1 + cluster.maintenanceBlocksLeft(id);
  }

  /** Whether a leaving DataNode is closer to IN_MAINTENANCE than at the last look (one back out of it is not). */
  private boolean closer(Map<String, Long> distances) {
    for (Map.Entry<String, Long> now : distances.entrySet()) {
      Long before = lastDistances.get(now.getKey());
      if (before != null && now.getValue() < before) {
        return true;
      }
    }
    return false;
  }
}
