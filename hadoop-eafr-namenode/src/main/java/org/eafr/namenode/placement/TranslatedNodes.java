package org.eafr.namenode.placement;

import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.util.Time;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.config.RolesFile;
import org.eafr.placement.cluster.Server;

/**
 * Every DataNode of the topology with its translation into the core's {@link Server}, built at most once per
 * {@link #MAX_AGE_MILLIS} (heartbeats arrive every 3 s, so a fresher view would not be more accurate), and at once
 * when the topology's size or the roles file changes. Placement reads it on every choice instead of translating
 * 1,000 DataNodes per call. Immutable; HDFS still checks every chosen node's current state (isGoodDatanode).
 */
final class TranslatedNodes {
  static final long MAX_AGE_MILLIS = 1_000;

  final DatanodeDescriptor[] nodes;
  final Server[] servers;
  /** Storage types per node, so a choice does not copy every node's storage map. */
  final EnumSet<StorageType>[] storageTypes;
  private final long builtAt;
  private final int leaves;
  private final RolesFile roles;
  private final int sleeping;

  private TranslatedNodes(DatanodeDescriptor[] nodes, Server[] servers, EnumSet<StorageType>[] storageTypes,
      long builtAt, int leaves, RolesFile roles, int sleeping) {
    this.nodes = nodes;
    this.servers = servers;
    this.storageTypes = storageTypes;
    this.builtAt = builtAt;
    this.leaves = leaves;
    this.roles = roles;
    this.sleeping = sleeping;
  }

  static TranslatedNodes of(NetworkTopology topology, ServerTranslator translator, RolesFile roles, int sleeping) {
    List<Node> leaves = topology.getLeaves(NodeBase.ROOT);
    DatanodeDescriptor[] nodes = new DatanodeDescriptor[leaves.size()];
    Server[] servers = new Server[leaves.size()];
    @SuppressWarnings("unchecked")
    EnumSet<StorageType>[] storageTypes = new EnumSet[leaves.size()];
    for (int i = 0; i < nodes.length; i++) {
      nodes[i] = (DatanodeDescriptor) leaves.get(i);
      servers[i] = translator.toServer(nodes[i]);
      storageTypes[i] = nodes[i].getStorageTypes();
    }
    return new TranslatedNodes(nodes, servers, storageTypes, Time.monotonicNow(), topology.getNumOfLeaves(), roles,
        sleeping);
  }

  boolean isCurrent(NetworkTopology topology, RolesFile currentRoles, int currentSleeping) {
    return Time.monotonicNow() - builtAt < MAX_AGE_MILLIS && topology.getNumOfLeaves() == leaves
        && currentRoles == roles && currentSleeping == sleeping;
  }
}
