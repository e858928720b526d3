package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.PrivilegedExceptionAction;
import java.util.Map;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.power.ForwardingPowerDriver;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.power.PowerCommand;
import org.eafr.namenode.power.PowerDriver;
import org.eafr.namenode.power.PowerException;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.junit.jupiter.api.Test;

/**
 * {@code hdfs eafr gear cancel} on a gear-up that cannot finish: one host of the gear group woken has a BMC that
 * refuses to power it on, so the power manager quarantines it and the shift waits in POWERING_ON for good. The status
 * names the host and why; cancel ends the shift (and auto mode) with that host asleep (verified off, in maintenance)
 * and the other host of the group on and out of maintenance; once the BMC works and the quarantine is lifted, the gear-up finishes.
 */
class GearCancelTest {
  @Test
  void aGearUpBlockedByAQuarantinedHost_isNamedInStatus_andCancelLeavesEveryHostOnOrVerifiedOff() throws Exception {
    EafrCluster cluster = EafrCluster.start(GearTestCluster.conf("gear-cancel"), GearTestCluster.RACKS);
    GearRuntime gears = cluster.runtime().gears();
    try {
      GenericTestUtils.waitFor(() -> gears.layout().isPresent(), 50, 60_000);
      GearedLayout layout = gears.layout().orElseThrow();
      String stuck = layout.chain().id(4); // gear group 1: positions 4 and 5
      String other = layout.chain().id(5);
      Map<String, PowerDriver> drivers = MiniClusterPower.drivers(cluster.mini(), null);
      BrokenPowerOn broken = new BrokenPowerOn(drivers.get(stuck));
      drivers.put(stuck, broken);
      gears.power(MiniClusterPower.manager(cluster.mini(), drivers));
      for (int i = 0; i < 4; i++) {
        cluster.write("/data/f" + i, 3, EafrCluster.BLOCK_SIZE + 4096 * i, i);
      }
      gears.service().requestGear(0);
      GearTestCluster.awaitGear(cluster, 0);
      cluster.write("/low/f0", 3, EafrCluster.BLOCK_SIZE, 40); // owes moves to the groups asleep

      AdminRun nothing = AdminRun.run(cluster.conf(), "gear", "cancel");
      assertThat(nothing.code).isEqualTo(1);
      assertThat(nothing.err).contains("'hdfs eafr gear cancel' refused: no shift is under way (gear 0, steady)");

      gears.service().requestGear(1);
      GenericTestUtils.waitFor(() -> gears.power().status(stuck).quarantined()
          && GearTestCluster.descriptor(cluster, other).isAlive(), 100, 60_000);
      GenericTestUtils.waitFor(() -> gears.service().blockedBy().orElse("").contains("quarantined"), 100, 60_000);
      AdminRun status = AdminRun.run(cluster.conf(), "status");
      assertThat(status.out).containsPattern("shift waits for DataNode \\S*" + stuck.replace(".", "\\.")
          + ": quarantined \\(").contains("'hdfs eafr power clear " + stuck + "'");
      assertThat(gears.state().phase()).isEqualTo(ShiftPhase.POWERING_ON);

      UserGroupInformation alice = UserGroupInformation.createUserForTesting("alice", new String[] {"users"});
      AdminRun denied = alice.doAs((PrivilegedExceptionAction<AdminRun>) () -> AdminRun.run(cluster.conf(), "gear",
          "cancel"));
      assertThat(denied.code).isEqualTo(1);
      assertThat(denied.err).contains("may not run 'hdfs eafr gear cancel'");
      assertThat(gears.state().phase()).isEqualTo(ShiftPhase.POWERING_ON);

      gears.autopilot().enable(); // decides nothing while the shift is under way; cancel hands the gear back
      AdminRun cancel = AdminRun.run(cluster.conf(), "gear", "cancel");
      assertThat(cancel.code).as(cancel.err).isZero();
      assertThat(cancel.out).endsWith("; gear mode manual (was auto)\n");
      assertThat(gears.autopilot().mode()).isEqualTo(GearMode.MANUAL);
      assertThat(cancel.out).contains("shift to gear 1 (POWERING_ON) cancelled: gear 0 in force")
          .contains("7 DataNodes not running stay asleep in maintenance [").contains(stuck)
          .contains("1 DataNodes out of maintenance [" + other + "]").contains("1 files still owed, moved once their homes are on");
      GearRecord after = gears.state();
      assertThat(after.phase()).isEqualTo(ShiftPhase.STEADY);
      assertThat(after.gear()).isZero();
      assertThat(after.sleeping()).contains(stuck).doesNotContain(other);
      GenericTestUtils.waitFor(() -> GearTestCluster.descriptor(cluster, other).isInService(), 100, 60_000);
      assertThat(GearTestCluster.descriptor(cluster, other).isAlive()).isTrue();
      assertThat(GearTestCluster.descriptor(cluster, stuck).isInMaintenance()).isTrue();
      assertThat(GearTestCluster.descriptor(cluster, stuck).isAlive()).isFalse();
      cluster.verifyChecksums();

      broken.fixed = true; // the BMC replaced: lift the quarantine and shift again
      assertThat(AdminRun.run(cluster.conf(), "power", "clear", stuck).code).isZero();
      gears.service().requestGear(1);
      GearTestCluster.awaitGear(cluster, 1);
      assertThat(GearTestCluster.running(cluster)).containsExactlyInAnyOrderElementsOf(layout.serversOn(1).ids());
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
    }
  }

  /** A BMC that refuses every power-on until {@link #fixed}; its other commands reach the host. */
  private static final class BrokenPowerOn extends ForwardingPowerDriver {
    volatile boolean fixed;

    BrokenPowerOn(PowerDriver host) {
      super(host);
    }

    @Override
    public void powerOn() throws PowerException {
      if (!fixed) {
        throw new PowerException("BMC refused " + PowerCommand.ON.label() + ": chassis power control failed");
      }
      super.powerOn();
    }
  }
}
