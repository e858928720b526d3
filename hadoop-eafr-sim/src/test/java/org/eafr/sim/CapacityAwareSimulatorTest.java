package org.eafr.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.layout.CapacityPrimaries;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.sim.policy.GearedPolicy;
import org.eafr.sim.stats.RunResult;
import org.junit.jupiter.api.Test;

/**
 * eafr.gear.capacity-aware in the simulator: the chain puts the largest servers first and p is sized to hold one copy
 * of the catalog plus eafr.gear.capacity-headroom, so gear 0 holds a replica of every file.
 */
class CapacityAwareSimulatorTest {
  private static final long FILE = 20_000_000_000L;
  private static final int FILES = 60;

  private static Simulator run(String capacityAware) {
    SimSettings settings = SimSettings.of(Map.ofEntries(Map.entry("sim.servers", "20"), Map.entry("sim.racks", "2"),
        Map.entry("sim.files", String.valueOf(FILES)), Map.entry("sim.read-files", "10"),
        Map.entry("sim.duration.hours", "0.05"), Map.entry("sim.concurrency", "1"),
        Map.entry("eafr.gear.replicas", "2"), Map.entry("eafr.gear.capacity-aware", capacityAware)));
    long[] sizes = new long[FILES];
    Arrays.fill(sizes, FILE);
    Simulator simulator = new Simulator(settings, "rabbit", new InlineWorkload(sizes, List.of()), f -> { });
    RunResult result = simulator.run("test", "rabbit");
    assertThat(result.get("replicas_per_file")).isEqualTo(2.0);
    return simulator;
  }

  private static EqualWorkLayout layout(Simulator simulator) {
    return (EqualWorkLayout) ((GearedPolicy) simulator.policy()).layout();
  }

  @Test
  void capacityAware_largestServersFirst_pHoldsOneCopy_andGear0HoldsEveryFile() {
    Simulator simulator = run("1");
    EqualWorkLayout layout = layout(simulator);
    ExpansionChain chain = layout.chain();

    for (int p = 1; p < chain.size(); p++) {
      assertThat(chain.capacity(p)).isLessThanOrEqualTo(chain.capacity(p - 1));
    }
    assertThat(layout.byCapacity()).isTrue();
    assertThat(layout.primaries()).isEqualTo(CapacityPrimaries.primaries(FILES * FILE, 0.05, chain,
        10L << 30, 1));
    ActiveSet gear0 = layout.serversOn(0);
    long inGear0 = simulator.files().stream().filter(file -> Arrays.stream(file.replicas())
        .anyMatch(s -> gear0.contains(simulator.cluster().server(s).snapshot().id()))).count();
    assertThat(inGear0).isEqualTo(FILES);
  }

  @Test
  void withoutTheSetting_theChainAndPAreAsBefore() {
    EqualWorkLayout layout = layout(run("0"));

    assertThat(layout.byCapacity()).isFalse();
    assertThat(layout.primaries()).isEqualTo(EqualWorkLayout.defaultPrimaries(20, 2, 1));
  }
}
