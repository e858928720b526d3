package org.eafr.namenode.gear;

import java.io.IOException;
import java.util.Set;
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

  private void refresh() {
    try {
      nameNode.getNamesystem().getBlockManager().getDatanodeManager().refreshNodes(nameNode.getConf());
    } catch (IOException e) {
      LOG.error("EAFR gears: refreshNodes failed; the maintenance overlay applies at the next refresh", e);
    }
  }
}
