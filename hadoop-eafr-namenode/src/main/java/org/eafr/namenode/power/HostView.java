package org.eafr.namenode.power;

/**
 * The NameNode's view of the DataNodes on a host, which the power manager consults: whether this NameNode may act at
 * all, whether a host may be powered off now, and (for Wake-on-LAN hosts, which have no BMC to ask) whether they are
 * up. The power manager owns its view and closes it.
 */
public interface HostView extends AutoCloseable {
  /** Whether this NameNode is the active one: only the active NameNode's power manager acts. */
  boolean active();

  /**
   * Throws naming the reason unless the power-off guard passes for {@code entry}'s host now: this NameNode is active,
   * every DataNode of the host is IN_MAINTENANCE and verified, and every block they hold keeps a live replica on a
   * DataNode that stays on ({@link org.eafr.placement.power.PowerOffGuard}). May take a while on a host with many
   * blocks: called on the power manager's threads, never on an IPC handler.
   */
  void checkMayPowerOff(InventoryEntry entry) throws PowerRefusedException;

  /** ON while a DataNode of the host heartbeats, OFF once all of them are dead, UNKNOWN when none is registered. */
  PowerState heartbeatState(InventoryEntry entry);

  @Override
  default void close() {
  }
}
