package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.GearDecision;
import org.eafr.placement.gear.GearReason;
import org.eafr.placement.gear.GearedLayout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Auto mode on the gear test cluster (12 DataNodes, 3 racks, equal-work, gears of 4, 6, 8, 10, 12 DataNodes), in
 * order: {@code hdfs eafr gear auto}; the idle cluster goes down, no sooner than the dwell time, to the lowest gear the
 * availability check allows (a replication-1 file sits on a gear-1 DataNode, so gear 1); a burst of opens drives it up
 * to gear 4 (in one shift, or in steps while the opens ramp up: how fast the test opens depends on the machine); it comes down again no sooner than one dwell time after the gear-up; every decision is in the metrics; a
 * manual gear command switches back to manual; the mode survives a NameNode restart.
 *
 * <p>Load scale: one DataNode serves 10 opens per second ({@code eafr.gear.server.opens-per-second}), so a burst of a
 * few hundred opens per second needs every DataNode, while the idle cluster needs well under one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GearAutoTest {
  private static final long DWELL_MILLIS = 8_000;
  private static final String SCRATCH = "/scratch/one-copy";

  private EafrCluster cluster;
  private long autoSince;
  private GearAutopilot.AutoDecision down;
  private GearAutopilot.AutoDecision up;
  /** Shifts up the burst took (one straight to gear 4, or more when the opens ramp up over several samples). */
  private long upShifts;
  /** Shifts the idle cluster took down: one, or more when a gear-down was cancelled and asked again. */
  private long downShifts;

  @BeforeAll
  void startCluster() throws Exception {
    Configuration conf = GearTestCluster.autoConf("gear-auto", DWELL_MILLIS);
    conf.set("eafr.gear.server.opens-per-second", "10");
    cluster = GearTestCluster.start(conf);
    for (int i = 0; i < 4; i++) {
      cluster.write("/data/f" + i, 3, EafrCluster.BLOCK_SIZE + 4096 * i, i);
    }
    cluster.write(SCRATCH, 1, 4096, 99);
    GearedLayout layout = GearTestCluster.layout(cluster);
    GearTestCluster.moveOnlyReplica(cluster, SCRATCH,
        layout.chain().id(layout.serversOn(1).minus(layout.serversOn(0)).positions()[0]));
  }

  @AfterAll
  void stopCluster() throws Exception {
    GearRuntime gears = GearTestCluster.gears(cluster);
    if (gears.power() != null) {
      gears.power().close();
    }
    cluster.close();
  }

  @Test
  @Order(1)
  void idleClusterGoesDownToTheLowestGearTheAvailabilityCheckAllows_noSoonerThanTheDwellTime() throws Exception {
    assertThat(autopilot().mode()).isEqualTo(GearMode.MANUAL);
    autoSince = System.currentTimeMillis();
    AdminRun auto = AdminRun.run(cluster.conf(), "gear", "auto");
    assertThat(auto.code).as(auto.err).isZero();
    assertThat(auto.out).contains("gear mode auto (was manual)");
    assertThat(autopilot().mode()).isEqualTo(GearMode.AUTO);

    GenericTestUtils.waitFor(() -> autopilot().lastShift().isPresent(), 100, 60_000);
    GearTestCluster.awaitGear(cluster, 1);
    down = autopilot().lastShift().orElseThrow();
    GearDecision decision = down.decision();
    assertThat(decision.previousGear()).isEqualTo(4);
    assertThat(decision.targetGear()).isEqualTo(1);
    assertThat(decision.reason()).isEqualTo(GearReason.RAISED_BY_AVAILABILITY);
    assertThat(decision.floorBlock().orElseThrow().message()).contains("file " + SCRATCH);
    assertThat(down.millis() - autoSince).as("no gear-down within the dwell time of switching to auto")
        .isGreaterThanOrEqualTo(DWELL_MILLIS);
    assertThat(decisions(GearReason.HELD_BY_DWELL)).isPositive();
    assertThat(GearTestCluster.running(cluster))
        .containsExactlyInAnyOrderElementsOf(GearTestCluster.layout(cluster).serversOn(1).ids());
    downShifts = GearTestCluster.gears(cluster).counters().autoShifts.get();
    assertThat(downShifts).isPositive();
    cluster.verifyChecksums();
  }

  @Test
  @Order(2)
  void burstOfOpensDrivesTheGearUpAtOnce() throws Exception {
    GenericTestUtils.waitFor(() -> {
      try {
        for (int i = 0; i < 50; i++) {
          cluster.fs().open(new Path("/data/f" + (i % 4))).close();
        }
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return GearTestCluster.gears(cluster).state().target() == 4;
    }, 1, 60_000);
    GearTestCluster.awaitGear(cluster, 4);
    up = autopilot().lastShift().orElseThrow();
    upShifts = GearTestCluster.gears(cluster).counters().autoShifts.get() - downShifts;
    assertThat(upShifts).isBetween(1L, 3L);
    assertThat(decisions(GearReason.UP_FOR_LOAD)).isEqualTo(upShifts);
    assertThat(up.decision().previousGear()).isBetween(1, 3);
    assertThat(up.decision().targetGear()).isEqualTo(4);
    assertThat(up.decision().reason()).isEqualTo(GearReason.UP_FOR_LOAD);
    assertThat(up.load().readsPerSecond()).as("opens per second").isGreaterThan(80.0); // gear 3 carries 10 x 0.8 x 10
    assertThat(GearTestCluster.running(cluster)).hasSize(12);
    cluster.verifyChecksums();
  }

  @Test
  @Order(3)
  void afterTheBurstTheGearComesDownAgain_noSoonerThanOneDwellTimeAfterTheGearUp() throws Exception {
    GenericTestUtils.waitFor(() -> autopilot().lastShift().orElseThrow() != up, 100, 60_000);
    GearTestCluster.awaitGear(cluster, 1);
    GearAutopilot.AutoDecision again = autopilot().lastShift().orElseThrow();
    assertThat(again.decision().targetGear()).isEqualTo(1);
    assertThat(again.millis() - up.millis()).as("no flapping: the gear-down waits the dwell time after the gear-up")
        .isGreaterThanOrEqualTo(DWELL_MILLIS);
    assertThat(GearTestCluster.gears(cluster).counters().autoShifts.get()).isEqualTo(downShifts + upShifts + 1);
  }

  @Test
  @Order(4)
  void everyDecisionIsInTheMetrics_planShowsTheLastOne_andAManualGearSwitchesBackToManual() throws Exception {
    AdminRun plan = AdminRun.run(cluster.conf(), "plan", "-json");
    assertThat(plan.code).as(plan.err).isZero();
    JsonNode gears = new ObjectMapper().readTree(plan.out).get("gears");
    assertThat(gears.get("mode").asText()).isEqualTo("auto");
    assertThat(gears.get("lastDecision").get("reason").asText()).isIn("HOLD", "HELD_BY_DWELL",
        "RAISED_BY_AVAILABILITY");

    AdminRun manual = AdminRun.run(cluster.conf(), "gear", "1");
    assertThat(manual.code).as(manual.err).isZero();
    assertThat(manual.out).contains("already in gear 1; gear mode manual (was auto)");
    assertThat(autopilot().mode()).isEqualTo(GearMode.MANUAL);
    long decided = total();
    autopilot().tick(); // in manual mode the autopilot samples but decides nothing
    assertThat(total()).isEqualTo(decided);

    AdminRun status = AdminRun.run(cluster.conf(), "status", "-json");
    assertThat(status.code).as(status.err).isZero();
    JsonNode statusGears = new ObjectMapper().readTree(status.out).get("gears");
    assertThat(statusGears.get("gearMode").asText()).isEqualTo("manual").isEqualTo(AdminRun.jmx("EafrGears", "GearMode"));
    long sum = 0;
    for (GearReason reason : GearReason.values()) {
      if (reason == GearReason.MANUAL) {
        continue;
      }
      String metric = GearStatus.decisionsMetric(reason);
      long count = decisions(reason);
      assertThat(((Number) AdminRun.jmx(metric + "Total")).longValue()).as(metric).isEqualTo(count);
      assertThat(statusGears.get(Character.toLowerCase(metric.charAt(0)) + metric.substring(1)).asLong())
          .as(metric).isEqualTo(count);
      sum += count;
    }
    assertThat(((Number) AdminRun.jmx("GearAutoDecisionsTotal")).longValue()).isEqualTo(sum).isEqualTo(decided);
    assertThat(((Number) AdminRun.jmx("GearAutoShiftsTotal")).longValue()).isEqualTo(downShifts + upShifts + 1);
    assertThat(decisions(GearReason.UP_FOR_LOAD)).isEqualTo(upShifts);
    assertThat(decisions(GearReason.MANUAL)).isZero();
  }

  @Test
  @Order(5)
  void theModeSurvivesANameNodeRestart() throws Exception {
    AdminRun auto = AdminRun.run(cluster.conf(), "gear", "auto");
    assertThat(auto.code).as(auto.err).isZero();
    GearTestCluster.restartNameNode(cluster);
    GenericTestUtils.waitFor(() -> autopilot() != null, 100, 60_000);
    assertThat(autopilot().mode()).isEqualTo(GearMode.AUTO);
    assertThat(new GearStore(cluster.mini().getNameNode(), GearSettings.DEFAULT_STATE_DIR).readMode(GearMode.MANUAL))
        .contains(GearMode.AUTO);
    GearTestCluster.awaitGear(cluster, 1);
    cluster.verifyChecksums();
  }

  private GearAutopilot autopilot() {
    return GearTestCluster.gears(cluster).autopilot();
  }

  private long decisions(GearReason reason) {
    return GearTestCluster.gears(cluster).counters().autoDecisions.get(reason).get();
  }

  private long total() {
    long total = 0;
    for (Map.Entry<GearReason, java.util.concurrent.atomic.AtomicLong> entry
        : GearTestCluster.gears(cluster).counters().autoDecisions.entrySet()) {
      total += entry.getValue().get();
    }
    return total;
  }
}
