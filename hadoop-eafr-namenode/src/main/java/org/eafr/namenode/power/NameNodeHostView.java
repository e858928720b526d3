package org.eafr.namenode.power;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.eafr.namenode.cluster.ServerTranslator;

/**
 * {@link HostView} from the NameNode's DatanodeManager. An entry's host (HOST or HOST:PORT) matches DataNodes as in
 * the roles file. Powering off is allowed only when at least one DataNode matches and every match is IN_MAINTENANCE,
 * alive or dead: that state is HDFS's own guarantee that each of its blocks has
 * {@code dfs.namenode.maintenance.replication.min} live replicas elsewhere. ENTERING_MAINTENANCE, decommissioning or
 * in service are refused, and so is a host no DataNode registered from (nothing to check it against).
 */
public final class NameNodeHostView implements HostView {
  private final DatanodeManager dataNodes;

  public NameNodeHostView(DatanodeManager dataNodes) {
    this.dataNodes = dataNodes;
  }

  @Override
  public void checkMayPowerOff(InventoryEntry entry) throws PowerRefusedException {
    List<DatanodeDescriptor> matches = matching(entry);
    if (matches.isEmpty()) {
      throw new PowerRefusedException("refusing to power off " + entry.host() + ": no DataNode of this NameNode"
          + " runs there, so HDFS cannot show it IN_MAINTENANCE");
    }
    for (DatanodeDescriptor dn : matches) {
      if (!dn.isInMaintenance()) {
        throw new PowerRefusedException("refusing to power off " + entry.host() + ": HDFS shows DataNode "
            + ServerTranslator.nameOf(dn) + " " + dn.getAdminState() + (dn.isAlive() ? "" : " (dead)")
            + ", not IN_MAINTENANCE; put it into maintenance (dfs.hosts entry with adminState IN_MAINTENANCE, then"
            + " hdfs dfsadmin -refreshNodes) and wait until HDFS shows it IN_MAINTENANCE");
      }
    }
  }

  @Override
  public PowerState heartbeatState(InventoryEntry entry) {
    List<DatanodeDescriptor> matches = matching(entry);
    if (matches.isEmpty()) {
      return PowerState.UNKNOWN;
    }
    return matches.stream().anyMatch(DatanodeDescriptor::isAlive) ? PowerState.ON : PowerState.OFF;
  }

  private List<DatanodeDescriptor> matching(InventoryEntry entry) {
    List<DatanodeDescriptor> matches = new ArrayList<>();
    for (DatanodeDescriptor dn : dataNodes.getDatanodeListForReport(DatanodeReportType.ALL)) {
      if (ServerTranslator.nameOf(dn).matches(entry.host())) {
        matches.add(dn);
      }
    }
    return matches;
  }
}
