package org.eafr.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.LinkedHashMap;
import java.util.Map;
import org.eafr.sim.policy.Registry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ScenariosTest {
  static java.util.List<String> scenarios() {
    return Scenarios.names();
  }

  @ParameterizedTest
  @MethodSource("scenarios")
  void everyScenarioHasValidSettingsKnownPoliciesAndKnownChartMetrics(String name) {
    Scenario scenario = Scenarios.get(name);
    assertThat(scenario.variants()).isNotEmpty();
    scenario.policies().forEach(policy -> assertThatCode(() -> Registry.get(policy)).doesNotThrowAnyException());
    for (Scenario.Variant variant : scenario.variants()) {
      Map<String, String> raw = new LinkedHashMap<>(scenario.base());
      raw.putAll(variant.settings());
      assertThatCode(() -> SimSettings.of(raw)).as(variant.label()).doesNotThrowAnyException();
    }
    org.eafr.sim.stats.RunStats stats = new org.eafr.sim.stats.RunStats(1);
    Map<String, String> first = new LinkedHashMap<>(scenario.base());
    first.putAll(scenario.variants().get(0).settings());
    var signal = org.eafr.sim.model.GridSignals.of(SimSettings.of(first));
    if (signal != null) { // a scenario against a grid signal also reports the grid's metrics
      stats.grid(new org.eafr.sim.stats.GridAccount(signal, 0, new org.eafr.placement.grid.MoveEnergy(41.3, 1e8)));
    }
    java.util.Set<String> metrics = stats.result(new org.eafr.sim.stats.RunStats.EndState(0, 0, 0, 0, 0, 0))
        .keySet();
    assertThat(metrics).containsAll(scenario.chartMetrics());
    scenario.chartMetrics().forEach(metric -> assertThat(org.eafr.sim.report.MetricTitles.isKnown(metric))
        .as("readable name of " + metric).isTrue());
  }

  @org.junit.jupiter.api.Test
  void theEafrComparisonRunsTheFivePoliciesAndEafrOnGearsOnThePapersSetupForTwoDays() {
    Scenario eafr = Scenarios.get("eafr");
    assertThat(eafr.policies()).containsExactly("hdfs", "cdrm", "scarlett", "aptstore", "eafr", "eafr-geared");
    assertThat(Scenarios.get("gears").policies()).contains("eafr-geared", "ideal", "hdfs");
    SimSettings settings = SimSettings.of(eafr.base());
    assertThat(settings.servers()).isEqualTo(300);
    assertThat(settings.racks()).isEqualTo(10);
    assertThat(settings.durationMicros()).isEqualTo(48L * 3600 * 1_000_000);
    assertThat(settings.eafr().get(org.eafr.placement.settings.EafrSettings.GEAR_REPLICAS))
        .isEqualTo(settings.eafr().minReplicas());
  }

  @org.junit.jupiter.api.Test
  void only_keepsTheNamedVariants_andNamesTheKnownOnesForAnUnknownOne() {
    Scenario gears = Scenarios.get("gears");
    assertThat(gears.only(java.util.List.of("FB-2010-paths")).variants()).extracting(Scenario.Variant::label)
        .containsExactly("FB-2010-paths");
    assertThat(gears.only(java.util.List.of()).variants()).hasSize(4);
    assertThat(Scenarios.get("eafr").only(java.util.List.of("default")).variants())
        .containsExactly(Scenario.Variant.single());
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> gears.only(java.util.List.of("FB-2011")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--variants FB-2011 is not allowed")
        .hasMessageContaining("FB-2010-paths");
  }

  /** --trace replaces the command's workload; a variant with its own trace is left out, not run on another one. */
  @org.junit.jupiter.api.Test
  void aTraceOption_runsOnlyTheVariantsWithoutATraceOfTheirOwn() {
    Scenario tiny = Scenarios.get("tiny");
    Scenario mixed = new Scenario("mixed", "test", tiny.base(), "run", java.util.List.of(Scenario.Variant.single(),
        new Scenario.Variant("own", 1, Map.of(), "swim-paths")), java.util.List.of("hdfs"), tiny.chartMetrics());
    var results = new Runner(1, runs -> new ProgressBar(System.err, runs, ProgressBar.Mode.OFF))
        .run(mixed, Map.of("sim.duration.hours", "0.1"), java.util.List.of(), "synthetic");
    assertThat(results).extracting(org.eafr.sim.stats.RunResult::variant).containsExactly("0.1h");
  }
}
