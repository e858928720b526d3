package org.eafr.namenode.read;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.net.Node;
import org.eafr.namenode.cluster.ReadAttribution;
import org.eafr.namenode.cluster.RecentReads;
import org.eafr.namenode.cluster.ServerRoles;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.policy.GearedParts;
import org.eafr.placement.gear.policy.ReadCandidates;
import org.eafr.placement.gear.policy.ReadOrdering;
import org.eafr.placement.read.ReaderSelector;

/**
 * The order in which the NameNode lists a block's replicas to a reader ({@code dfs.net.topology.impl}), by EAFR Alg. 3
 * ({@code ReaderSelector}): replicas on the reader's rack first, then the rest; within each, the shortest read queue
 * (heartbeat xceiver count plus the reads this NameNode recently directed there); ties hot before standby. A client
 * reads the replica listed first, so each ordering counts one directed read for it ({@link ReadAttribution}).
 *
 * <p>Only the replicas HDFS counts as active (the first {@code activeLen}: not stale, slow, decommissioning or entering
 * maintenance) are reordered; the rest keep HDFS's order behind them. A replica the core would not list (a cold
 * server) stays, after the ordered ones, so no replica is ever hidden from a reader. A node-local replica gets no
 * special place: it competes with its rack by queue, as in Alg. 3. Placement (chooseRandom...) is DFSNetworkTopology's.
 * A block with no location at all is reported to the gear service, which may wake the group holding it. Under a
 * geared policy ({@code eafr.layout}) the policy's read ordering picks the replica listed first among those Alg. 3
 * orders: Rabbit's hit-ratio balancer, SpringFS's read offloading, or EAFR on gears' rounds of read slots. A
 * DataNode the gears woke less than {@code eafr.reads.warm-up.ms} ago is listed after every warm replica Alg. 3 lists
 * ({@link WarmingDataNodes}), the policy choosing among the warm ones; it comes first only when Alg. 3 lists no warm
 * one (no warm DataNode holding the block is live).
 */
public class EafrNetworkTopology extends DFSNetworkTopology implements Configurable {
  private Configuration conf;
  private EafrRuntime runtime;
  private ServerTranslator translator;
  private ServerRoles serverRoles;
  private ReaderSelector readers;
  private ReadAttribution attribution;
  private RecentReads recentReads;
  private GearRuntime gears;
  private int serviceCapacity;
  private ReplicaIds replicaIds;
  private WarmingDataNodes warming;
  private final RackIds rackIds = new RackIds();

  /** Called by ReflectionUtils when the NameNode builds its topology; validates the settings. */
  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    this.runtime = EafrRuntime.of(conf);
    this.translator = runtime.translator();
    this.serverRoles = runtime.roles();
    this.readers = runtime.readers();
    this.attribution = runtime.attribution();
    this.recentReads = runtime.recentReads();
    this.gears = runtime.gears();
    this.serviceCapacity = runtime.settings().serviceCapacity();
    this.replicaIds = new ReplicaIds(recentReads);
    this.warming = new WarmingDataNodes(runtime.readsWarmUpMillis()::get);
    attribution.orderingInstalled();
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public <T extends Node> void sortByDistance(Node reader, T[] nodes, int activeLen,
      Consumer<List<T>> secondarySort) {
    order(reader, nodes, activeLen);
  }

  @Override
  public <T extends Node> void sortByDistanceUsingNetworkLocation(Node reader, T[] nodes, int activeLen,
      Consumer<List<T>> secondarySort) {
    order(reader, nodes, activeLen);
  }

  /**
   * Builds no core {@code Server} per replica: the core's {@code orderIndices} takes each replica's rack, role and
   * read queue in arrays (this runs for every block of every getBlockLocations). Each replica's DataNode is found once
   * ({@link ReplicaIds}: its id, recent-reads counter, role from the roles file, rack number and chain position), so
   * no rack name is compared; the clock is read once per block.
   */
  private <T extends Node> void order(Node reader, T[] nodes, int activeLen) {
    if (activeLen < 1) {
      if (nodes.length == 0) { // every replica sleeps (in maintenance) or is gone: maybe a group must wake
        gears.readFoundNoReplica();
        runtime.coldHosts().readFoundNoReplica();
      }
      return;
    }
    ReplicaId[] replicas = new ReplicaId[activeLen];
    boolean[] local = new boolean[activeLen];
    ServerRole[] roles = new ServerRole[activeLen];
    int[] queues = new int[activeLen];
    T[] active = Arrays.copyOf(nodes, activeLen);
    int readerRack = rackOf(reader);
    long now = recentReads.now();
    for (int i = 0; i < activeLen; i++) {
      DatanodeInfo dataNode = (DatanodeInfo) nodes[i];
      ReplicaId replica = replicaIds.of(dataNode);
      replicas[i] = replica;
      local[i] = replica.rackId(dataNode, rackIds) == readerRack;
      roles[i] = replica.role(dataNode, serverRoles, translator);
      queues[i] = ServerTranslator.readQueue(dataNode, replica.directedReads.value(now));
    }
    int[] order = new int[activeLen];
    int serving = readers.orderIndices(local, roles, queues, activeLen, order);
    warming.observe(gears.state(), now);
    int warm = warming.any(now) ? warmFirst(replicas, order, serving, now) : serving;
    policyFirst(replicas, local, queues, order, warm);
    for (int i = 0; i < serving; i++) {
      nodes[i] = active[order[i]];
    }
    if (serving < activeLen) {
      keepTheRestInPlace(nodes, active, order, serving);
    }
    // nodes[0] is the first ordered replica, or the first active one when the core ordered none.
    ReplicaId first = replicas[serving > 0 ? order[0] : 0];
    attribution.listedFirst(first.id, first.directedReads, now);
  }

  /** The number of the reader's rack ({@link RackIds}); -1, which no replica's rack has, when it has none. */
  private int rackOf(Node reader) {
    String rack = reader == null ? null : reader.getNetworkLocation();
    if (rack == null) {
      return -1;
    }
    return reader instanceof DatanodeInfo ? replicaIds.of((DatanodeInfo) reader).rackId((DatanodeInfo) reader, rackIds)
        : rackIds.idOf(rack);
  }

  /** After the {@code serving} ordered replicas, the other active ones in HDFS's order. */
  private static <T extends Node> void keepTheRestInPlace(T[] nodes, T[] active, int[] order, int serving) {
    boolean[] placed = new boolean[active.length];
    for (int i = 0; i < serving; i++) {
      placed[order[i]] = true;
    }
    int next = serving;
    for (int i = 0; i < active.length; i++) {
      if (!placed[i]) {
        nodes[next++] = active[i];
      }
    }
  }

  /**
   * Moves the warming replicas among the first {@code serving} of {@code order} behind the warm ones, each group in
   * its order; the number of warm ones, or {@code serving} when none is warm (then the warming ones serve as usual).
   */
  private int warmFirst(ReplicaId[] replicas, int[] order, int serving, long now) {
    int[] woken = new int[serving];
    int warm = 0;
    int warmingCount = 0;
    for (int i = 0; i < serving; i++) {
      if (warming.warming(replicas[order[i]].id, now)) {
        woken[warmingCount++] = order[i];
      } else {
        order[warm++] = order[i];
      }
    }
    System.arraycopy(woken, 0, order, warm, warmingCount);
    return warm == 0 ? serving : warm;
  }

  /**
   * Under a geared policy, its read ordering picks the replica listed first among the {@code serving} ones (Rabbit's
   * hit-ratio balancer, SpringFS's read offloading, EAFR on gears' rounds of slots); the rest keep Alg. 3's order.
   * O(serving): one array of chain positions (each replica's kept in its {@link ReplicaId}), none for an ordering that
   * reads no positions (EAFR on gears' rounds); the candidates are read through {@code order}, not copied.
   */
  private void policyFirst(ReplicaId[] replicas, boolean[] local, int[] queues, int[] order, int serving) {
    if (serving < 2) {
      return;
    }
    Optional<GearedParts> parts = gears.parts();
    Optional<ActiveSet> awake = gears.awake();
    if (parts.isEmpty() || awake.isEmpty()) {
      return;
    }
    ReadOrdering reads = parts.get().reads();
    int[] positions = reads.readsPositions() ? positions(replicas, order, serving, parts.get().layout().chain())
        : null;
    int first = reads.first(ReadCandidates.ordered(order, serving, positions, local, queues, serviceCapacity,
        awake.get()));
    if (first > 0) {
      int chosen = order[first];
      System.arraycopy(order, 0, order, 1, first);
      order[0] = chosen;
    }
  }

  /** The chain positions of the first {@code serving} replicas of {@code order}, indexed by replica. */
  private static int[] positions(ReplicaId[] replicas, int[] order, int serving, ExpansionChain chain) {
    int[] positions = new int[replicas.length];
    for (int i = 0; i < serving; i++) {
      positions[order[i]] = replicas[order[i]].position(chain);
    }
    return positions;
  }
}
