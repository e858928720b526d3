package org.eafr.namenode.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.ha.HATestUtil;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.cluster.EafrRuntime;
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
    Configuration conf = ReplicationMonitorTest.monitorConf("ha", 1_000);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).nnTopology(MiniDFSNNTopology.simpleHATopology())
        .numDataNodes(EafrCluster.RACKS.length).racks(EafrCluster.RACKS).build();
    try {
      cluster.transitionToActive(0);
      cluster.waitActive();
      assertThat(runtime(cluster, 0)).isNotSameAs(runtime(cluster, 1));
      List<String> standbyLines = new ArrayList<>();
      for (int i : new int[] {2, 5, 8}) {
        DataNode dn = cluster.getDataNodes().get(i);
        standbyLines.add("standby " + ServerTranslator.idOf(dn.getDatanodeId()));
      }
      Path roles = Path.of(conf.get("eafr.roles.file"));
      Files.write(roles, standbyLines);
      for (int nn = 0; nn < 2; nn++) {
        runtime(cluster, nn).roles().reload(roles, names(cluster.getNamesystem(nn)));
      }
      DistributedFileSystem fs = HATestUtil.configureFailoverFs(cluster, conf);
      byte[] data = new byte[4000];
      new Random(5).nextBytes(data);
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/data/ha");
      try (FSDataOutputStream out = fs.create(file, (short) 2)) {
        out.write(data);
      }
      DFSTestUtil.waitReplication(fs, file, (short) 2);
      // HDFS postpones excess deletions until every DataNode has block-reported to the new active NameNode.
      cluster.triggerBlockReports();

      GenericTestUtils.waitFor(() -> runtime(cluster, 0).monitor().inFlight().values().stream()
          .anyMatch(a -> a.contains("MIGRATE")), 50, 60_000);
      cluster.transitionToStandby(0);
      cluster.transitionToActive(1);
      cluster.triggerBlockReports();
      long standbyRounds = runtime(cluster, 0).monitorStats().rounds();
      long activeRounds = runtime(cluster, 1).monitorStats().rounds();
      GenericTestUtils.waitFor(() -> runtime(cluster, 1).monitorStats().rounds() > activeRounds + 2, 100, 60_000);
      GenericTestUtils.waitFor(() -> {
        List<ServerRole> holders = roles(cluster, 1, "/data/ha");
        return holders.size() == 2 && holders.contains(ServerRole.HOT) && holders.contains(ServerRole.STANDBY);
      }, 100, 60_000);
      assertThat(runtime(cluster, 0).monitorStats().rounds()).isLessThanOrEqualTo(standbyRounds + 1);
      byte[] read = new byte[data.length];
      try (FSDataInputStream in = fs.open(file)) {
        in.readFully(0, read);
      }
      assertThat(read).isEqualTo(data);
    } finally {
      EafrRuntime.release(cluster.getNameNode(0).getConf());
      EafrRuntime.release(cluster.getNameNode(1).getConf());
      cluster.shutdown(true);
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
    ServerTranslator translator = ServerTranslator.of(runtime(cluster, nn));
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
