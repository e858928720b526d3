package org.eafr.placement.gear;

/** Why the gear controller chose its target gear; logged and counted with every decision. */
public enum GearReason {
  /** The load fits the current gear and no lower gear qualifies. */
  HOLD,
  /** The load needs more servers than the current gear has on: shift up at once. */
  UP_FOR_LOAD,
  /** A lower gear carries the load below the target utilization minus the down margin, and the dwell time passed. */
  DOWN_FOR_LOAD,
  /** A lower gear would carry the load, but the minimum dwell time since the last shift has not passed. */
  HELD_BY_DWELL,
  /** The load's gear would leave a block without a live replica: the floor raised the target above it. */
  RAISED_BY_AVAILABILITY,
  /** An operator chose the gear. */
  MANUAL
}
