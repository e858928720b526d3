package org.eafr.namenode.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.read.EafrNetworkTopology;
import org.eafr.namenode.read.ReadCountingAuditLogger;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.replication.ReplicationPlan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The replication monitor on a real NameNode with every EAFR part installed: nine DataNodes on three racks, 2, 5 and
 * 8 standby. Thresholds are scaled down so that tens of reads make a file hot: c_c = 4, tau_u = 5, sigma_u = 2,
 * tau_l = sigma_l = 1, gamma_v = gamma_s = 0.4, r = 2, eps = 1; recently directed reads decay slowly (10 min).
 */
class ReplicationMonitorTest {
  private EafrCluster cluster;

  static Configuration monitorConf(String name, long intervalMillis) throws IOException {
    Configuration conf = EafrCluster.baseConf(name);
    conf.set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, EafrNetworkTopology.class.getName());
    conf.set(DFSConfigKeys.DFS_NAMENODE_AUDIT_LOGGERS_KEY, "default," + ReadCountingAuditLogger.class.getName());
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    conf.set("eafr.interval.ms", String.valueOf(intervalMillis));
    scaleDown(conf);
    return conf;
  }

  /** The class's thresholds, scaled so that tens of reads make a file hot and overload its replica servers. */
  static void scaleDown(Configuration conf) {
    conf.set("eafr.server.service-capacity", "4");
    conf.set("eafr.hot.mean-replica-reads", "5");
    conf.set("eafr.hot.replica-reads", "2");
    conf.set("eafr.cold.mean-replica-reads", "1");
    conf.set("eafr.cold.replica-reads", "1");
    conf.set("eafr.replica-fraction", "0.4");
    conf.set("eafr.overloaded-fraction", "0.4");
    conf.set("eafr.reads.recent.half-life.ms", "600000");
  }

  @AfterEach
  void stop() throws IOException {
    if (cluster != null) {
      cluster.verifyChecksumsAndClose();
    }
  }

  private ReplicationMonitor monitor() {
    return cluster.monitor();
  }

  static void waitForHolders(EafrCluster cluster, String path, Predicate<List<String>> condition)
      throws Exception {
    GenericTestUtils.waitFor(() -> {
      try {
        return condition.test(cluster.holders(path));
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }, 100, 60_000);
  }

  /** The metrics source's current values, by name. */
  static Map<String, Number> metrics(EafrCluster cluster) {
    return cluster.eafrMetrics();
  }

  private List<ServerRole> roles(String path) throws IOException {
    List<ServerRole> roles = new ArrayList<>();
    for (String id : cluster.holders(path)) {
      roles.add(cluster.roleOfId(id));
    }
    return roles;
  }

  @Test
  void fileReadHeavilyOverTwoIntervals_gainsAReplicaEachTime_onHotServers() throws Exception {
    cluster = EafrCluster.start(monitorConf("monitor-hot", 3_600_000));
    cluster.standby(2, 5, 8);
    cluster.write("/data/hot", 2, 4000, 1);

    cluster.read("/data/hot", 40);
    ReplicationPlan plan = monitor().round();
    assertThat(plan.actions()).as("%s; servers %s", plan, cluster.runtime().monitorStats().nodes(ServerRole.HOT))
        .extracting(a -> a.kind().name()).containsExactly("ADD");
    waitForHolders(cluster, "/data/hot", holders -> holders.size() == 3);
    assertThat(roles("/data/hot")).containsOnly(ServerRole.HOT);

    cluster.read("/data/hot", 40);
    monitor().round(); // completes the first ADD, plans the second
    waitForHolders(cluster, "/data/hot", holders -> holders.size() == 4);
    assertThat(roles("/data/hot")).containsOnly(ServerRole.HOT);
    assertThat(cluster.fs().getFileStatus(new org.apache.hadoop.fs.Path("/data/hot")).getReplication())
        .isEqualTo((short) 4);
    monitor().round();
    assertThat(cluster.runtime().monitorStats().added()).isEqualTo(2);
  }

  @Test
  void unreadFile_fallsToR_thenOneReplicaMovesToAStandbyServer() throws Exception {
    cluster = EafrCluster.start(monitorConf("monitor-cold", 3_600_000));
    cluster.standby(2, 5, 8);
    cluster.write("/data/cold", 3, 4000, 2);
    assertThat(roles("/data/cold")).containsOnly(ServerRole.HOT);

    assertThat(monitor().round().actions()).extracting(a -> a.kind().name()).containsExactly("DELETE");
    waitForHolders(cluster, "/data/cold", holders -> holders.size() == 2);
    assertThat(roles("/data/cold")).containsOnly(ServerRole.HOT);

    assertThat(monitor().round().actions()).extracting(a -> a.kind().name()).containsExactly("MIGRATE");
    waitForHolders(cluster, "/data/cold", holders -> holders.size() == 3);
    monitor().round(); // the copy is live: drain the source, back to r
    waitForHolders(cluster, "/data/cold", holders -> holders.size() == 2);
    assertThat(roles("/data/cold")).containsExactlyInAnyOrder(ServerRole.HOT, ServerRole.STANDBY);
    monitor().round();
    assertThat(cluster.runtime().monitorStats().removed()).isEqualTo(1);
    assertThat(cluster.runtime().monitorStats().migrated()).isEqualTo(1);
    MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
    assertThat(jmx.isRegistered(new ObjectName("Hadoop:service=NameNode,name=" + EafrMetrics.NAME))).isTrue();
    Map<String, Number> metrics = metrics(cluster);
    assertThat(metrics).containsEntry("ReplicasRemovedTotal", 1L).containsEntry("ReplicasMigratedTotal", 1L)
        .containsEntry("ReplicasAddedTotal", 0L).containsEntry("MovedBytesTotal", 4000L)
        .containsEntry("MigratedBytesTotal", 4000L).containsEntry("ColdFiles", 1L)
        .containsEntry("HotFiles", 0L).containsEntry("StandbyNodes", 3L).containsEntry("HotNodes", 6L);
    assertThat(cluster.fs().getFileStatus(new org.apache.hadoop.fs.Path("/data/cold")).getReplication())
        .isEqualTo((short) 2);
  }

  @Test
  void multiBlockFile_migratesEveryBlockToTheSameStandbyServer() throws Exception {
    cluster = EafrCluster.start(monitorConf("monitor-multiblock", 3_600_000));
    cluster.standby(2, 5, 8);
    cluster.write("/data/big", 2, 3 * EafrCluster.BLOCK_SIZE + 1000, 5); // four blocks, unread: a MIGRATE

    assertThat(monitor().round().actions()).extracting(a -> a.kind().name()).containsExactly("MIGRATE");
    String target = monitor().inFlight().get("/data/big").split(" -> ")[1]; // "MIGRATE path source -> target"
    waitForEveryBlock("/data/big", holders -> holders.size() == 3 && holders.contains(target));
    monitor().round(); // every block has its copy on the target: drain the source
    waitForEveryBlock("/data/big", holders -> holders.size() == 2);
    monitor().round();

    assertThat(cluster.runtime().monitorStats().migrated()).isEqualTo(1);
    assertThat(monitor().inFlight()).isEmpty();
    List<List<String>> blocks = cluster.blockHolders("/data/big");
    assertThat(blocks).hasSize(4);
    for (List<String> holders : blocks) {
      List<ServerRole> roles = new ArrayList<>();
      for (String id : holders) {
        roles.add(cluster.roleOfId(id));
      }
      assertThat(holders).as("target %s", target).contains(target);
      assertThat(roles).containsExactlyInAnyOrder(ServerRole.HOT, ServerRole.STANDBY);
    }
  }

  private void waitForEveryBlock(String path, Predicate<List<String>> condition) throws Exception {
    GenericTestUtils.waitFor(() -> {
      try {
        return cluster.blockHolders(path).stream().allMatch(condition);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }, 100, 60_000);
  }

  @Test
  void roundPlansInBatches_andStopsPlanningOnceTheActionBudgetIsSpent() throws Exception {
    Configuration conf = monitorConf("monitor-batches", 3_600_000);
    conf.set("eafr.monitor.max-concurrent-actions", "3");
    cluster = EafrCluster.start(conf);
    cluster.standby(2, 5, 8);
    for (int i = 0; i < 5; i++) {
      cluster.write("/data/c" + i, 2, 4000, 10 + i); // unread, r replicas, both hot: each one a MIGRATE
    }
    ReplicationMonitor batched = new ReplicationMonitor(cluster.mini().getNameNode(), cluster.runtime(), 2);

    ReplicationPlan plan = batched.round();

    // Batches of two: c0 and c1 start; of c2 and c3 only c2 fits the budget of 3; c4 is never planned.
    assertThat(plan.actions()).extracting(a -> a.fileId()).containsExactly("/data/c0", "/data/c1", "/data/c2",
        "/data/c3");
    assertThat(batched.inFlight()).containsOnlyKeys("/data/c0", "/data/c1", "/data/c2");
    assertThat(cluster.runtime().monitorStats().files(FileTemperature.COLD)).isEqualTo(5);
  }

  @Test
  void nameNodeRestartInTheMiddleOfAMigration_losesNothing_andTheMonitorResumes() throws Exception {
    cluster = EafrCluster.start(monitorConf("monitor-restart", 1_000));
    cluster.standby(2, 5, 8);
    cluster.write("/data/moving", 2, 4000, 3);
    GenericTestUtils.waitFor(() -> monitor().inFlight().values().stream().anyMatch(a -> a.contains("MIGRATE")),
        50, 60_000);
    cluster.mini().restartNameNode(true);
    long roundsAtRestart = cluster.runtime().monitorStats().rounds();
    GenericTestUtils.waitFor(() -> cluster.runtime().monitorStats().rounds() > roundsAtRestart + 2, 100, 60_000);
    waitForHolders(cluster, "/data/moving", holders -> holders.size() == 2);
    GenericTestUtils.waitFor(() -> {
      try {
        List<ServerRole> roles = roles("/data/moving");
        return roles.size() == 2 && roles.contains(ServerRole.HOT) && roles.contains(ServerRole.STANDBY);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }, 100, 60_000);
    assertThat(cluster.fs().getFileStatus(new org.apache.hadoop.fs.Path("/data/moving")).getReplication())
        .isGreaterThanOrEqualTo((short) 2);
  }
}
