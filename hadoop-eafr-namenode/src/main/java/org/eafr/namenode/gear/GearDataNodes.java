package org.eafr.namenode.gear;

import java.util.List;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.config.DataNodeName;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.shift.AdminState;
import org.eafr.placement.gear.shift.DataNodeView;

/**
 * The gears' view of this NameNode's DataNodes (its DataNode manager), by chain id ({@code host:transfer port}): each
 * lookup is one map read, so a step costs what the DataNodes of the shift cost, never what the namespace holds.
 */
final class GearDataNodes {
  private final NameNode nameNode;
  private final GearRuntime gears;

  GearDataNodes(NameNode nameNode, GearRuntime gears) {
    this.nameNode = nameNode;
    this.gears = gears;
  }

  /**
   * Whether the DataNode {@code id} is out of the layout: HDFS decommissions it or has (the gears never wait for it,
   * never switch it, never count it).
   */
  boolean outOfLayout(String id) {
    if (gears.state().retired().contains(id)) {
      return true;
    }
    DatanodeDescriptor dn = descriptor(id);
    return dn != null && (dn.isDecommissionInProgress() || dn.isDecommissioned());
  }

  /** The DataNode {@code id} as the core's gear shift reads it; {@link DataNodeView#UNREGISTERED} when unknown. */
  DataNodeView view(String id) {
    DatanodeDescriptor dn = descriptor(id);
    if (dn == null) {
      return DataNodeView.UNREGISTERED;
    }
    return new DataNodeView(true, dn.isAlive(), dn.checkBlockReportReceived(), admin(dn.getAdminState()), false);
  }

  static AdminState admin(AdminStates state) {
    switch (state) {
      case DECOMMISSION_INPROGRESS:
        return AdminState.DECOMMISSIONING;
      case DECOMMISSIONED:
        return AdminState.DECOMMISSIONED;
      case ENTERING_MAINTENANCE:
        return AdminState.ENTERING_MAINTENANCE;
      case IN_MAINTENANCE:
        return AdminState.IN_MAINTENANCE;
      default:
        return AdminState.NORMAL;
    }
  }

  /** Alive and in service: a replica there can be read, a block can be written there. */
  boolean isLive(String id) {
    DatanodeDescriptor dn = descriptor(id);
    return dn != null && dn.isAlive() && dn.isInService();
  }

  /** The servers of {@code layout} alive and in service. */
  ActiveSet serversOn(GearedLayout layout) {
    return GearRuntime.serversOn(layout, this::isLive);
  }

  /** The availability floor over the block map, a replica counting on a live DataNode in service. */
  NamespaceFloor floor() {
    return new NamespaceFloor(nameNode, this::isLive);
  }

  List<DatanodeDescriptor> liveDataNodes() {
    return dataNodes().getDatanodeListForReport(DatanodeReportType.LIVE);
  }

  /** This NameNode's DataNodes as HDFS knows them (the placement policy reads what sleeps unseen from them). */
  public DatanodeManager dataNodes() {
    return nameNode.getNamesystem().getBlockManager().getDatanodeManager();
  }

  DatanodeDescriptor descriptor(String id) {
    return ServerTranslator.dataNodeOf(dataNodes(), id);
  }

  boolean isAlive(String id) {
    DatanodeDescriptor dn = descriptor(id);
    return dn != null && dn.isAlive();
  }

  /** How the power inventory may name {@code id}: as registered, else by the host name the chain recorded. */
  DataNodeName nameOf(String id) {
    DatanodeDescriptor dn = descriptor(id);
    if (dn != null) {
      return ServerTranslator.nameOf(dn);
    }
    int colon = id.lastIndexOf(':');
    String ip = id.substring(0, colon);
    String host = gears.state().chain().stream().filter(entry -> entry.id().equals(id))
        .map(GearRecord.ChainEntry::host).filter(name -> !name.isEmpty()).findFirst().orElse(ip);
    return new DataNodeName(ip, host, Integer.parseInt(id.substring(colon + 1)));
  }
}
