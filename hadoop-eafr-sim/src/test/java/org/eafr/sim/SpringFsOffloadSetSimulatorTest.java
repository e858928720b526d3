package org.eafr.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.springfs.SpringFsLayout;
import org.eafr.sim.policy.GearedPolicy;
import org.eafr.sim.stats.RunResult;
import org.junit.jupiter.api.Test;

/**
 * springfs with a fixed offload set m ({@code sim.springfs.offload-set}) larger than p: the initial files are in
 * the target layout (every primary replica at home on a primary), so gear 0 holds a replica of each and an idle hour
 * costs what it costs at m = p.
 */
class SpringFsOffloadSetSimulatorTest {
  private static final int FILES = 40;

  private static Simulator run(int offloadSet) {
    SimSettings settings = SimSettings.of(Map.ofEntries(Map.entry("sim.servers", "20"), Map.entry("sim.racks", "2"),
        Map.entry("sim.files", String.valueOf(FILES)), Map.entry("sim.read-files", "10"),
        Map.entry("sim.duration.hours", "1"), Map.entry("sim.concurrency", "1"), Map.entry("eafr.gear.replicas", "2"),
        Map.entry("eafr.gear.primaries", "4"), Map.entry("sim.springfs.offload-set", String.valueOf(offloadSet))));
    long[] sizes = new long[FILES];
    Arrays.fill(sizes, 100_000_000L);
    return new Simulator(settings, "springfs", new InlineWorkload(sizes, List.of()), f -> { });
  }

  @Test
  void anIdleHourWithTheOffloadSetTwiceP_keepsGearZeroOnlyAndOwesNoCleanup() {
    Simulator simulator = run(8);
    RunResult result = simulator.run("test", "springfs");
    SpringFsLayout layout = (SpringFsLayout) ((GearedPolicy) simulator.policy()).layout();

    assertThat(layout.offloadSet()).isEqualTo(8);
    ActiveSet gear0 = layout.serversOn(0);
    assertThat(gear0.size()).isEqualTo(4);
    long inGear0 = simulator.files().stream().filter(file -> Arrays.stream(file.replicas())
        .anyMatch(s -> gear0.contains(simulator.cluster().server(s).snapshot().id()))).count();
    assertThat(inGear0).isEqualTo(FILES);
    // The 4 primaries for the whole hour; nothing to clean up, no wake out of turn, no shift.
    assertThat(result.get("machine_hours")).isCloseTo(4.0, within(1e-9));
    assertThat(result.get("cleanup_gb")).isZero();
    assertThat(result.get("migrated_gb")).isZero();
    assertThat(result.get("gear_shifts")).isZero();
  }

  @Test
  void theOffloadSetTwiceP_costsAnIdleHourWhatPCosts() {
    RunResult twice = run(8).run("test", "springfs");
    RunResult atP = run(4).run("test", "springfs");

    assertThat(twice.get("machine_hours")).isEqualTo(atP.get("machine_hours"));
    assertThat(twice.get("energy_kwh_day")).isEqualTo(atP.get("energy_kwh_day"));
  }
}
