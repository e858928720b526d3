package org.eafr.namenode.gear;

/** Where a gear shift stands; persisted with the gear state, so a restarted or new active NameNode resumes it. */
public enum GearPhase {
  /** No shift under way: the gear is the target gear. */
  STEADY,
  /** Gear-down: the leaving DataNodes were put into HDFS maintenance; waiting until HDFS shows them IN_MAINTENANCE. */
  ENTERING_MAINTENANCE,
  /** Gear-down: the availability check passed once more; their hosts are being powered off and verified off. */
  POWERING_OFF,
  /** Gear-up: the waking hosts are being powered on and verified on. */
  POWERING_ON,
  /** Gear-up: waiting until each waking DataNode has registered and sent its block report. */
  REGISTERING,
  /** Gear-up: out of maintenance; what the woken groups are owed is being copied home in batches. */
  REFLECTING
}
