package org.eafr.namenode.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManagerTestUtil;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.namenode.testing.MaintenanceHosts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Re-replication after a DataNode dies (EAFR Alg. 4) and a sleeping (maintenance) DataNode being stopped, each on a
 * fresh cluster of nine DataNodes on three racks: 4 and 7 standby, 2 put into HDFS maintenance (cold), the rest hot.
 */
class RecoveryPlacementTest {
  private static final int FILES = 10;

  private EafrCluster cluster;
  private MaintenanceHosts hosts;

  @BeforeEach
  void startCluster() throws Exception {
    Configuration conf = EafrCluster.baseConf("recovery");
    hosts = MaintenanceHosts.configure(conf);
    cluster = EafrCluster.start(conf);
    cluster.standby(4, 7);
  }

  @AfterEach
  void stopCluster() throws IOException {
    cluster.verifyChecksumsAndClose();
  }

  @Test
  void lostReplicas_areRecreatedRoundRobinOnHotServers_noneOnTheColdServer() throws Exception {
    sleep(2);
    // Every file on 0 (rack 1), standby 4 (rack 2) and standby 7 (rack 3): losing 0 leaves two racks, so the
    // destinations are the five hot servers 1, 3, 5, 6, 8 in turn, and never 2 (cold) or the standby holders.
    for (int i = 0; i < FILES; i++) {
      cluster.write("/data/f" + i, 3, 1000, i, cluster.dataNode(0), cluster.dataNode(4), cluster.dataNode(7));
    }
    for (int i = 0; i < FILES; i++) {
      assertThat(indexes("/data/f" + i)).containsExactlyInAnyOrder(0, 4, 7);
    }
    String dead = cluster.id(0);
    cluster.kill(0);
    GenericTestUtils.waitFor(() -> allReplicated(3, dead), 200, 60_000);

    Map<Integer, Integer> added = new HashMap<>();
    for (int i = 0; i < FILES; i++) {
      List<Integer> holders = indexes("/data/f" + i);
      assertThat(holders).contains(4, 7).doesNotContain(0, 2);
      for (int holder : holders) {
        if (holder != 4 && holder != 7) {
          added.merge(holder, 1, Integer::sum);
        }
      }
    }
    assertThat(added).containsOnlyKeys(1, 3, 5, 6, 8);
    assertThat(added.values()).allSatisfy(count -> assertThat(count).isEqualTo(FILES / 5));
  }

  @Test
  void stoppingASleepingDataNode_triggersNoReReplication_andItsFilesStayReadable() throws Exception {
    for (int i = 0; i < FILES; i++) {
      cluster.write("/data/g" + i, 2, 1000, 50 + i, cluster.dataNode(2), cluster.dataNode(3));
    }
    sleep(2);
    BlockManager blocks = cluster.mini().getNamesystem().getBlockManager();
    cluster.kill(2);
    BlockManagerTestUtil.checkHeartbeat(blocks);
    cluster.verifyChecksums();
    // Redundancy rounds run by hand as well as by the monitor: the sleeping node's replicas still count.
    for (int round = 0; round < 3; round++) {
      BlockManagerTestUtil.checkRedundancy(blocks);
      assertThat(BlockManagerTestUtil.computeAllPendingWork(blocks)).isZero();
    }
    assertThat(blocks.getLowRedundancyBlocksCount()).isZero();
    assertThat(blocks.getPendingReconstructionBlocksCount()).isZero();
    for (int i = 0; i < FILES; i++) {
      List<Integer> holders = indexes("/data/g" + i);
      holders.remove(Integer.valueOf(2));
      assertThat(holders).containsExactly(3);
    }
  }

  /** Puts DataNode {@code index} into HDFS maintenance (no expiry) and waits until it is in it. */
  private void sleep(int index) throws Exception {
    hosts.maintenance(cluster.descriptor(index).getXferAddr());
    cluster.datanodeManager().refreshNodes(cluster.conf());
    GenericTestUtils.waitFor(() -> {
      try {
        return cluster.descriptor(index).getAdminState() == AdminStates.IN_MAINTENANCE;
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }, 100, 60_000);
  }

  private boolean allReplicated(int replication, String deadId) {
    try {
      for (int i = 0; i < FILES; i++) {
        Set<String> ids = new HashSet<>();
        for (DatanodeInfo dn : cluster.locations("/data/f" + i).get(0)) {
          ids.add(dn.getIpAddr() + ":" + dn.getXferPort());
        }
        ids.remove(deadId);
        if (ids.size() < replication) {
          return false;
        }
      }
      return true;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private List<Integer> indexes(String path) throws IOException {
    List<Integer> indexes = new ArrayList<>();
    for (DatanodeInfo dn : cluster.locations(path).get(0)) {
      indexes.add(cluster.indexOf(dn.getIpAddr() + ":" + dn.getXferPort()));
    }
    return indexes;
  }
}
