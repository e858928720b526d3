package org.eafr.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eafr.placement.grid.Objective;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.sim.policy.LayoutPolicy;
import org.eafr.sim.policy.NestedTestLayouts;
import org.eafr.sim.stats.RunResult;
import org.eafr.sim.workload.TraceEvent;
import org.junit.jupiter.api.Test;

/**
 * A geared run against a grid signal: the reflection after a gear-up is held for a cleaner hour and released at the
 * gear-down at the latest, and a carbon-aware run differs from an energy-only one only by its scheduling.
 */
class GridSimulatorTest {
  private static final long MB = 1_000_000;
  private static final long SECOND = 1_000_000;

  private static SimSettings settings(String signal) {
    Map<String, String> raw = new LinkedHashMap<>(Map.of("sim.servers", "8", "sim.racks", "2", "sim.files", "8",
        "sim.read-files", "8", "sim.duration.hours", "0.5", "sim.concurrency", "1", "eafr.gear.replicas", "2",
        "sim.wake.seconds", "10"));
    raw.put("sim.grid.signal", "classpath:grid-test/" + signal + ".csv");
    return SimSettings.of(raw);
  }

  /** Every block rewritten in gear 0 (its second replica offloaded), then a burst of reads that shifts up. */
  private static List<TraceEvent> rewritesThenBurst() {
    List<TraceEvent> events = new ArrayList<>();
    for (int f = 0; f < 8; f++) {
      events.add(new TraceEvent(SECOND + f, TraceEvent.Kind.REWRITE, f, 1));
    }
    for (int s = 2; s <= 40; s++) {
      events.add(InlineWorkload.read(s * SECOND, s % 8, 30_000));
    }
    return events;
  }

  private static RunResult run(SimSettings settings, Objective objective) {
    long[] sizes = new long[8];
    java.util.Arrays.fill(sizes, 100 * MB);
    return new Simulator(settings, "nested", env -> new LayoutPolicy("nested", env, NestedTestLayouts::twoPerGear,
        layout -> NestedTestLayouts.firstOn()).scheduledFor(objective), new InlineWorkload(sizes, rewritesThenBurst()),
        f -> { }).run("test", "grid");
  }

  /**
   * The gear-up at the 60 s control period wakes the homes; they are up and out of maintenance at 70 s, so the
   * reflection is owed from 70 s, at 300 gCO2/kWh with 100 from 00:30: it waits. The controller decides a gear-down at
   * 360 s (5 minutes' dwell after the shift), the reflection's deadline: it is released then, having waited 290 s, and
   * the gear-down waits until its moves have landed (as the NameNode refuses a gear-down while reflection is held), so
   * every replica goes home, as in the energy-only run, which moves them at once.
   */
  @Test
  void reflectionHeldForACleanerHourUntilTheGearDown_runsBeforeTheGearDown() {
    RunResult energy = run(settings("dirty-then-clean"), Objective.ENERGY);
    RunResult carbon = run(settings("dirty-then-clean"), Objective.CARBON);

    assertThat(energy.get("deferred_wait_max_h")).isZero();
    assertThat(energy.get("reflection_gb")).isCloseTo(0.8, within(1e-9));
    assertThat(carbon.get("deferred_wait_max_h")).isCloseTo(290 / 3600.0, within(1e-12));
    assertThat(carbon.get("deferred_releases")).isEqualTo(1.0);
    assertThat(carbon.get("deferred_holds")).isEqualTo(1.0);
    assertThat(carbon.get("deferred_holds_unreleased")).isZero();
    assertThat(carbon.get("deferred_hold_mean_h")).isCloseTo(290 / 3600.0, within(1e-12));
    assertThat(energy.get("deferred_holds")).isZero();
    assertThat(energy.get("deferred_hold_mean_h")).isNaN();
    assertThat(carbon.get("reflection_gb")).isCloseTo(0.8, within(1e-9));
    assertThat(carbon.get("failed_reads")).isZero();
  }

  /** 0.5 h at 200 gCO2/kWh: kg per day = kWh per day x 0.2; on a flat signal nothing waits, so the runs agree. */
  @Test
  void onAFlatSignalCarbonAwareEqualsEnergyOnlyAndCarbonIsEnergyTimesIntensity() {
    RunResult energy = run(settings("flat"), Objective.ENERGY);
    RunResult carbon = run(settings("flat"), Objective.CARBON);

    assertThat(energy.get("kg_co2_day")).isCloseTo(energy.get("grid_kwh_day") * 0.2, within(1e-9));
    assertThat(carbon.get("deferred_wait_max_h")).isZero();
    for (String metric : List.of("read_mean_ms", "read_p99_ms", "grid_kwh_day", "kg_co2_day", "move_gb_day",
        "machine_hours")) {
      assertThat(carbon.get(metric)).as(metric).isEqualTo(energy.get(metric));
    }
    assertThat(energy.get("eur_day")).isNaN();
  }

  @Test
  void badGridSettingsNameTheKey() {
    assertThatThrownBy(() -> SimSettings.of(Map.of("sim.grid.start", "yesterday")))
        .isInstanceOf(InvalidSettingException.class).hasMessageContaining("sim.grid.start");
    assertThatThrownBy(() -> SimSettings.of(Map.of("eafr.grid.objectiv", "carbon")))
        .isInstanceOf(InvalidSettingException.class).hasMessageContaining("eafr.grid.objective");
    assertThatThrownBy(() -> org.eafr.sim.model.GridSignals.of(SimSettings.of(Map.of("sim.grid.signal",
        "classpath:grid/none.csv")))).isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("sim.grid.signal");
    assertThat(SimSettings.of(Map.of("eafr.grid.objective", "price")).with(Map.of()).grid().objective())
        .isEqualTo(Objective.PRICE);
  }
}
