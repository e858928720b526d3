package org.eafr.namenode.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.net.NodeBase;
import org.apache.hadoop.util.Time;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.config.RolesFile;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;

/**
 * Every DataNode of the topology with its translation into the core's {@link Server}, built at most once per
 * {@link #MAX_AGE_MILLIS} (heartbeats arrive every 3 s, so a fresher view would not be more accurate), and at once
 * when the topology's size or the roles file changes. Placement reads it on every choice instead of translating
 * 1,000 DataNodes per call, and finds a pool's members by role and rack without scanning the others. Immutable; HDFS
 * still checks every chosen node's current state (isGoodDatanode).
 */
final class TranslatedNodes {
  static final long MAX_AGE_MILLIS = 1_000;

  final DatanodeDescriptor[] nodes;
  final Server[] servers;
  /** Storage types per node, so a choice does not copy every node's storage map. */
  final EnumSet<StorageType>[] storageTypes;
  /** Every server ordered by id: a stable pool order keeps the recovery round robin fair. */
  final ClusterView byId;
  private final Map<DatanodeDescriptor, Integer> indexOf;
  private final Map<String, Integer> indexOfId;
  /** Node indexes per role (by ordinal), and per rack and role. */
  private final int[][] byRole;
  private final Map<String, int[][]> byRackAndRole;
  private final long builtAt;
  private final int leaves;
  private final RolesFile roles;
  private final int sleeping;

  private TranslatedNodes(DatanodeDescriptor[] nodes, Server[] servers, EnumSet<StorageType>[] storageTypes,
      Freshness freshness) {
    this.nodes = nodes;
    this.servers = servers;
    this.storageTypes = storageTypes;
    this.indexOf = new IdentityHashMap<>(nodes.length * 2);
    this.indexOfId = new HashMap<>(nodes.length * 2);
    List<Server> sorted = new ArrayList<>(Arrays.asList(servers));
    sorted.sort(Comparator.comparing(Server::id));
    this.byId = ClusterView.of(sorted);
    Map<String, List<Integer>> perRack = new HashMap<>();
    for (int i = 0; i < nodes.length; i++) {
      indexOf.put(nodes[i], i);
      indexOfId.put(servers[i].id(), i);
      perRack.computeIfAbsent(nodes[i].getNetworkLocation(), rack -> new ArrayList<>()).add(i);
    }
    this.byRole = byRole(allIndexes(nodes.length));
    this.byRackAndRole = new HashMap<>();
    perRack.forEach((rack, members) -> byRackAndRole.put(rack, byRole(members)));
    this.builtAt = freshness.builtAt;
    this.leaves = freshness.leaves;
    this.roles = freshness.roles;
    this.sleeping = freshness.sleeping;
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
    Freshness freshness = new Freshness(Time.monotonicNow(), topology.getNumOfLeaves(), roles, sleeping);
    return new TranslatedNodes(nodes, servers, storageTypes, freshness);
  }

  boolean isCurrent(NetworkTopology topology, RolesFile currentRoles, int currentSleeping) {
    return Time.monotonicNow() - builtAt < MAX_AGE_MILLIS && topology.getNumOfLeaves() == leaves
        && currentRoles == roles && currentSleeping == sleeping;
  }

  /**
   * Indexes of the nodes with {@code role} that may lie in {@code scope}: the rack's when the scope is one rack, else
   * every node with the role (the caller still checks the scope, e.g. "all but this rack").
   */
  int[] members(ServerRole role, String scope) {
    int[][] rack = byRackAndRole.get(scope);
    return rack != null ? rack[role.ordinal()] : byRole[role.ordinal()];
  }

  /** The index of {@code node}, or -1 when it joined after this view was built. */
  int indexOf(DatanodeDescriptor node) {
    Integer index = indexOf.get(node);
    return index == null ? -1 : index;
  }

  /**
   * Whether {@code node} has a storage of {@code type}, as of this view (the node's own answer if it joined since).
   * Only a pre-check: HDFS's choice of a storage for the block reads the node's current storages.
   */
  boolean hasStorageType(DatanodeDescriptor node, StorageType type) {
    int index = indexOf(node);
    return index >= 0 ? storageTypes[index].contains(type) : node.hasStorageType(type);
  }

  /** The node whose core id is {@code id}, or null. */
  DatanodeDescriptor node(String id) {
    Integer index = indexOfId.get(id);
    return index == null ? null : nodes[index];
  }

  private int[][] byRole(List<Integer> members) {
    int[][] split = new int[ServerRole.values().length][];
    for (ServerRole role : ServerRole.values()) {
      split[role.ordinal()] = members.stream().filter(i -> servers[i].role() == role).mapToInt(Integer::intValue)
          .toArray();
    }
    return split;
  }

  private static List<Integer> allIndexes(int count) {
    List<Integer> all = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      all.add(i);
    }
    return all;
  }

  /** When and from what a view was built: what decides whether it is still current. */
  private static final class Freshness {
    final long builtAt;
    final int leaves;
    final RolesFile roles;
    final int sleeping;

    Freshness(long builtAt, int leaves, RolesFile roles, int sleeping) {
      this.builtAt = builtAt;
      this.leaves = leaves;
      this.roles = roles;
      this.sleeping = sleeping;
    }
  }
}
