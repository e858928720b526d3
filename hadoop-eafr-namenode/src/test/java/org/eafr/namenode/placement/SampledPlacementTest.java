package org.eafr.namenode.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.net.DFSNetworkTopology;
import org.apache.hadoop.hdfs.protocol.BlockType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicies;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.testing.InMemoryDataNodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Destination choice on a topology larger than the sample ({@code eafr.destination.sample-size}): 200 DataNodes on 8
 * racks, built in memory as the NameNode's DatanodeManager would register them, the first DataNode of every rack
 * standby. Every choice ranks d eligible nodes by Eq. 10-12, and HDFS's rack rules still hold.
 */
class SampledPlacementTest {
  private static final int RACKS = 8;
  private static final int PER_RACK = 25;
  private static final long TB = 1L << 40;
  private static final long BLOCK = 128L << 20;

  @TempDir
  Path dir;
  private Configuration conf;
  private DatanodeDescriptor[] nodes;

  @AfterEach
  void releaseRuntime() {
    EafrRuntime.release(conf);
  }

  @Test
  void everyChoiceGoesToDistinctHotNodesOnTwoRacks_withTheWriterFirst() throws IOException {
    BlockPlacementPolicy policy = policy("4", "0.5");
    Set<String> standby = standbyIds();
    for (int i = 0; i < 500; i++) {
      DatanodeDescriptor writer = nodes[(i * 7 + 1) % nodes.length];
      if (standby.contains(ServerTranslator.idOf(writer))) {
        continue;
      }
      DatanodeStorageInfo[] targets = chooseTarget(policy, writer);

      assertThat(targets).hasSize(3);
      assertThat(targets[0].getDatanodeDescriptor()).isSameAs(writer);
      Set<String> ids = new HashSet<>();
      Set<String> racks = new HashSet<>();
      for (DatanodeStorageInfo target : targets) {
        ids.add(ServerTranslator.idOf(target.getDatanodeDescriptor()));
        racks.add(target.getDatanodeDescriptor().getNetworkLocation());
      }
      assertThat(ids).hasSize(3).doesNotContainAnyElementsOf(standby);
      assertThat(racks).hasSize(2);
    }
  }

  @Test
  void measuredSlowNodes_areChosenFarLessOftenThanTheirShare() throws IOException {
    // Speed only (beta = 1): half of the hot nodes measured at 1 MB/s, half at 100 MB/s. A sample of 16 holds about
    // 8 fast nodes, which share the weights of ranks 1-8: H(8) / H(16) = 0.80 of the choices.
    BlockPlacementPolicy policy = policy("16", "1.0");
    Set<String> slow = new HashSet<>();
    for (int i = 0; i < nodes.length; i++) {
      String id = ServerTranslator.idOf(nodes[i]);
      boolean isSlow = i % 2 == 0;
      runtime().speeds().recordTransfer(id, isSlow ? 1_000_000 : 100_000_000, 1_000);
      if (isSlow) {
        slow.add(id);
      }
    }
    awaitClosedSpeedWindow(ServerTranslator.idOf(nodes[1]));
    int remote = 0;
    int onSlow = 0;
    for (int i = 0; i < 1_000; i++) {
      DatanodeStorageInfo[] targets = chooseTarget(policy, nodes[(i * 2 + 1) % nodes.length]);
      for (int k = 1; k < targets.length; k++) {
        remote++;
        onSlow += slow.contains(ServerTranslator.idOf(targets[k].getDatanodeDescriptor())) ? 1 : 0;
      }
    }

    assertThat(remote).isEqualTo(2_000);
    assertThat(onSlow / (double) remote).isBetween(0.17, 0.23); // 0.2045 with seed 11; a uniform choice gives 0.50
  }

  private BlockPlacementPolicy policy(String sampleSize, String speedWeight) throws IOException {
    conf = new HdfsConfiguration();
    conf.set(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, dir.resolve("name").toString());
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_CONSIDERLOAD_KEY, false);
    conf.set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY, EafrBlockPlacementPolicy.class.getName());
    conf.set("eafr.storage-reserve.bytes", "0");
    conf.set("eafr.destination.sample-size", sampleSize);
    conf.set("eafr.destination.speed-weight", speedWeight);
    conf.set("eafr.ewma.window.ms", "1");
    conf.set("eafr.random.seed", "11");
    DFSNetworkTopology topology = DFSNetworkTopology.getInstance(conf);
    nodes = new DatanodeDescriptor[RACKS * PER_RACK];
    List<String> roles = new ArrayList<>();
    for (int i = 0; i < nodes.length; i++) {
      nodes[i] = dataNode(i);
      topology.add(nodes[i]);
      if (i % PER_RACK == 0) {
        roles.add("standby " + ServerTranslator.idOf(nodes[i]));
      }
    }
    Path rolesFile = Files.write(dir.resolve("eafr-roles"), roles);
    conf.set("eafr.roles.file", rolesFile.toString());
    return new BlockPlacementPolicies(conf, null, topology, null).getPolicy(BlockType.CONTIGUOUS);
  }

  private static DatanodeDescriptor dataNode(int i) {
    return InMemoryDataNodes.dataNode(i, "10.1." + (i / 250) + "." + (i % 250 + 1), "/rack" + (i / PER_RACK),
        StorageType.DISK, 4 * TB);
  }


  private Set<String> standbyIds() {
    Set<String> standby = new HashSet<>();
    for (int i = 0; i < nodes.length; i += PER_RACK) {
      standby.add(ServerTranslator.idOf(nodes[i]));
    }
    return standby;
  }

  private EafrRuntime runtime() {
    return EafrRuntime.of(conf);
  }

  /** The speeds recorded above count once their 1 ms window has closed. */
  private void awaitClosedSpeedWindow(String fastId) {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (runtime().speeds().expectedSpeed(null, fastId) != 100_000_000.0) {
      assertThat(System.nanoTime()).as("EWMA window closed within 5 s").isLessThan(deadline);
      Thread.onSpinWait();
    }
  }

  private static DatanodeStorageInfo[] chooseTarget(BlockPlacementPolicy policy, DatanodeDescriptor writer) {
    return policy.chooseTarget("/data/file", 3, writer, new ArrayList<>(), false, null, BLOCK,
        BlockStoragePolicySuite.createDefaultSuite().getDefaultPolicy(), EnumSet.noneOf(AddBlockFlag.class));
  }
}
