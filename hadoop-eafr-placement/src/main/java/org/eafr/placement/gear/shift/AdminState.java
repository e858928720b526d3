package org.eafr.placement.gear.shift;

/** A DataNode's admin state as HDFS shows it (the maintenance states a gear shift uses; decommissioning is not). */
public enum AdminState {
  NORMAL,
  ENTERING_MAINTENANCE,
  IN_MAINTENANCE
}
