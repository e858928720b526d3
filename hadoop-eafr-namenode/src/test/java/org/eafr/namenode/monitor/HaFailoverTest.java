package org.eafr.namenode.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.config.DataNodeName;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.cluster.ServerRole;
import org.junit.jupiter.api.Test;

/**
 * An HA pair: only the active NameNode's monitor acts, and a failover while a migration is in flight loses nothing;
 * the new active NameNode's monitor finishes the file's move to a standby server.
 */
class HaFailoverTest {

  @Test
  void failoverDuringAMigration_losesNothing_andOnlyTheActiveNameNodeActs() throws Exception {
    EafrCluster cluster = EafrCluster.startHa(ReplicationMonitorTest.monitorConf("ha", 1_000), EafrCluster.RACKS);
    try {
      assertThat(cluster.runtime(0)).isNotSameAs(cluster.runtime(1));
      List<String> standbyLines = new ArrayList<>();
      for (int i : new int[] {2, 5, 8}) {
        standbyLines.add("standby " + cluster.id(i));
      }
      Files.write(cluster.rolesFile(), standbyLines);
      for (int nn = 0; nn < 2; nn++) {
        cluster.runtime(nn).roles().reload(cluster.rolesFile(), names(cluster.mini().getNamesystem(nn)));
      }
      // No block report is triggered here: each NameNode that becomes active asks the DataNodes with stale storages
      // for one itself (ReplicaMap), else the monitor would wait for the periodic report, 6 hours away.
      cluster.write("/data/ha", 2, 4000, 5);

      GenericTestUtils.waitFor(() -> cluster.monitor(0).inFlight().values().stream()
          .anyMatch(a -> a.contains("MIGRATE")), 50, 60_000);
      cluster.failover();
      long standbyRounds = cluster.runtime(0).monitorStats().rounds();
      long activeRounds = cluster.runtime(1).monitorStats().rounds();
      GenericTestUtils.waitFor(() -> cluster.runtime(1).monitorStats().rounds() > activeRounds + 2, 100, 60_000);
      GenericTestUtils.waitFor(() -> {
        List<ServerRole> holders = roles(cluster.mini(), 1, "/data/ha");
        return holders.size() == 2 && holders.contains(ServerRole.HOT) && holders.contains(ServerRole.STANDBY);
      }, 100, 60_000);
      assertThat(cluster.runtime(0).monitorStats().rounds()).isLessThanOrEqualTo(standbyRounds + 1);
      cluster.verifyChecksums();
    } finally {
      cluster.close();
    }
  }

  private static EafrRuntime runtime(MiniDFSCluster cluster, int nn) {
    return EafrRuntime.of(cluster.getNameNode(nn).getConf());
  }

  private static List<DataNodeName> names(FSNamesystem namesystem) {
    List<DataNodeName> names = new ArrayList<>();
    for (DatanodeDescriptor dn : namesystem.getBlockManager().getDatanodeManager()
        .getDatanodeListForReport(DatanodeReportType.ALL)) {
      names.add(ServerTranslator.nameOf(dn));
    }
    return names;
  }

  private static List<ServerRole> roles(MiniDFSCluster cluster, int nn, String path) {
    FSNamesystem namesystem = cluster.getNamesystem(nn);
    ServerTranslator translator = runtime(cluster, nn).translator();
    List<ServerRole> roles = new ArrayList<>();
    namesystem.readLock();
    try {
      BlockInfo first = namesystem.getFSDirectory().getINode(path).asFile().getBlocks()[0];
      for (DatanodeStorageInfo storage : namesystem.getBlockManager().getStorages(first)) {
        roles.add(translator.roleOf(storage.getDatanodeDescriptor()));
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } finally {
      namesystem.readUnlock();
    }
    return roles;
  }
}
