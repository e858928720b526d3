package org.eafr.placement.gear.shift;

import java.util.Map;
import java.util.Set;

/**
 * What a gear shift tells its host as it happens, for counters and metrics (the NameNode's {@code GearCounters},
 * exported by metrics2 and shown by {@code hdfs eafr status}): one call per event, on the thread that steps the shift,
 * never holding anything up. Every method does nothing by default, so a host counts only what it shows.
 */
public interface ShiftEvents {
  /** Counts nothing. */
  ShiftEvents NONE = new ShiftEvents() {
  };

  /** A shift to {@code target} started; {@code decision} says who asked and what it keeps on. */
  default void shiftStarted(int target, String decision) {
  }

  /** A shift asked for was refused, or a gear-down was cancelled after maintenance; {@code why} names the cause. */
  default void shiftRefused(String why) {
  }

  /**
   * A wake out of turn started for {@code ids}: for the recovery groups of the DataNodes that should be on and
   * failed, {@code failed} naming each by id with "dead", "dead (not registered)" (for HDFS's dead interval since
   * this NameNode became active) or "stale"; for a block when {@code failed} is empty.
   */
  default void wakeStarted(Set<String> ids, Map<String, String> failed) {
  }

  /**
   * While the state cannot be persisted ({@link GearShift#stepReadOnly}), the recovery groups of the dead DataNodes
   * {@code failed} names are powered on: {@code ids}, once per dead DataNode; the wake that persists them later is
   * not announced again. Counted as {@link #wakeStarted} unless the host says otherwise.
   */
  default void wakeStartedReadOnly(Set<String> ids, Map<String, String> failed) {
    wakeStarted(ids, failed);
  }

  /**
   * While the state cannot be persisted, the recovery groups {@link #wakeStartedReadOnly} powered on have registered
   * and reported {@code waitedMillis} ago (HDFS's dead interval or more) and the host is still read-only: every other
   * sleeper, {@code ids}, is powered on, once. Counted as a wake for blocks unless the host says otherwise.
   */
  default void wakeAllReadOnly(Set<String> ids, long waitedMillis) {
    wakeStarted(ids, Map.of());
  }

  /** DataNodes woken out of turn are on, registered and reported, and out of maintenance. */
  default void woken(Set<String> ids) {
  }

  /** An owed block is at home (every home holds it) and is forgotten. */
  default void blockReflected(String blockId) {
  }

  /** A reflection move failed ({@code reason}); the block is looked at again next pass. */
  default void moveFailed(String blockId, String reason) {
  }
}
