package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.grid.GridGate;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.namenode.testing.GridFixture;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Reflection after a gear-up against a fixture grid signal (30-minute slots forecast at 200, 180, 120, 150, 90, 300
 * gCO2/kWh from 00:00, the scheduler's worked example; longest wait of reflection 3 h), with the grid gate's clock
 * driven by the test: reflection due at 00:00 is held through 01:00 and runs at 02:00, the cleanest slot, before its
 * deadline at 03:00; every low-gear write is then at its homes and reads back with its checksum.
 */
class GridReflectionTest {
  private static final long T0 = GridFixture.T0;
  private static final long MINUTE = GridFixture.MINUTE;

  private EafrCluster cluster;

  @AfterEach
  void stopCluster() {
    if (cluster != null) {
      GearTestCluster.stop(cluster);
    }
  }

  @Test
  void reflectionWaitsForTheCleanSlotAndEndsBeforeItsDeadline() throws Exception {
    Configuration conf = GearTestCluster.conf("grid-reflection");
    conf.set("eafr.grid.objective", "carbon");
    conf.set("eafr.grid.defer.reflection.ms", String.valueOf(180 * MINUTE));
    conf.set("eafr.grid.signal.file", GridFixture.nesoCsv().toString());
    cluster = GearTestCluster.start(conf);
    AtomicLong now = new AtomicLong(T0);
    GridGate grid = GearTestCluster.gears(cluster).grid();
    grid.clock(now::get);
    for (int i = 0; i < 3; i++) {
      cluster.write("/data/f" + i, 3, EafrCluster.BLOCK_SIZE + 4096 * i, i);
    }
    GearService service = GearTestCluster.gears(cluster).service();
    service.requestGear(0);
    GearTestCluster.awaitGear(cluster, 0);
    List<String> lowGearFiles = List.of("/low/f0", "/low/f1", "/low/f2");
    GearTestCluster.assertAsleepThenWrite(cluster, lowGearFiles);
    GearCounters counters = GearTestCluster.gears(cluster).counters();
    GenericTestUtils.waitFor(() -> counters.owedFiles.get() == lowGearFiles.size(), 100, 60_000);

    int top = GearTestCluster.layout(cluster).maximumGear();
    service.requestGear(top);
    GenericTestUtils.waitFor(() -> Long.valueOf(1).equals(grid.values().get("ReflectionHeld")), 100, 120_000);
    now.set(T0 + 60 * MINUTE);
    service.step();
    service.step();
    assertThat(GearTestCluster.gears(cluster).state().phase()).isEqualTo(ShiftPhase.REFLECTING);
    assertThat(counters.blocksReflected.get()).isZero();
    assertThat(grid.values()).containsEntry("ReflectionHeld", 1L)
        .containsEntry("ReflectionHeldUntil", "2026-01-01T02:00:00Z")
        .containsEntry("ReflectionDeadline", "2026-01-01T03:00:00Z");
    AdminRun text = AdminRun.run(cluster.conf(), "status");
    assertThat(text.out).contains("grid (objective carbon): now 120.0 gCO2/kWh, n/a EUR/MWh")
        .contains("reflection held until 2026-01-01T02:00:00Z, deadline 2026-01-01T03:00:00Z");
    JsonNode json = new ObjectMapper().readTree(AdminRun.run(cluster.conf(), "status", "-json").out).get("gears");
    assertThat(json.get("gridCarbonIntensity").asDouble()).isEqualTo(120.0);
    assertThat(json.get("gridPrice").isNull()).isTrue();
    assertThat(json.get("reflectionHeld").asLong()).isEqualTo(1);
    assertThat(AdminRun.jmx("EafrGears", "ReflectionDeadline")).isEqualTo("2026-01-01T03:00:00Z");
    // The EafrNameNode bean serves a record cached for a few seconds.
    GenericTestUtils.waitFor(() -> ((Number) AdminRun.jmx("GridReflectionHeld")).longValue() == 1
        && ((Number) AdminRun.jmx("GridCarbonIntensityGramsPerKwh")).doubleValue() == 120.0, 100, 60_000);

    now.set(T0 + 120 * MINUTE);
    GearTestCluster.awaitGear(cluster, top);

    assertThat(now.get()).isLessThan(T0 + 180 * MINUTE);
    assertThat(grid.values()).containsEntry("ReflectionHeld", 0L).containsEntry("GridFallback", null);
    assertThat(counters.owedFiles.get()).isZero();
    int lowGearBlocks = 0;
    for (String file : lowGearFiles) {
      lowGearBlocks += cluster.blockHolders(file).size();
      GearTestCluster.assertEqualWorkLayout(cluster, file);
    }
    assertThat(counters.blocksReflected.get()).isEqualTo(lowGearBlocks);
    cluster.verifyChecksums();
  }

  /**
   * In auto mode a gear-down decided while reflection is held for the grid releases it at once (its deadline would
   * otherwise keep the gear up for hours): reflection runs at 00:00 of the fixture, not at 02:00, and the gear then
   * goes down. With lower = raise = 0.1 around u = 0.8 the autopilot's target at 00:00 is 0.7 + 0.2 x (200 - 90) /
   * (300 - 90) = 0.8048 (no load: every target decides the lowest gear the floor allows).
   */
  @Test
  void inAutoMode_aGearDownDecidedDuringTheHold_releasesReflection_thenShiftsDown() throws Exception {
    Configuration conf = GearTestCluster.autoConf("grid-auto", 1_000);
    conf.set("eafr.grid.objective", "carbon");
    conf.set("eafr.grid.defer.reflection.ms", String.valueOf(180 * MINUTE));
    conf.set("eafr.grid.signal.file", GridFixture.nesoCsv().toString());
    conf.set("eafr.grid.utilization.lower", "0.1");
    conf.set("eafr.grid.utilization.raise", "0.1");
    cluster = GearTestCluster.start(conf);
    AtomicLong now = new AtomicLong(T0);
    GridGate grid = GearTestCluster.gears(cluster).grid();
    grid.clock(now::get);
    cluster.write("/data/f0", 3, EafrCluster.BLOCK_SIZE + 4096, 0);
    GearService service = GearTestCluster.gears(cluster).service();
    service.requestGear(0);
    GearTestCluster.awaitGear(cluster, 0);
    List<String> lowGearFiles = List.of("/low/f0");
    GearTestCluster.assertAsleepThenWrite(cluster, lowGearFiles);
    GearCounters counters = GearTestCluster.gears(cluster).counters();
    GenericTestUtils.waitFor(() -> counters.owedFiles.get() == lowGearFiles.size(), 100, 60_000);
    int top = GearTestCluster.layout(cluster).maximumGear();
    service.requestGear(top);
    GenericTestUtils.waitFor(() -> Long.valueOf(1).equals(grid.values().get("ReflectionHeld")), 100, 120_000);

    AdminRun auto = AdminRun.run(cluster.conf(), "gear", "auto");
    assertThat(auto.code).as(auto.err).isZero();

    // no load: the autopilot decides down during the hold, which releases reflection with the clock still at 00:00
    GenericTestUtils.waitFor(() -> counters.owedFiles.get() == 0, 100, 120_000);
    assertThat(now.get()).isEqualTo(T0);
    assertThat(grid.values()).containsEntry("ReflectionHeld", 0L);
    assertThat((Double) grid.values().get("GridTargetUtilization")).isCloseTo(0.7 + 0.2 * 110 / 210,
        org.assertj.core.api.Assertions.within(1e-9));
    assertThat(AdminRun.run(cluster.conf(), "status").out).contains("; target utilization 0.805");
    GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).state().gear() < top, 100, 120_000);
    GearTestCluster.assertEqualWorkLayout(cluster, "/low/f0");
    cluster.verifyChecksums();
  }
}
