package org.eafr.namenode.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.BlockType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicies;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.eafr.namenode.runtime.EafrRuntime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Balancer, the Mover and fsck build the policy in their own JVM with no topology, stats or host map. */
class PolicyWithoutTopologyTest {
  private Configuration conf;

  @BeforeEach
  void conf() throws Exception {
    Path tmp = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
    conf = new Configuration(false);
    conf.set(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, Files.createTempDirectory(tmp, "balancer").toString());
  }

  @AfterEach
  void release() {
    EafrRuntime.release(conf);
  }

  @Test
  void builtLikeTheBalancer_answersIsMovableAndDeletesAnExcessReplica() {
    conf.set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY, EafrBlockPlacementPolicy.class.getName());
    BlockPlacementPolicy policy = new BlockPlacementPolicies(conf, null, null, null).getPolicy(BlockType.CONTIGUOUS);
    assertThat(policy).isInstanceOf(EafrBlockPlacementPolicy.class);
    DatanodeStorageInfo[] storages = DFSTestUtil.createDatanodeStorageInfos(new String[] {"/r1", "/r1", "/r2"});
    List<DatanodeInfo> nodes = new ArrayList<>();
    for (DatanodeStorageInfo storage : storages) {
      nodes.add(storage.getDatanodeDescriptor());
    }
    assertThat(policy.isMovable(nodes, nodes.get(0), nodes.get(1))).isTrue();
    assertThat(policy.isMovable(nodes, nodes.get(2), nodes.get(0))).isFalse();

    List<DatanodeStorageInfo> replicas = Arrays.asList(storages);
    List<StorageType> excess = new ArrayList<>(List.of(StorageType.DEFAULT));
    List<DatanodeStorageInfo> deleted = policy.chooseReplicasToDelete(replicas, replicas, 2, excess, null, null);
    assertThat(deleted).hasSize(1);
    assertThat(deleted.get(0).getDatanodeDescriptor().getNetworkLocation()).isEqualTo("/r1");
  }

  @Test
  void builtLikeTheBalancerOnAGearedClusterWhoseStateItCannotRead_refusesEveryMove() {
    conf.set(DFSConfigKeys.DFS_BLOCK_REPLICATOR_CLASSNAME_KEY, EafrBlockPlacementPolicy.class.getName());
    conf.set("eafr.layout", "equal-work");
    conf.set("fs.defaultFS", "file:///"); // no HDFS to read the gear state from
    BlockPlacementPolicy policy = new BlockPlacementPolicies(conf, null, null, null).getPolicy(BlockType.CONTIGUOUS);
    DatanodeStorageInfo[] storages = DFSTestUtil.createDatanodeStorageInfos(new String[] {"/r1", "/r1", "/r2"});
    List<DatanodeInfo> nodes = new ArrayList<>();
    for (DatanodeStorageInfo storage : storages) {
      nodes.add(storage.getDatanodeDescriptor());
    }

    assertThat(policy.isMovable(nodes, nodes.get(0), nodes.get(1))).isFalse();
  }
}
