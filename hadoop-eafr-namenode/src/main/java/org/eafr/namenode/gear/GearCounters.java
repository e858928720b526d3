package org.eafr.namenode.gear;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.eafr.placement.gear.GearReason;
import org.eafr.placement.gear.shift.ShiftEvents;

/**
 * What the gear service has done since the NameNode started, for metrics2 and {@code hdfs eafr status}; the shift's
 * events ({@link ShiftEvents}, the core's port) count here.
 */
public final class GearCounters implements ShiftEvents {
  public final AtomicLong shifts = new AtomicLong();
  public final AtomicLong refusedShifts = new AtomicLong();
  public final AtomicLong powerFailures = new AtomicLong();
  public final AtomicLong blocksReflected = new AtomicLong();
  public final AtomicLong reflectionFailures = new AtomicLong();
  public final AtomicLong offloadedWrites = new AtomicLong();
  /** SpringFS's passive migration: block moves home finished, their bytes, files whose owed moves were dropped. */
  public final AtomicLong passiveMigratedBlocks = new AtomicLong();
  public final AtomicLong passiveMigratedBytes = new AtomicLong();
  public final AtomicLong passiveMigrationsDropped = new AtomicLong();
  /** Files recorded as owing passive migration and not yet migrated (its backlog). */
  public final AtomicLong passiveOwedFiles = new AtomicLong();
  /** Files whose owed moves are recorded in the namespace and not yet reflected (the reflection backlog). */
  public final AtomicLong owedFiles = new AtomicLong();
  /** Out-of-turn wakes because a DataNode that should be on failed (its recovery group), and DataNodes they woke. */
  public final AtomicLong wakesForFailures = new AtomicLong();
  /** Out-of-turn wakes because a block had no live replica and a sleeping holder (a read or a re-replication). */
  public final AtomicLong wakesForBlocks = new AtomicLong();
  public final AtomicLong nodesWoken = new AtomicLong();
  /** Block locations given to a reader with no replica at all (each one asks the wake detector to look at once). */
  public final AtomicLong readsWithoutReplica = new AtomicLong();
  /**
   * Re-replications HDFS asked for that the placement policy answered with no target, the block's missing replicas
   * being asleep at their homes, unseen by this NameNode since it started (a block asked again counts again).
   */
  public final AtomicLong reReplicationsDeferred = new AtomicLong();
  /** Gear shifts the autopilot started (auto mode); {@link #shifts} counts them too. */
  public final AtomicLong autoShifts = new AtomicLong();
  /** The autopilot's decisions, each counted once under the controller's reason (also those that hold the gear). */
  public final Map<GearReason, AtomicLong> autoDecisions;

  public GearCounters() {
    Map<GearReason, AtomicLong> decisions = new EnumMap<>(GearReason.class);
    for (GearReason reason : GearReason.values()) {
      decisions.put(reason, new AtomicLong());
    }
    autoDecisions = Collections.unmodifiableMap(decisions);
  }

  @Override
  public void shiftStarted(int target, String decision) {
    shifts.incrementAndGet();
  }

  @Override
  public void shiftRefused(String why) {
    refusedShifts.incrementAndGet();
  }

  @Override
  public void wakeStarted(Set<String> ids, Map<String, String> failed) {
    (failed.isEmpty() ? wakesForBlocks : wakesForFailures).incrementAndGet();
  }

  @Override
  public void woken(Set<String> ids) {
    nodesWoken.addAndGet(ids.size());
  }

  @Override
  public void blockReflected(String blockId) {
    blocksReflected.incrementAndGet();
  }

  @Override
  public void moveFailed(String blockId, String reason) {
    reflectionFailures.incrementAndGet();
  }
}
