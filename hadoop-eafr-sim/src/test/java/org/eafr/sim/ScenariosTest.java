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
    scenario.chartMetrics().forEach(metric -> assertThat(org.eafr.sim.report.MetricNames.isKnown(metric))
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
}
