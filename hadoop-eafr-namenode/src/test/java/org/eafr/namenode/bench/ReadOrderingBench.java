package org.eafr.namenode.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.net.NetworkTopology;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearRecord;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.read.EafrNetworkTopology;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.testing.InMemoryDataNodes;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.shift.ShiftState;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The reader ordering of one getBlockLocations answer: the 10 blocks of 3 replicas a client's first call gets (its
 * prefetch is 10 blocks), each block's replicas fresh {@code DatanodeInfoWithStorage} copies as the NameNode hands
 * them to {@code sortByDistance}, ordered by stock {@link DFSNetworkTopology} and by {@link EafrNetworkTopology} under
 * each {@code eafr.layout} in the same run. 1,000 DataNodes on 40 racks ({@code -p dataNodes=4}: the RPC bench's 4
 * on 2 racks), all hot; replicas placed as HDFS's default
 * places them (one rack, then two on another), drawn once with a fixed seed; the reader is a DataNode. Geared layouts
 * run at their top gear (every DataNode on), so every replica is a candidate of the policy's read ordering.
 *
 * <p>{@code copy-only} makes the copies and orders nothing: subtract it from every other row to get the ordering's
 * own cost, the figure to compare with stock's ({@link ReadOrderingRatios} prints those ratios from the JSON).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ReadOrderingBench {
  private static final int BLOCKS_PER_CALL = 10;
  private static final int REPLICAS = 3;
  /** Distinct files cycled through (each 10 blocks), so the counters and caches see many DataNodes. */
  private static final int FILES = 256;
  private static final long TB = 1L << 40;

  /** copy-only, stock, or EAFR under eafr.layout = random, rabbit, springfs, accordion or eafr-geared. */
  @Param({"copy-only", "stock", "random", "rabbit", "springfs", "accordion", "eafr-geared"})
  public String ordering;

  /** DataNodes: 25 per rack, at least 2 racks (4 is scripts/bench-namenode-rpc.sh's cluster: 2 racks of 2). */
  @Param({"4", "1000"})
  public int dataNodes;

  private int racks;
  private int perRack;

  private Configuration conf;
  private NetworkTopology network;
  private DatanodeDescriptor[] nodes;
  /** Per file, per block, the replicas' DataNodes. */
  private DatanodeDescriptor[][][] files;
  private DatanodeDescriptor[] readers;
  private int next;

  @Setup
  public void setUp() throws Exception {
    conf = new HdfsConfiguration();
    Path dir = Files.createTempDirectory("read-ordering-bench");
    conf.set(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, dir.toString());
    conf.set("eafr.storage-reserve.bytes", "0");
    boolean eafr = !ordering.equals("stock") && !ordering.equals("copy-only");
    if (eafr) {
      conf.set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, EafrNetworkTopology.class.getName());
      conf.set("eafr.layout", ordering);
    }
    network = DFSNetworkTopology.getInstance(conf);
    racks = Math.max(2, dataNodes / 25);
    perRack = dataNodes / racks;
    nodes = new DatanodeDescriptor[racks * perRack];
    for (int i = 0; i < nodes.length; i++) {
      nodes[i] = InMemoryDataNodes.dataNode(i, "10.0." + (i / 250) + "." + (i % 250 + 1), "/rack" + (i / perRack),
          StorageType.DISK, 4 * TB);
      network.add(nodes[i]);
    }
    if (eafr && !ordering.equals("random")) {
      topGear();
    }
    Random random = new Random(42);
    files = new DatanodeDescriptor[FILES][BLOCKS_PER_CALL][];
    readers = new DatanodeDescriptor[FILES];
    for (int f = 0; f < FILES; f++) {
      readers[f] = nodes[random.nextInt(nodes.length)];
      for (int b = 0; b < BLOCKS_PER_CALL; b++) {
        files[f][b] = defaultReplicas(random);
      }
    }
  }

  /** The chain a gear service would fix from these DataNodes, at the layout's top gear. */
  private void topGear() {
    List<Server> servers = new ArrayList<>();
    for (DatanodeDescriptor node : nodes) {
      servers.add(Server.builder(ServerTranslator.idOf(node)).rack(node.getNetworkLocation()).build());
    }
    GearRuntime gears = EafrRuntime.of(conf).gears();
    List<GearRecord.ChainEntry> chain = GearRuntime.chainOf(servers);
    gears.state(new GearRecord(chain, ShiftState.steady(0)));
    gears.state(new GearRecord(chain, ShiftState.steady(gears.layout().orElseThrow().maximumGear())));
  }

  /** One node, then two on one other rack (HDFS's default placement for a writer outside the cluster). */
  private DatanodeDescriptor[] defaultReplicas(Random random) {
    int first = random.nextInt(nodes.length);
    int otherRack = (first / perRack + 1 + random.nextInt(racks - 1)) % racks;
    int second = random.nextInt(perRack);
    int third = (second + 1 + random.nextInt(perRack - 1)) % perRack;
    return new DatanodeDescriptor[] {nodes[first], nodes[otherRack * perRack + second],
        nodes[otherRack * perRack + third]};
  }

  @TearDown
  public void tearDown() {
    EafrRuntime.release(conf);
  }

  /** One call's 10 blocks: fresh copies of each block's replicas, each block ordered for the reader. */
  @Benchmark
  public DatanodeInfoWithStorage[] orderOneCall() {
    DatanodeDescriptor[][] file = files[next];
    DatanodeDescriptor reader = readers[next];
    next = (next + 1) % FILES;
    DatanodeInfoWithStorage[] last = null;
    for (DatanodeDescriptor[] block : file) {
      DatanodeInfoWithStorage[] locations = new DatanodeInfoWithStorage[REPLICAS];
      for (int r = 0; r < REPLICAS; r++) {
        locations[r] = new DatanodeInfoWithStorage(block[r], "s", StorageType.DISK);
      }
      if (network != null && !ordering.equals("copy-only")) {
        network.sortByDistance(reader, locations, REPLICAS, list -> { });
      }
      last = locations;
    }
    return last;
  }
}
