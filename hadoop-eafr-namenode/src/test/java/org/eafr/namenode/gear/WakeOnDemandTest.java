package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.power.LogCapture;
import org.eafr.namenode.read.EafrNetworkTopology;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Wake on demand in the minimum gear (12 DataNodes, 3 racks, equal-work p = 4, g = 2: recovery group 0 is chain
 * positions 4, 6, 8, 10 serving primaries 0 and 2; group 1 is 5, 7, 9, 11 serving primaries 1 and 3), in order: a
 * primary fails and only its recovery group wakes, its blocks readable; then a block of the other group loses its one
 * live replica, a read finds no location, the group holding the block wakes and the read succeeds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WakeOnDemandTest {
  private EafrCluster cluster;
  private GearedLayout layout;

  @BeforeAll
  void startInTheMinimumGear() throws Exception {
    Configuration conf = GearTestCluster.conf("wake");
    conf.set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, EafrNetworkTopology.class.getName());
    // A stock client gives up after 3 location re-fetches (9-27 s of waiting); a busy CI machine may take longer to
    // restart four DataNodes, so this client re-fetches a few more times, as an operator may configure.
    conf.setInt(HdfsClientConfigKeys.DFS_CLIENT_MAX_BLOCK_ACQUIRE_FAILURES_KEY, 6);
    cluster = GearTestCluster.start(conf);
    for (int i = 0; i < 4; i++) {
      cluster.write("/data/f" + i, 3, 4096 * (i + 1), i);
    }
    layout = GearTestCluster.layout(cluster);
    GearTestCluster.gears(cluster).service().requestGear(0);
    GearTestCluster.awaitGear(cluster, 0);
    assertThat(GearTestCluster.running(cluster)).containsExactlyInAnyOrderElementsOf(layout.serversOn(0).ids());
  }

  @AfterAll
  void stopCluster() {
    GearTestCluster.stop(cluster);
  }

  @Test
  @Order(1)
  void aPrimaryFailingInTheMinimumGearWakesItsRecoveryGroupOnly_andItsBlocksStayReadable() throws Exception {
    String failed = layout.chain().id(2);
    List<String> group = layout.recoveryGroup(2).ids();
    assertThat(((EqualWorkLayout) layout).recoveryGroupOf(layout.chain().position(group.get(0)))).isZero();

    try (LogCapture log = new LogCapture()) {
      cluster.kill(cluster.indexOf(failed));
      GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).counters().nodesWoken.get() == group.size()
          && GearTestCluster.gears(cluster).state().waking().isEmpty(), 100, 60_000);
      assertThat(log.text()).contains("WARN GearService - EAFR gears: a DataNode that should be on is dead or stale ("
          + failed + " dead); waking its recovery group: waking 4 DataNodes " + new TreeSet<>(group));
    }

    Set<String> expected = new TreeSet<>(layout.serversOn(0).ids());
    expected.remove(failed);
    expected.addAll(group);
    assertThat(new TreeSet<>(GearTestCluster.running(cluster))).isEqualTo(expected);
    GearRecord state = GearTestCluster.gears(cluster).state();
    assertThat(state.sleeping()).containsExactlyInAnyOrderElementsOf(layout.recoveryGroup(1).ids());
    assertThat(state.gear()).isZero();
    for (String woken : group) {
      assertThat(descriptorInService(woken)).as("%s out of maintenance", woken).isTrue();
    }
    GearCounters counters = GearTestCluster.gears(cluster).counters();
    assertThat(counters.wakesForFailures.get()).isEqualTo(1);
    assertThat(counters.wakesForBlocks.get()).isZero();
    cluster.verifyChecksums();
  }

  @Test
  @Order(2)
  void aReadOfABlockWhoseEveryLiveReplicaSleepsWakesTheGroupHoldingIt_andThenSucceeds() throws Exception {
    ActiveSet groupOne = layout.recoveryGroup(1);
    String file = fileHeldBy(groupOne);
    LocatedBlock located = cluster.mini().getNameNodeRpc().getBlockLocations(file, 0, 1).get(0);
    assertThat(located.getLocations()).hasSize(1);
    DatanodeInfo primary = located.getLocations()[0];
    // The one replica that is on fails its checksum (a disk error): every live replica of the block now sleeps.
    cluster.mini().getNamesystem().writeLock();
    try {
      blockManager().findAndMarkBlockAsCorrupt(located.getBlock(), primary, located.getStorageIDs()[0],
          "test: disk error on the on-gear replica");
    } finally {
      cluster.mini().getNamesystem().writeUnlock();
    }
    assertThat(cluster.mini().getNameNodeRpc().getBlockLocations(file, 0, 1).get(0).getLocations()).isEmpty();

    cluster.read(file, 1); // gets no location, waits as HDFS clients do, re-fetches, and reads once the group is on

    GearCounters counters = GearTestCluster.gears(cluster).counters();
    assertThat(counters.readsWithoutReplica.get()).isPositive();
    assertThat(counters.wakesForBlocks.get()).isEqualTo(1);
    assertThat(counters.nodesWoken.get()).isEqualTo(8);
    assertThat(GearTestCluster.gears(cluster).state().sleeping()).isEmpty();
    assertThat(GearTestCluster.running(cluster)).hasSize(11).containsAll(groupOne.ids());
    cluster.verifyChecksums();
  }

  /** A file whose block has its primary replica on a primary of {@code group}'s and every other one in the group. */
  private String fileHeldBy(ActiveSet group) throws Exception {
    List<String> candidates = new ArrayList<>();
    for (String file : cluster.files()) {
      List<String> holders = cluster.holders(file);
      long inGroup = holders.stream().filter(group::contains).count();
      if (inGroup == holders.size() - 1 && holders.size() == 3) {
        candidates.add(file);
      }
    }
    assertThat(candidates).as("files of recovery group 1").isNotEmpty();
    return candidates.get(0);
  }

  private boolean descriptorInService(String id) {
    int colon = id.lastIndexOf(':');
    return blockManager().getDatanodeManager().getDatanodeByXferAddr(id.substring(0, colon),
        Integer.parseInt(id.substring(colon + 1))).isInService();
  }

  private BlockManager blockManager() {
    return cluster.mini().getNamesystem().getBlockManager();
  }
}
