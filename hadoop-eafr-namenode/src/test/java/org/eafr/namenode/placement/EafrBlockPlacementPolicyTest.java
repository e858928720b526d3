package org.eafr.namenode.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicy;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.cluster.ServerRole;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * New blocks, cold paths and excess deletion on one shared cluster: nine DataNodes on three racks, the third of each
 * rack (2, 5, 8) standby, the rest hot. Every test writes its own files; all files are checked after each test.
 */
class EafrBlockPlacementPolicyTest {
  private static EafrCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    Configuration conf = EafrCluster.baseConf("placement");
    conf.set("eafr.cold.paths", "/archive");
    cluster = EafrCluster.start(conf);
    cluster.standby(2, 5, 8);
  }

  @AfterAll
  static void stopCluster() {
    cluster.close();
  }

  @AfterEach
  void everyFileKeepsItsContent() throws IOException {
    cluster.verifyChecksums();
  }

  @Test
  void newBlocksOfAnOrdinaryFile_goToHotServersOnAtLeastTwoRacks() throws Exception {
    for (int i = 0; i < 6; i++) {
      cluster.write("/data/f" + i, 3, EafrCluster.BLOCK_SIZE + 1000, i);
    }
    int blocks = 0;
    for (int i = 0; i < 6; i++) {
      for (List<DatanodeInfo> replicas : cluster.locations("/data/f" + i)) {
        assertThat(replicas).hasSize(3);
        assertThat(replicas).allSatisfy(dn -> assertThat(cluster.roleOf(dn)).isEqualTo(ServerRole.HOT));
        assertThat(racks(replicas)).hasSizeGreaterThanOrEqualTo(2);
        blocks++;
      }
    }
    assertThat(blocks).isEqualTo(12);
  }

  @Test
  void newBlocksUnderAColdPath_goToStandbyServersOnAtLeastTwoRacks() throws Exception {
    for (int i = 0; i < 4; i++) {
      cluster.write("/archive/2019/f" + i, 2, EafrCluster.BLOCK_SIZE + 1000, 100 + i);
    }
    for (int i = 0; i < 4; i++) {
      for (List<DatanodeInfo> replicas : cluster.locations("/archive/2019/f" + i)) {
        assertThat(replicas).hasSize(2);
        assertThat(replicas).allSatisfy(dn -> assertThat(cluster.roleOf(dn)).isEqualTo(ServerRole.STANDBY));
        assertThat(racks(replicas)).hasSize(2);
      }
    }
  }

  @Test
  void excessDeletion_onThreeRacks_removesTheReplicaOnTheLeastSparedServer() throws Exception {
    // Replicas on 0 and 1 (rack 1), 3 (rack 2), 6 (rack 3). With three racks any one may go (two racks remain);
    // 3 has the least spare capacity (Eq. 7).
    cluster.write("/data/excess3", 4, 1000, 200, cluster.dataNode(0), cluster.dataNode(1), cluster.dataNode(3),
        cluster.dataNode(6));
    assertThat(indexes(cluster.locations("/data/excess3").get(0))).containsExactlyInAnyOrder(0, 1, 3, 6);
    load(1, 40);
    load(3, 80);
    shrink("/data/excess3", 3);
    assertThat(indexes(cluster.locations("/data/excess3").get(0))).containsExactlyInAnyOrder(0, 1, 6);
  }

  @Test
  void excessDeletion_onTwoRacks_neverRemovesARacksOnlyReplica() throws Exception {
    // Replicas on 0 and 1 (rack 1) and 4 (rack 2): only 0 or 1 may go; 4 is the most loaded but rack 2's only copy.
    cluster.write("/data/excess2", 3, 1000, 201, cluster.dataNode(0), cluster.dataNode(1), cluster.dataNode(4));
    assertThat(indexes(cluster.locations("/data/excess2").get(0))).containsExactlyInAnyOrder(0, 1, 4);
    load(1, 40);
    load(4, 80);
    shrink("/data/excess2", 2);
    assertThat(indexes(cluster.locations("/data/excess2").get(0))).containsExactlyInAnyOrder(0, 4);
  }

  @Test
  void excessDeletion_keepsADrainingMigrationsNewCopy_evenOnTheLeastSparedServer() throws Exception {
    // Replicas on 0 (rack 1), 3 (rack 2), 6 (rack 3); a migration from 1 (which holds no replica of this block) to 3
    // is draining. 3 has the least spare capacity, so Eq. 7 alone would delete its copy: it is the target's new copy.
    cluster.write("/data/received", 3, 1000, 202, cluster.dataNode(0), cluster.dataNode(3), cluster.dataNode(6));
    assertThat(indexes(cluster.locations("/data/received").get(0))).containsExactlyInAnyOrder(0, 3, 6);
    load(3, 80);
    cluster.runtime().pending().drain(cluster.id(1), cluster.id(3));
    try {
      shrink("/data/received", 2);
    } finally {
      cluster.runtime().pending().undrain(cluster.id(1), cluster.id(3));
    }
    assertThat(indexes(cluster.locations("/data/received").get(0))).contains(3).hasSize(2);
  }

  @Test
  void twoLostReplicas_areRecreatedInOneCall_onHotServers_roundRobin_withinTheRackRules() throws Exception {
    BlockPlacementPolicy policy = cluster.mini().getNamesystem().getBlockManager()
        .getBlockPlacementPolicy();
    BlockStoragePolicy storage = BlockStoragePolicySuite.createDefaultSuite().getDefaultPolicy();
    java.util.Map<String, Integer> added = new java.util.HashMap<>();
    for (int source : new int[] {0, 1, 3, 4, 6, 7}) {
      DatanodeDescriptor holder = cluster.descriptor(source);
      DatanodeStorageInfo[] targets = policy.chooseTarget("/data/recovered", 2, holder,
          new java.util.ArrayList<>(List.of(holder.getStorageInfos()[0])), false,
          new java.util.HashSet<>(List.of(holder)), 1000, storage, null);

      assertThat(targets).as("from %d", source).hasSize(2);
      Set<String> racks = new java.util.HashSet<>(Set.of(holder.getNetworkLocation()));
      for (DatanodeStorageInfo target : targets) {
        DatanodeDescriptor dn = target.getDatanodeDescriptor();
        assertThat(dn).isNotEqualTo(holder);
        assertThat(cluster.roleOf(dn)).isEqualTo(ServerRole.HOT);
        racks.add(dn.getNetworkLocation());
        added.merge(dn.getXferAddr(), 1, Integer::sum);
      }
      assertThat(targets[0].getDatanodeDescriptor()).isNotEqualTo(targets[1].getDatanodeDescriptor());
      assertThat(racks).as("the block's three replicas span at least two racks").hasSizeGreaterThanOrEqualTo(2);
    }
    // 12 new replicas over the six hot servers, round robin: none skipped, none taking more than its turn and one
    assertThat(added).hasSize(6);
    assertThat(added.values()).allSatisfy(count -> assertThat(count).isBetween(1, 3));
  }

  @Test
  void rolesFileNamingAHostThatIsNotADataNode_isRefusedAndChangesNothing() throws Exception {
    java.nio.file.Path bad = cluster.rolesFile().resolveSibling("roles-with-unknown-host");
    java.nio.file.Files.write(bad, List.of("standby " + cluster.id(0), "hot 10.9.9.9:1"));
    assertThatThrownBy(() -> cluster.runtime().roles().reload(bad, cluster.registeredNames()))
        .hasMessageContaining("names hosts that are not DataNodes of this cluster: [10.9.9.9:1]");
    assertThat(cluster.roleOf(cluster.descriptor(0))).isEqualTo(ServerRole.HOT);
    assertThat(cluster.roleOf(cluster.descriptor(2))).isEqualTo(ServerRole.STANDBY);
  }

  /** Directs {@code reads} recent reads to DataNode {@code index}: its load h, so its phi falls. */
  private static void load(int index, int reads) {
    for (int i = 0; i < reads; i++) {
      cluster.runtime().recentReads().directed(cluster.id(index));
    }
  }

  private static void shrink(String path, int replication) throws Exception {
    cluster.fs().setReplication(new Path(path), (short) replication);
    GenericTestUtils.waitFor(() -> {
      try {
        return cluster.locations(path).get(0).size() == replication;
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }, 100, 60_000);
  }

  private static Set<String> racks(List<DatanodeInfo> replicas) {
    return replicas.stream().map(DatanodeInfo::getNetworkLocation).collect(Collectors.toSet());
  }

  private static List<Integer> indexes(List<DatanodeInfo> replicas) {
    return replicas.stream().map(dn -> cluster.indexOf(dn.getIpAddr() + ":" + dn.getXferPort()))
        .collect(Collectors.toList());
  }
}
