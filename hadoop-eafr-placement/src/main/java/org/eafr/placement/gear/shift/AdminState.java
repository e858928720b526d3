package org.eafr.placement.gear.shift;

/**
 * A DataNode's admin state as HDFS shows it: the maintenance states a gear shift uses, and the decommission states
 * that take a DataNode out of the layout (HDFS copies its blocks away; a shift neither waits for nor powers it).
 */
public enum AdminState {
  NORMAL,
  ENTERING_MAINTENANCE,
  IN_MAINTENANCE,
  DECOMMISSIONING,
  DECOMMISSIONED;

  /** Whether HDFS decommissions the DataNode or has: out of the gears' layout. */
  public boolean decommission() {
    return this == DECOMMISSIONING || this == DECOMMISSIONED;
  }

  /** Whether HDFS has the DataNode in maintenance (entering it or in it): its replicas are expected to be away. */
  public boolean maintenance() {
    return this == ENTERING_MAINTENANCE || this == IN_MAINTENANCE;
  }
}
