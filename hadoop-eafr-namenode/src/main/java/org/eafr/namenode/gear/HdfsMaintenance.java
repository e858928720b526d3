package org.eafr.namenode.gear;

import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.ServerRoles;
import org.eafr.placement.gear.shift.MaintenancePort;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The core's {@link MaintenancePort} over HDFS: a sleeping DataNode is in the maintenance overlay of the hosts file
 * ({@link ServerRoles}, which {@code EafrHostConfigManager} reads), applied by refreshNodes. Both calls are
 * idempotent; a failed refresh is logged, and the overlay applies at the next one.
 */
final class HdfsMaintenance implements MaintenancePort {
  private static final Logger LOG = LoggerFactory.getLogger(GearService.class);

  private final NameNode nameNode;
  private final ServerRoles roles;

  HdfsMaintenance(NameNode nameNode, ServerRoles roles) {
    this.nameNode = nameNode;
    this.roles = roles;
  }

  @Override
  public void enter(Set<String> ids) {
    ids.forEach(roles::sleep);
    refresh();
  }

  @Override
  public void leave(Set<String> ids) {
    ids.forEach(roles::wake);
    refresh();
  }

  /**
   * Puts {@code state} in force on {@code gears} (persisted already, or read from the namespace): the layout, the
   * woken DataNodes out of maintenance, and every sleeper into it again (the overlay may have been rebuilt since).
   */
  void putInForce(GearRuntime gears, GearRecord state) {
    Set<String> woken = new TreeSet<>(gears.state().sleeping());
    woken.removeAll(state.sleeping());
    boolean changed = !gears.state().sleeping().equals(state.sleeping());
    gears.state(state);
    if (!woken.isEmpty()) {
      leave(woken);
    }
    if (changed && !state.sleeping().isEmpty()) {
      enter(state.sleeping());
    }
  }

  private void refresh() {
    try {
      nameNode.getNamesystem().getBlockManager().getDatanodeManager().refreshNodes(nameNode.getConf());
    } catch (IOException e) {
      LOG.error("EAFR gears: refreshNodes failed; the maintenance overlay applies at the next refresh", e);
    }
  }
}
