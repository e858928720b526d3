package org.eafr.namenode.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.BlockType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicies;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearRecord;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.placement.EafrBlockPlacementPolicy;
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
 * chooseTarget for a new 3-replica block on a 1,000-DataNode topology (40 racks of 25, all hot, 4 TB free each),
 * EAFR's policy against HDFS's BlockPlacementPolicyDefault in the same run (goal: at most 1.5x). "eafr" ranks the
 * default sample of d = 16 eligible nodes per choice; "eafr-rank-all" ranks every eligible node (d = 0, the paper's
 * literal rule), to show what the sample saves; "eafr-equal-work" places by the core's equal-work layout
 * ({@code eafr.layout=equal-work}, default p = N / e^2, every DataNode on), each holder checked as the default checks
 * a node it drew. {@link #chooseTwoRecoveryTargets} is the redundancy monitor's call for a block missing two replicas.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ChooseTargetBench {
  private static final int RACKS = 40;
  private static final int PER_RACK = 25;
  private static final long TB = 1L << 40;
  private static final long BLOCK = 128L << 20;

  @Param({"default", "eafr", "eafr-rank-all", "eafr-equal-work"})
  public String policy;

  private Configuration conf;
  private BlockPlacementPolicy placement;
  private DatanodeDescriptor[] nodes;
  private BlockStoragePolicy storagePolicy;
  private int next;

  @Setup
  public void setUp() throws Exception {
    conf = new HdfsConfiguration();
    Path dir = Files.createTempDirectory("choose-target-bench");
    conf.set(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, dir.toString());
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_CONSIDERLOAD_KEY, false);
    conf.set("eafr.storage-reserve.bytes", "0");
    if (policy.equals("eafr-rank-all")) {
      conf.set("eafr.destination.sample-size", "0");
    }
    if (policy.equals("eafr-equal-work")) {
      conf.set("eafr.layout", "equal-work");
    }
    conf.set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY, policy.startsWith("eafr")
        ? EafrBlockPlacementPolicy.class.getName() : BlockPlacementPolicyDefault.class.getName());
    DFSNetworkTopology topology = DFSNetworkTopology.getInstance(conf);
    nodes = new DatanodeDescriptor[RACKS * PER_RACK];
    for (int i = 0; i < nodes.length; i++) {
      DatanodeDescriptor node = InMemoryDataNodes.dataNode(i, "10.0." + (i / 250) + "." + (i % 250 + 1),
          "/rack" + (i / PER_RACK), StorageType.DISK, 4 * TB);
      topology.add(node);
      nodes[i] = node;
    }
    placement = new BlockPlacementPolicies(conf, null, topology, null).getPolicy(BlockType.CONTIGUOUS);
    if (policy.equals("eafr-equal-work")) { // the chain a gear service would fix, every DataNode on (top gear)
      List<Server> servers = new ArrayList<>();
      for (DatanodeDescriptor node : nodes) {
        servers.add(Server.builder(ServerTranslator.idOf(node)).rack(node.getNetworkLocation()).build());
      }
      GearRuntime gears = EafrRuntime.of(conf).gears();
      gears.state(new GearRecord(GearRuntime.chainOf(servers), ShiftState.steady(0)));
      int top = gears.layout().orElseThrow().maximumGear();
      gears.state(new GearRecord(GearRuntime.chainOf(servers), ShiftState.steady(top)));
    }
    storagePolicy = BlockStoragePolicySuite.createDefaultSuite().getDefaultPolicy();
  }

  @TearDown
  public void tearDown() {
    EafrRuntime.release(conf);
  }

  @Benchmark
  public DatanodeStorageInfo[] chooseTarget() {
    DatanodeDescriptor writer = nodes[next];
    next = (next + 7) % nodes.length;
    return placement.chooseTarget("/data/file", 3, writer, new ArrayList<>(), false, null, BLOCK, storagePolicy,
        EnumSet.noneOf(AddBlockFlag.class));
  }

  /**
   * Re-replication of a block that lost two of its three replicas: the one left is the source (and the writer, as
   * the BlockManager passes it), two targets asked for in one call, as the redundancy monitor asks.
   */
  @Benchmark
  public DatanodeStorageInfo[] chooseTwoRecoveryTargets() {
    DatanodeDescriptor source = nodes[next];
    next = (next + 7) % nodes.length;
    List<DatanodeStorageInfo> chosen = new ArrayList<>(List.of(source.getStorageInfos()[0]));
    return placement.chooseTarget("/data/file", 2, source, chosen, false, new java.util.HashSet<>(List.of(source)),
        BLOCK, storagePolicy, null);
  }
}
