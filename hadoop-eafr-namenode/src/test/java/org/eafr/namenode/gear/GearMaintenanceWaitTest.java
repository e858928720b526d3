package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A gear-down whose leaving DataNodes HDFS holds in ENTERING_MAINTENANCE is cancelled, naming them, once
 * {@code eafr.gear.maintenance.stall.ms} has passed without progress. HDFS holds them for real: every block must keep 2
 * live replicas outside maintenance ({@code dfs.namenode.maintenance.replication.min}), gear 0 keeps one (its primary),
 * and the NameNode may start no re-replication (both replication stream limits 0), so a leaving DataNode holding a
 * block never finishes entering maintenance (HDFS's admin monitor counts the block left on each of the two, and the count never
 * falls); one holding none is IN_MAINTENANCE at once.
 */
class GearMaintenanceWaitTest {
  @Test
  void leavingDataNodesHeldOutOfMaintenance_cancelTheGearDownAfterTheStallBound_namingThem() throws Exception {
    Configuration conf = GearTestCluster.conf("gear-maintenance-wait");
    conf.set("eafr.gear.maintenance.stall.ms", "10000");
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_DECOMMISSION_INTERVAL_KEY, 1); // the others IN_MAINTENANCE well before
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_MAINTENANCE_REPLICATION_MIN_KEY, 2);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_MAX_STREAMS_KEY, 0);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_STREAMS_HARD_LIMIT_KEY, 0);
    EafrCluster cluster = GearTestCluster.start(conf);
    GearRuntime gears = GearTestCluster.gears(cluster);
    GenericTestUtils.LogCapturer log = GenericTestUtils.LogCapturer.captureLogs(
        LoggerFactory.getLogger(GearService.class));
    try {
      GearedLayout layout = gears.layout().orElseThrow();
      cluster.write("/data/f0", 3, 4096, 0);
      Set<String> leaving = new TreeSet<>(layout.serversOn(4).minus(layout.serversOn(0)).ids());
      Set<String> held = new TreeSet<>(cluster.blockHolders("/data/f0").get(0));
      held.retainAll(leaving);
      assertThat(held).as("the block's two non-primary replicas").hasSize(2);

      gears.service().requestGear(0);
      GenericTestUtils.waitFor(() -> gears.counters().refusedShifts.get() == 1
          && gears.state().phase() == ShiftPhase.STEADY && log.getOutput().contains("asleep since before it"), 100,
          60_000); // logged once the step that cancelled it has ended

      assertThat(gears.state().gear()).isEqualTo(4);
      assertThat(gears.state().sleeping()).isEmpty();
      List<String> names = held.stream().map(id -> GearTestCluster.descriptor(cluster, id))
          .map(dn -> ServerTranslator.nameOf(dn).toString()).collect(Collectors.toList());
      assertThat(log.getOutput()).contains("gear-down to 0 cancelled: 2 of 8 leaving DataNodes not IN_MAINTENANCE,"
          + " with no progress for 10000 ms (2 blocks left; ");
      for (String name : names) {
        assertThat(log.getOutput()).contains(name);
      }
      assertThat(log.getOutput()).contains("; 8 DataNodes out of maintenance");
      GenericTestUtils.waitFor(() -> leaving.stream()
          .noneMatch(id -> GearTestCluster.descriptor(cluster, id).isMaintenance()), 100, 30_000);
      assertThat(GearTestCluster.running(cluster)).hasSize(12);
    } finally {
      log.stopCapturing();
      GearTestCluster.stop(cluster);
    }
  }
}
