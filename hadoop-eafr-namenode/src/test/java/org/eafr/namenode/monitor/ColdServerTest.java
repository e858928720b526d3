package org.eafr.namenode.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManagerTestUtil;
import org.apache.hadoop.hdfs.server.blockmanagement.HostConfigManager;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.util.ToolRunner;
import org.eafr.namenode.hosts.EafrHostConfigManager;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.namenode.testing.MaintenanceHosts;
import org.eafr.placement.cluster.ServerRole;
import org.junit.jupiter.api.Test;

/**
 * Standby -> cold (EAFR Eq. 8) through HDFS maintenance: with a storage reserve larger than any disk, every standby
 * server (2, 5, 8) is nearly full, so one monitor round puts them to sleep through EafrHostConfigManager; a sleeping
 * server can then be stopped with no re-replication, and its files stay readable.
 */
class ColdServerTest {

  @Test
  void nearlyFullStandbys_goToSleepInMaintenance_andStoppingOneReReplicatesNothing() throws Exception {
    Configuration conf = ReplicationMonitorTest.monitorConf("cold-servers", 3_600_000);
    MaintenanceHosts.configure(conf);
    conf.setClass(DFSConfigKeys.DFS_NAMENODE_HOSTS_PROVIDER_CLASSNAME_KEY, EafrHostConfigManager.class,
        HostConfigManager.class);
    conf.set("eafr.storage-reserve.bytes", String.valueOf(1L << 50)); // 1 PiB: every server is nearly full
    try (EafrCluster cluster = EafrCluster.start(conf)) {
      cluster.standby(2, 5, 8);
      for (int i = 0; i < 5; i++) {
        cluster.write("/data/s" + i, 2, 2000, i, cluster.dataNode(2), cluster.dataNode(3));
      }
      cluster.monitor().round();
      for (int standby : new int[] {2, 5, 8}) {
        GenericTestUtils.waitFor(() -> state(cluster, standby) == AdminStates.IN_MAINTENANCE, 100, 60_000);
        assertThat(cluster.roleOf(cluster.descriptor(standby))).isEqualTo(ServerRole.COLD);
      }
      assertThat(state(cluster, 3)).isEqualTo(AdminStates.NORMAL);
      assertThat(cluster.runtime().monitorStats().nodes(ServerRole.STANDBY)).isEqualTo(3); // as the round saw them

      BlockManager blocks = cluster.mini().getNamesystem().getBlockManager();
      cluster.kill(2);
      BlockManagerTestUtil.checkHeartbeat(blocks);
      for (int round = 0; round < 3; round++) {
        BlockManagerTestUtil.checkRedundancy(blocks);
        assertThat(BlockManagerTestUtil.computeAllPendingWork(blocks)).isZero();
      }
      assertThat(blocks.getLowRedundancyBlocksCount()).isZero();
      cluster.verifyChecksums();
    }
  }

  @Test
  void rolesFile_isReloadedByDfsadminRefresh_andABadFileChangesNothing() throws Exception {
    try (EafrCluster cluster = EafrCluster.start(ReplicationMonitorTest.monitorConf("roles-refresh", 3_600_000))) {
      String address = "localhost:" + cluster.mini().getNameNodePort();
      java.nio.file.Files.write(cluster.rolesFile(), java.util.List.of("standby " + cluster.id(4)));
      assertThat(ToolRunner.run(new DFSAdmin(cluster.conf()), new String[] {"-refresh", address, "eafr-roles"}))
          .isZero();
      assertThat(cluster.roleOf(cluster.descriptor(4))).isEqualTo(ServerRole.STANDBY);

      java.nio.file.Files.write(cluster.rolesFile(), java.util.List.of("standby 10.9.9.9:1"));
      assertThat(ToolRunner.run(new DFSAdmin(cluster.conf()), new String[] {"-refresh", address, "eafr-roles"}))
          .isNotZero();
      assertThat(cluster.roleOf(cluster.descriptor(4))).isEqualTo(ServerRole.STANDBY);
    }
  }

  private static AdminStates state(EafrCluster cluster, int index) {
    try {
      return cluster.descriptor(index).getAdminState();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
