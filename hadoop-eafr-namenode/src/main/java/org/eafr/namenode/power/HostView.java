package org.eafr.namenode.power;

/**
 * The NameNode's view of the DataNodes on a host, which the power manager consults: whether they may be powered off,
 * and (for Wake-on-LAN hosts, which have no BMC to ask) whether they are up.
 */
public interface HostView {
  /**
   * Throws naming the reason unless every DataNode HDFS knows on {@code entry}'s host is IN_MAINTENANCE (alive or
   * dead): HDFS's guarantee that each of their blocks has its minimum live replicas elsewhere.
   */
  void checkMayPowerOff(InventoryEntry entry) throws PowerRefusedException;

  /** ON while a DataNode of the host heartbeats, OFF once all of them are dead, UNKNOWN when none is registered. */
  PowerState heartbeatState(InventoryEntry entry);
}
