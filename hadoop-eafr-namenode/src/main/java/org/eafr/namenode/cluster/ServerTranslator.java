package org.eafr.namenode.cluster;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.eafr.namenode.config.DataNodeName;
import org.eafr.namenode.config.NamenodeSettings;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;

/**
 * Translates a DataNode as the NameNode sees it into the core's {@link Server}: id IP:transfer port, rack = network
 * location, role from the roles file unless HDFS says otherwise (in or entering maintenance, even when stopped, or
 * decommissioning: COLD, it takes no new replicas and wakes for nothing; dead or decommissioned: FAILED), service capacity c_c from
 * {@code eafr.server.service-capacity}, load h = heartbeat xceiver count + the reads recently directed to it, storage
 * from the last heartbeat.
 */
public final class ServerTranslator {
  private final ServerRoles roles;
  private final RecentReads recentReads;
  private final int serviceCapacity;

  public ServerTranslator(ServerRoles roles, RecentReads recentReads, NamenodeSettings settings) {
    this.roles = roles;
    this.recentReads = recentReads;
    this.serviceCapacity = settings.serviceCapacity();
  }

  public static DataNodeName nameOf(DatanodeID dataNode) {
    return new DataNodeName(dataNode.getIpAddr(), dataNode.getHostName(), dataNode.getXferPort());
  }

  /** The names of every DataNode {@code dataNodes} knows (live, dead, in maintenance), for checking a roles file. */
  public static List<DataNodeName> registeredNames(DatanodeManager dataNodes) {
    List<DataNodeName> names = new ArrayList<>();
    for (DatanodeDescriptor dn : dataNodes.getDatanodeListForReport(DatanodeReportType.ALL)) {
      names.add(nameOf(dn));
    }
    return names;
  }

  /** IP:transfer port; the DataNode keeps this string, so the hot read path builds none. */
  public static String idOf(DatanodeID dataNode) {
    return dataNode.getXferAddr();
  }

  /** The registered DataNode whose {@link #idOf} is {@code id}; null when none is (or {@code id} is no IP:port). */
  public static DatanodeDescriptor dataNodeOf(DatanodeManager dataNodes, String id) {
    int colon = id.lastIndexOf(':');
    return colon < 0 ? null
        : dataNodes.getDatanodeByXferAddr(id.substring(0, colon), Integer.parseInt(id.substring(colon + 1)));
  }

  /** Whether {@code block} has a replica on DataNode {@code id}; the caller holds the namesystem lock. */
  public static boolean holds(BlockManager blockManager, BlockInfo block, String id) {
    for (DatanodeStorageInfo storage : blockManager.getStorages(block)) {
      if (idOf(storage.getDatanodeDescriptor()).equals(id)) {
        return true;
      }
    }
    return false;
  }

  public Server toServer(DatanodeInfo dataNode) {
    String id = idOf(dataNode);
    long capacity = Math.max(0, dataNode.getCapacity());
    long used = Math.min(capacity, Math.max(0, capacity - dataNode.getRemaining()));
    return Server.builder(id)
        .rack(dataNode.getNetworkLocation())
        .role(roleOf(dataNode))
        .serviceCapacity(serviceCapacity)
        .concurrentReads(readQueue(dataNode))
        .storageCapacity(capacity)
        .storageUsed(used)
        .build();
  }

  /** The read queue h of Alg. 3: the heartbeat's xceiver count plus the reads recently directed to the DataNode. */
  public int readQueue(DatanodeInfo dataNode) {
    return readQueue(dataNode, idOf(dataNode));
  }

  /** {@link #readQueue(DatanodeInfo)} of the DataNode whose server id is {@code id} (the caller has it already). */
  public int readQueue(DatanodeInfo dataNode, String id) {
    return readQueue(dataNode, recentReads.count(id));
  }

  /**
   * {@link #readQueue(DatanodeInfo)} with the reads recently directed to the DataNode given by the caller (who keeps
   * its {@link RecentReads.Counter}).
   */
  public static int readQueue(DatanodeInfo dataNode, double recentlyDirected) {
    double load = dataNode.getXceiverCount() + recentlyDirected;
    return (int) Math.min(Integer.MAX_VALUE, Math.round(Math.max(0, load)));
  }

  public ServerRole roleOf(DatanodeInfo dataNode) {
    return roleOf(dataNode, idOf(dataNode));
  }

  /** {@link #roleOf(DatanodeInfo)} of the DataNode whose server id is {@code id} (the caller has it already). */
  public ServerRole roleOf(DatanodeInfo dataNode, String id) {
    ServerRole byAdminState = roleByAdminState(dataNode);
    return byAdminState != null ? byAdminState : roles.roleOf(dataNode, id);
  }

  /**
   * {@link #roleOf(DatanodeInfo)} for a caller that keeps the roles file's answer per DataNode ({@code known}, see
   * {@link ServerRoles#roleOf(DatanodeID, ServerRoles.CachedRole)}): HDFS's admin state first, as always.
   */
  public ServerRole roleOf(DatanodeInfo dataNode, ServerRoles.CachedRole known) {
    ServerRole byAdminState = roleByAdminState(dataNode);
    return byAdminState != null ? byAdminState : known.role();
  }

  /** The role HDFS's admin state or liveness gives {@code dataNode}; null when the roles file decides. */
  private static ServerRole roleByAdminState(DatanodeInfo dataNode) {
    // A DataNode in maintenance sleeps even when stopped: its replicas still count, so it is COLD, not FAILED.
    if (dataNode.isInMaintenance() || dataNode.isEnteringMaintenance()) {
      return ServerRole.COLD;
    }
    boolean dead = dataNode instanceof DatanodeDescriptor && !((DatanodeDescriptor) dataNode).isAlive();
    if (dead || dataNode.isDecommissioned()) {
      return ServerRole.FAILED;
    }
    if (dataNode.isDecommissionInProgress()) {
      return ServerRole.COLD;
    }
    return null;
  }
}
