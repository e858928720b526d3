package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.power.ForwardingPowerDriver;
import org.eafr.namenode.power.LogCapture;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.power.PowerDriver;
import org.eafr.namenode.power.PowerException;
import org.eafr.namenode.power.PowerState;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.GearReason;
import org.eafr.placement.gear.GearedLayout;
import org.junit.jupiter.api.Test;

/**
 * A gear-down by hand (gear 4 -> 2), then one by the autopilot (2 -> 0) on the gear test cluster: the second shift is
 * logged as AUTO with its reason, not MANUAL, and the hosts already off since the first get no power call at all
 * (neither command nor state read); each host leaving in the second gets exactly one power-off.
 */
class GearDownAgainTest {
  private static final long DWELL_MILLIS = 3_000;

  @Test
  void secondGearDown_byTheAutopilot_isLoggedAsAuto_andLeavesHostsAlreadyOffAlone() throws Exception {
    EafrCluster cluster = GearTestCluster.start(GearTestCluster.autoConf("gear-down-again", DWELL_MILLIS));
    try {
      GearRuntime gears = cluster.runtime().gears();
      Map<String, List<String>> calls = new ConcurrentHashMap<>();
      gears.power().close();
      Map<String, PowerDriver> counted = new java.util.LinkedHashMap<>();
      MiniClusterPower.drivers(cluster.mini(), null).forEach((host, driver) -> counted.put(host,
          new CountingDriver(driver, calls.computeIfAbsent(host, h -> new CopyOnWriteArrayList<>()))));
      gears.power(MiniClusterPower.manager(cluster.mini(), counted));
      for (int i = 0; i < 3; i++) {
        cluster.write("/data/f" + i, 3, EafrCluster.BLOCK_SIZE + 4096 * i, i);
      }
      GearedLayout layout = GearTestCluster.layout(cluster);

      gears.service().requestGear(2);
      GearTestCluster.awaitGear(cluster, 2);
      List<String> offSinceGear2 = org.eafr.placement.gear.ActiveSet.all(layout.chain()).minus(layout.serversOn(2))
          .ids();
      List<String> leavingForGear0 = layout.serversOn(2).minus(layout.serversOn(0)).ids();
      calls.values().forEach(List::clear);

      try (LogCapture log = new LogCapture()) {
        AdminRun auto = AdminRun.run(cluster.conf(), "gear", "auto");
        assertThat(auto.code).as(auto.err).isZero();
        GenericTestUtils.waitFor(() -> gears.autopilot().lastShift().isPresent(), 100, 60_000);
        GearTestCluster.awaitGear(cluster, 0);
        assertThat(gears.autopilot().lastShift().orElseThrow().decision().reason())
            .isEqualTo(GearReason.DOWN_FOR_LOAD);
        assertThat(log.text()).contains("EAFR gears: shift started, gear 2 -> 0 (AUTO, DOWN_FOR_LOAD): ")
            .doesNotContain("(MANUAL)");
      }
      assertThat(gears.counters().shifts.get()).isEqualTo(2);
      assertThat(gears.counters().autoShifts.get()).isEqualTo(1);
      for (String host : offSinceGear2) {
        assertThat(calls.get(host)).as("power calls to %s, off since gear 2", host).isEmpty();
      }
      for (String host : leavingForGear0) {
        assertThat(calls.get(host)).as("power calls to %s, leaving for gear 0", host).containsOnlyOnce("off")
            .containsOnly("state", "off");
      }
      assertThat(GearTestCluster.running(cluster)).containsExactlyInAnyOrderElementsOf(layout.serversOn(0).ids());
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
    }
  }

  /** Records each call to the driver it wraps: "on", "off" (graceful or forced) and "state". */
  private static final class CountingDriver extends ForwardingPowerDriver {
    private final List<String> calls;

    CountingDriver(PowerDriver driver, List<String> calls) {
      super(driver);
      this.calls = calls;
    }

    @Override
    public void powerOn() throws PowerException {
      calls.add("on");
      super.powerOn();
    }

    @Override
    public void gracefulOff() throws PowerException {
      calls.add("off");
      super.gracefulOff();
    }

    @Override
    public void forcedOff() throws PowerException {
      calls.add("off");
      super.forcedOff();
    }

    @Override
    public PowerState state() throws PowerException {
      calls.add("state");
      return super.state();
    }
  }
}
