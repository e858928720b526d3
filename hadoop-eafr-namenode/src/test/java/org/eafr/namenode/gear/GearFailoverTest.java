package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.namenode.ha.HATestUtil;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.junit.jupiter.api.Test;

/**
 * An HA pair (12 DataNodes, 3 racks, equal-work) fails over in the middle of a gear shift, and the new active
 * NameNode finishes the shift from the state the edit log carried (the gear state and what each file owes are xattrs
 * in the namespace): a gear-down held in POWERING_OFF, and a reflection with block moves in flight.
 */
class GearFailoverTest {

  /**
   * A gear-down to the minimum gear is held in POWERING_OFF (every power-off waits on a latch; the standby has caught
   * up with that phase), the active NameNode fails over, the hold is released: the 8 DataNodes of the upper gears
   * end stopped and in maintenance on the new active NameNode, every file reads back with its content.
   */
  @Test
  void failoverInTheMiddleOfAGearDownLosesNothing_andTheNewActiveFinishesTheShift() throws Exception {
    MiniClusterPower.Hold hold = new MiniClusterPower.Hold();
    EafrCluster cluster = GearTestCluster.startHa(GearTestCluster.conf("gear-failover"), hold);
    try {
      for (int i = 0; i < 4; i++) {
        cluster.write("/data/f" + i, 3, 4096 * (i + 1), i);
      }

      gears(cluster, 0).service().requestGear(0);
      GenericTestUtils.waitFor(() -> hold.waiting() > 0, 50, 60_000);
      assertThat(gears(cluster, 0).state().phase()).isEqualTo(ShiftPhase.POWERING_OFF);
      awaitStandbyPhase(cluster, ShiftPhase.POWERING_OFF);
      assertThat(cluster.mini().getDataNodes()).hasSize(12); // held: nothing is off yet

      cluster.failover();
      hold.release();
      GearTestCluster.awaitGear(cluster, 0);

      GearedLayout layout = GearTestCluster.layout(cluster);
      assertThat(GearTestCluster.running(cluster)).containsExactlyInAnyOrderElementsOf(layout.serversOn(0).ids());
      for (String sleeping : layout.serversOn(layout.maximumGear()).minus(layout.serversOn(0)).ids()) {
        DatanodeDescriptor dn = GearTestCluster.descriptor(cluster, sleeping);
        assertThat(dn.isInMaintenance()).as("%s in maintenance on the new active NameNode", sleeping).isTrue();
        assertThat(dn.isAlive()).as("%s alive on the new active NameNode", sleeping).isFalse();
      }
      assertThat(gears(cluster, 1).state().sleeping()).hasSize(8);
      cluster.verifyChecksums();
      cluster.write("/low/after-failover", 3, 8192, 42); // a write in the minimum gear
      cluster.verifyChecksums();
    } finally {
      hold.release();
      GearTestCluster.stop(cluster);
    }
  }

  /**
   * Gear 0 -> 4 after writes in gear 0: the failover comes while the reflection has block moves in flight (the
   * DataNodes' balancing bandwidth makes each 1 MB move take about two seconds) and files still owe moves. The new
   * active NameNode finishes the reflection from the owed records: every block of the low-gear files ends with one
   * replica on a primary and two above it, the offloaded copies are gone, nothing owes moves, every checksum matches.
   */
  @Test
  void failoverInTheMiddleOfAReflectionLosesNothing_andTheNewActiveFinishesIt() throws Exception {
    Configuration conf = GearTestCluster.conf("gear-failover-reflection");
    conf.setLong(DFSConfigKeys.DFS_DATANODE_BALANCE_BANDWIDTHPERSEC_KEY, EafrCluster.BLOCK_SIZE / 2);
    EafrCluster cluster = GearTestCluster.startHa(conf, null);
    try {
      cluster.write("/data/f0", 3, EafrCluster.BLOCK_SIZE, 0);
      gears(cluster, 0).service().requestGear(0);
      GearTestCluster.awaitGear(cluster, 0);
      List<String> lowGear = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        lowGear.add("/low/f" + i);
        cluster.write("/low/f" + i, 3, 2 * EafrCluster.BLOCK_SIZE, 50 + i);
      }
      GenericTestUtils.waitFor(() -> gears(cluster, 0).counters().owedFiles.get() >= 3, 100, 60_000);

      gears(cluster, 0).service().requestGear(4);
      awaitStandbyPhase(cluster, ShiftPhase.REFLECTING);
      GenericTestUtils.waitFor(() -> !gears(cluster, 0).reflectionMoves().isEmpty(), 20, 60_000);
      long owedAtFailover = gears(cluster, 0).counters().owedFiles.get();
      cluster.failover();
      assertThat(owedAtFailover).as("files owing moves at the failover").isPositive();

      GearTestCluster.awaitGear(cluster, 4);
      assertThat(GearTestCluster.running(cluster)).hasSize(12);
      for (String file : lowGear) {
        GearTestCluster.assertEqualWorkLayout(cluster, file);
      }
      assertThat(gears(cluster, 1).counters().owedFiles.get()).isZero();
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
    }
  }

  private static GearRuntime gears(EafrCluster cluster, int nn) {
    return cluster.runtime(nn).gears();
  }

  /** Waits until the standby NameNode has tailed the edit log (rolled, as HDFS does) up to {@code phase}. */
  private static void awaitStandbyPhase(EafrCluster cluster, ShiftPhase phase) throws Exception {
    int standby = 1 - cluster.active();
    GenericTestUtils.waitFor(() -> gears(cluster, cluster.active()).state().phase() == phase, 50, 60_000);
    HATestUtil.waitForStandbyToCatchUp(cluster.mini().getNameNode(cluster.active()),
        cluster.mini().getNameNode(standby));
    GenericTestUtils.waitFor(() -> gears(cluster, standby).state().phase() == phase, 50, 60_000);
  }
}
