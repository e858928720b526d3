package org.eafr.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eafr.sim.policy.LayoutPolicy;
import org.eafr.sim.policy.NestedTestLayouts;
import org.eafr.sim.stats.RunResult;
import org.eafr.sim.workload.TraceEvent;
import org.junit.jupiter.api.Test;

/** The simulator's time-varying active set, driven by a geared policy over a small test layout. */
class GearedSimulatorTest {
  private static final long MB = 1_000_000;
  private static final long SECOND = 1_000_000;

  private static SimSettings settings(String hours) {
    return SimSettings.of(Map.of("sim.servers", "8", "sim.racks", "2", "sim.files", "8", "sim.read-files", "8",
        "sim.duration.hours", hours, "sim.concurrency", "1", "eafr.gear.replicas", "2", "sim.wake.seconds", "10"));
  }

  private static RunResult run(SimSettings settings, List<TraceEvent> events) {
    long[] sizes = new long[8];
    java.util.Arrays.fill(sizes, 100 * MB);
    return new Simulator(settings, "nested", env -> new LayoutPolicy("nested", env, NestedTestLayouts::twoPerGear,
        layout -> NestedTestLayouts.firstOn()), new InlineWorkload(sizes, events), f -> { }).run("test", "geared");
  }

  @Test
  void anIdleGearedClusterKeepsOnlyGearZeroOnAndDrawsSleepPowerForTheRest() {
    RunResult result = run(settings("1"), List.of());
    // Gear 0 = the first 2 of 8 servers for the whole hour.
    assertThat(result.get("machine_hours")).isCloseTo(2.0, within(1e-9));
    // 2 idle awake servers at 93.7 W and 6 asleep at 10 W, for a day's rate.
    assertThat(result.get("energy_kwh_day")).isCloseTo((2 * 93.7 + 6 * 10) * 24 / 1000, within(1e-9));
    assertThat(result.get("gear_shifts")).isZero();
    // The ideal keeps on the fewest servers that hold one copy of 800 MB: one.
    assertThat(result.get("ideal_machine_hours")).isCloseTo(1.0, within(1e-9));
    assertThat(result.get("machine_hours_vs_ideal")).isCloseTo(2.0, within(1e-9));
    // Reading each of the 8 files once through the first-on balancer always picks its primary (2 servers, 4 reads
    // each): with n servers on the degree is (8 / n) / 4, least at n = 8: 0.25.
    assertThat(result.get("power_proportionality")).isCloseTo(0.25, within(1e-12));
    assertThat(result.get("recovery_group_servers")).isZero();
  }

  @Test
  void aBurstShiftsUpWakesServersAfterTheWakeTimeThenShiftsDownAndTheySleepAgain() {
    // 1.2 million reads within the first minute: far more than 2 servers carry (about 3,000 reads/s each).
    List<TraceEvent> events = new ArrayList<>();
    for (int s = 1; s <= 40; s++) {
      events.add(InlineWorkload.read(s * SECOND, s % 8, 30_000));
    }
    RunResult result = run(settings("1"), events);
    assertThat(result.get("gear_ups")).isEqualTo(1.0);
    assertThat(result.get("gear_shifts")).isEqualTo(2.0); // up at 1 minute, down after the 5-minute dwell
    // Gear 0 all hour, plus the 6 other servers from the wake (1 min 10 s) to the gear-down (6 min): power and
    // machine-hours are sampled once a minute, so they count in the samples of minutes 2 to 5.
    assertThat(result.get("machine_hours")).isCloseTo(2.0 + 6 * 4 / 60.0, within(1e-9));
    assertThat(result.get("gear_up_reads_per_joule")).isNotNaN();
    assertThat(result.get("failed_reads")).isZero();
  }

  @Test
  void blocksRewrittenInALowGearAreReflectedHomeWhenTheirServersWake() {
    List<TraceEvent> events = new ArrayList<>();
    for (int f = 0; f < 8; f++) {
      events.add(new TraceEvent(SECOND + f, TraceEvent.Kind.REWRITE, f, 1));
    }
    for (int s = 2; s <= 40; s++) {
      events.add(InlineWorkload.read(s * SECOND, s % 8, 30_000));
    }
    RunResult result = run(settings("0.5"), events);
    // In gear 0 each rewritten block's second replica is offloaded onto the other gear-0 server (its home sleeps);
    // the gear-up wakes every home, and each offloaded replica moves home once.
    assertThat(result.get("reflection_gb")).isCloseTo(8 * 100 * MB / 1e9, within(1e-9));
    assertThat(result.get("storage_tb")).isCloseTo(8 * 2 * 100 * MB / 1e12, within(1e-12));
  }
}
