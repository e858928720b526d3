package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The NameNode's /prom page is fit for alerting: scraped before, throughout and after an auto-mode gear-down (the
 * autopilot's decisions, held by the dwell time first, then a shift through every phase to gear 0), every EAFR series
 * stays the same (name and labels: no series appears or vanishes), counters are typed counter and end in _total,
 * gauges do not, and the counters of the shift and the decisions grow. The words (phase, last decision) are the
 * EafrGears bean's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PrometheusSeriesTest {
  private static final Pattern SAMPLE = Pattern.compile("(eafr_[a-z_]+)(\\{[^}]*\\}) (\\S+)");
  private static final Pattern TYPE = Pattern.compile("# TYPE (eafr_[a-z_]+) (\\S+)");
  private static final Pattern LABEL = Pattern.compile("([a-z_]+)=\"[^\"]*\"");

  private EafrCluster cluster;

  @BeforeAll
  void startCluster() throws Exception {
    // A NameNode of an earlier test in this JVM left its /prom sink registered under the same name in the one metrics
    // system, which then feeds that sink and not this NameNode's: start from a fresh metrics system. Daemons that an
    // earlier test stopped without a clean shutdown (a NameNode ended by ExitUtil) still hold references to it, and
    // the metrics system stops only when the last is released.
    for (int i = 0; i < 1_000 && !DefaultMetricsSystem.instance().shutdown(); i++) {
      continue;
    }
    DefaultMetricsSystem.shutdown();
    Configuration conf = GearTestCluster.autoConf("prom-series", 2_000);
    conf.setBoolean("hadoop.prometheus.endpoint.enabled", true);
    cluster = GearTestCluster.start(conf);
    cluster.write("/data/f", 3, EafrCluster.BLOCK_SIZE + 4096, 1);
  }

  @AfterAll
  void stopCluster() {
    GearTestCluster.stop(cluster);
  }

  @Test
  void noSeriesAppearsOrVanishesOverAnAutoGearShift_andCountersAreCounters() throws Exception {
    // A metrics system an earlier cluster of this JVM started feeds the new sink at its next period only.
    GenericTestUtils.waitFor(() -> {
      try {
        return GearTestCluster.prom(cluster).contains("eafr_name_node_gear_shifts_total{");
      } catch (java.io.IOException e) {
        return false;
      }
    }, 200, 60_000);
    String before = GearTestCluster.prom(cluster);
    Map<String, Double> first = samples(before);
    assertThat(first.keySet()).anyMatch(s -> s.startsWith("eafr_name_node_gear_shifts_total{"))
        .anyMatch(s -> s.startsWith("eafr_name_node_gear_auto_decisions_held_by_dwell_total{"))
        .anyMatch(s -> s.startsWith("eafr_name_node_energy_saved_kwh_total{"))
        .anyMatch(s -> s.startsWith("eafr_name_node_power_draw_watts{"))
        .anyMatch(s -> s.startsWith("eafr_name_node_grid_carbon_grams_total{"))
        .anyMatch(s -> s.startsWith("eafr_name_node_grid_carbon_intensity_grams_per_kwh{"))
        .anyMatch(s -> s.startsWith("eafr_name_node_grid_reflection_deadline_timestamp_seconds{"))
        .anyMatch(s -> s.startsWith("eafr_power_nodes_on{"))
        .anyMatch(s -> s.startsWith("eafr_name_node_power_draw_measured_watts{"))
        .anyMatch(s -> s.startsWith("eafr_name_node_energy_used_measured_kwh_total{"))
        .anyMatch(s -> s.startsWith("eafr_power_measured_watts{"))
        .anyMatch(s -> s.startsWith("eafr_power_nodes_measured{"))
        .anyMatch(s -> s.startsWith("eafr_power_measurements_total{"))
        .anyMatch(s -> s.startsWith("eafr_power_poll_errors_total{"))
        .noneMatch(s -> s.startsWith("eafr_power_power_"));
    assertTypesAndLabels(before);

    AdminRun auto = AdminRun.run(cluster.conf(), "gear", "auto");
    assertThat(auto.code).as(auto.err).isZero();
    List<String> changed = new ArrayList<>();
    TreeSet<Double> underWay = new TreeSet<>();
    String[] after = new String[1];
    // The sink serves the last metrics period's snapshot: wait for one taken after the shift ended, not just the end.
    GenericTestUtils.waitFor(() -> {
      after[0] = scrape();
      Map<String, Double> now = samples(after[0]);
      if (!now.keySet().equals(first.keySet())) {
        changed.add(diff(first.keySet(), now.keySet()));
      }
      underWay.add(value(now, "eafr_name_node_gear_shift_under_way"));
      GearRecord state = GearTestCluster.gears(cluster).state();
      return state.gear() == 0 && state.phase() == ShiftPhase.STEADY && value(now, "eafr_name_node_gear") == 0.0
          && value(now, "eafr_name_node_gear_shift_under_way") == 0.0;
    }, 50, 180_000);
    assertThat(changed).as("series that appeared or vanished during the shift").isEmpty();

    Map<String, Double> last = samples(after[0]);
    assertThat(last.keySet()).isEqualTo(first.keySet());
    assertTypesAndLabels(after[0]);
    assertThat(value(last, "eafr_name_node_gear_shifts_total")).isGreaterThan(value(first,
        "eafr_name_node_gear_shifts_total"));
    assertThat(value(last, "eafr_name_node_gear_auto_decisions_total")).isPositive();
    assertThat(value(last, "eafr_name_node_gear_auto_mode")).isEqualTo(1.0);
    assertThat(value(last, "eafr_name_node_gear")).isEqualTo(0.0);
    assertThat(value(last, "eafr_power_powered_off_total")).isEqualTo(8.0);
    assertThat(underWay).as("gear_shift_under_way seen during and after the shift").containsExactly(0.0, 1.0);
    assertThat(AdminRun.jmx("EafrGears", "GearPhase")).isEqualTo("STEADY");
    assertThat((String) AdminRun.jmx("EafrGears", "GearAutoLastDecision")).isNotBlank();
  }

  private String scrape() {
    try {
      return GearTestCluster.prom(cluster);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Each EAFR sample line's series (name and labels) to its value. */
  private static Map<String, Double> samples(String prom) {
    Map<String, Double> samples = new TreeMap<>();
    for (String line : prom.split("\n")) {
      Matcher sample = SAMPLE.matcher(line);
      if (sample.matches()) {
        samples.put(sample.group(1) + sample.group(2), Double.valueOf(sample.group(3)));
      }
    }
    return samples;
  }

  /** The value of the one series named {@code name}. */
  private static double value(Map<String, Double> samples, String name) {
    List<Double> values = new ArrayList<>();
    samples.forEach((series, value) -> {
      if (series.startsWith(name + "{")) {
        values.add(value);
      }
    });
    assertThat(values).as(name).hasSize(1);
    return values.get(0);
  }

  /**
   * Each EAFR metric's TYPE is counter exactly when its name ends in _total; its HELP says what it is (no pointer to
   * the docs); its labels are Hadoop's own (context, hostname), never a state.
   */
  private static void assertTypesAndLabels(String prom) {
    int types = 0;
    for (String line : prom.split("\n")) {
      Matcher type = TYPE.matcher(line);
      if (type.matches()) {
        types++;
        assertThat(type.group(2)).as(type.group(1)).isEqualTo(type.group(1).endsWith("_total") ? "counter" : "gauge");
      }
      if (line.startsWith("# HELP eafr_")) {
        assertThat(line).doesNotContain("docs/").doesNotEndWith(" ");
      }
      Matcher sample = SAMPLE.matcher(line);
      if (sample.matches()) {
        Matcher label = LABEL.matcher(sample.group(2));
        while (label.find()) {
          assertThat(label.group(1)).as(line).isIn("context", "hostname");
        }
      }
    }
    assertThat(types).isGreaterThan(40);
  }

  private static String diff(java.util.Set<String> was, java.util.Set<String> now) {
    TreeSet<String> gone = new TreeSet<>(was);
    gone.removeAll(now);
    TreeSet<String> come = new TreeSet<>(now);
    come.removeAll(was);
    return "vanished " + gone + ", appeared " + come;
  }
}
