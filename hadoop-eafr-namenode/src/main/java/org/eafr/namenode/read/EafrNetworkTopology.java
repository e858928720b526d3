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
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.policy.GearedParts;
import org.eafr.placement.gear.policy.ReadCandidates;

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
 * orders: Rabbit's hit-ratio balancer, SpringFS's read offloading, or EAFR on gears' rounds of read slots.
 */
public class EafrNetworkTopology extends DFSNetworkTopology implements Configurable {
  private Configuration conf;
  private EafrRuntime runtime;
  private ServerTranslator translator;
  private int serviceCapacity;
  private final ReplicaIds replicaIds = new ReplicaIds();

  /** Called by ReflectionUtils when the NameNode builds its topology; validates the settings. */
  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    this.runtime = EafrRuntime.of(conf);
    this.translator = runtime.translator();
    this.serviceCapacity = runtime.settings().serviceCapacity();
    runtime.attribution().orderingInstalled();
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
   * read queue in arrays (this runs for every block of every getBlockLocations).
   */
  private <T extends Node> void order(Node reader, T[] nodes, int activeLen) {
    if (activeLen < 1) {
      if (nodes.length == 0) { // every replica sleeps (in maintenance) or is gone: maybe a group must wake
        runtime.gears().readFoundNoReplica();
        runtime.coldHosts().readFoundNoReplica();
      }
      return;
    }
    String[] ids = new String[activeLen];
    String[] racks = new String[activeLen];
    ServerRole[] roles = new ServerRole[activeLen];
    int[] queues = new int[activeLen];
    T[] active = Arrays.copyOf(nodes, activeLen);
    for (int i = 0; i < activeLen; i++) {
      DatanodeInfo dataNode = (DatanodeInfo) nodes[i];
      ids[i] = replicaIds.of(dataNode);
      racks[i] = dataNode.getNetworkLocation();
      roles[i] = translator.roleOf(dataNode, ids[i]);
      queues[i] = translator.readQueue(dataNode, ids[i]);
    }
    String readerRack = reader == null ? null : reader.getNetworkLocation();
    int[] order = new int[activeLen];
    int serving = runtime.readers().orderIndices(readerRack, racks, roles, queues, activeLen, order);
    policyFirst(readerRack, ids, racks, queues, order, serving);
    boolean[] placed = new boolean[activeLen];
    int next = 0;
    for (int i = 0; i < serving; i++) {
      placed[order[i]] = true;
      nodes[next++] = active[order[i]];
    }
    for (int i = 0; i < activeLen; i++) {
      if (!placed[i]) {
        nodes[next++] = active[i];
      }
    }
    // nodes[0] is the first ordered replica, or the first active one when the core ordered none.
    runtime.attribution().listedFirst(ids[serving > 0 ? order[0] : 0]);
  }

  /**
   * Under a geared policy, its read ordering picks the replica listed first among the {@code serving} ones (Rabbit's
   * hit-ratio balancer, SpringFS's read offloading, EAFR on gears' rounds of slots); the rest keep Alg. 3's order.
   * O(serving): a few arrays of the block's replicas and one chain lookup per replica.
   */
  private void policyFirst(String readerRack, String[] ids, String[] racks, int[] queues, int[] order,
      int serving) {
    Optional<GearedParts> parts = runtime.gears().parts();
    Optional<ActiveSet> awake = runtime.gears().awake();
    if (serving < 2 || parts.isEmpty() || awake.isEmpty()) {
      return;
    }
    ExpansionChain chain = parts.get().layout().chain();
    int[] positions = new int[serving];
    String[] orderedRacks = new String[serving];
    int[] orderedQueues = new int[serving];
    int[] slots = new int[serving];
    for (int i = 0; i < serving; i++) {
      positions[i] = chain.position(ids[order[i]]);
      orderedRacks[i] = racks[order[i]];
      orderedQueues[i] = queues[order[i]];
      slots[i] = serviceCapacity;
    }
    int first = parts.get().reads().first(new ReadCandidates(readerRack, positions, orderedRacks, orderedQueues,
        slots, serving, awake.get()));
    if (first > 0) {
      int chosen = order[first];
      System.arraycopy(order, 0, order, 1, first);
      order[0] = chosen;
    }
  }
}
