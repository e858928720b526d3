package org.eafr.sim.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eafr.sim.Scenario;
import org.eafr.sim.stats.RunResult;
import org.eafr.sim.stats.RunStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;

class ReportsTest {
  @TempDir
  Path dir;

  private static RunResult result(String policy, double reads, double failed, double recoveryS) {
    Map<String, Double> metrics = new LinkedHashMap<>(new RunStats(1).result(
        new RunStats.EndState(0, 0, 0, 0, 0, 0)));
    metrics.put("reads", reads);
    metrics.put("failed_reads", failed);
    metrics.put("recovery_mean_s", recoveryS);
    return new RunResult("s", "24h", 0, policy, metrics);
  }

  @Test
  void theTableShowsFailedReadsAndWarnsAboutEveryRunThatLostReads() {
    List<RunResult> results = List.of(result("hdfs", 100, 0, 1.5), result("eafr", 85_815, 85_730, Double.NaN));
    String table = TableReport.render(results);
    assertThat(table.lines().findFirst().orElseThrow()).contains("failed reads");
    assertThat(table.lines().filter(l -> l.contains("eafr")).findFirst().orElseThrow()).contains(" 85730 ")
        .endsWith("n/a");
    assertThat(TableReport.warnings(results)).containsExactly("warning: eafr (24h): 85,730 of 171,545 reads failed"
        + " (50.0%), no live replica of the file; its latencies are of the 85,815 reads served");
  }

  @Test
  void everyMetricOfARunHasAReadableNameWithItsUnit() {
    for (String metric : new RunStats(1).result(new RunStats.EndState(0, 0, 0, 0, 0, 0)).keySet()) {
      assertThat(MetricTitles.isKnown(metric)).as(metric).isTrue();
    }
    assertThat(MetricTitles.of("read_mean_ms").withUnit()).isEqualTo("mean read latency (ms)");
    assertThat(MetricTitles.of("repl_10000MB_s").withUnit()).isEqualTo("mean replication time of 10 GB files (s)");
  }

  @Test
  void aBarWithoutAValueIsLabelledNotApplicableInsteadOfDrawnEmpty() throws Exception {
    Scenario scenario = new Scenario("s", "test", Map.of(), "run", List.of(Scenario.Variant.single()),
        List.of("hdfs", "eafr"), List.of("recovery_mean_s"));
    CategoryChart chart = Charts.bars(scenario, List.of(result("hdfs", 1, 0, 2.0), result("eafr", 1, 0, Double.NaN)),
        "recovery_mean_s");
    assertThat(chart.getTitle()).isEqualTo("Mean recovery latency per failure (s scenario)");
    var series = chart.getSeriesCollection().iterator().next();
    assertThat(List.<Object>copyOf(series.getXData())).containsExactly("hdfs", "eafr (n/a)");
    assertThat(series.getYData()[0]).isEqualTo(2.0);
    assertThat(series.getYData()[1]).isNaN();
    assertThat(Charts.write(scenario, List.of(result("hdfs", 1, 0, 2.0)), dir)).singleElement()
        .satisfies(p -> assertThat(p).isNotEmptyFile());
  }

  /** Two variants at the same x (rabbit's g = 5 and r = 4 g = 5) cannot be a line: bars named by variant. */
  @Test
  void variantsSharingAnX_areDrawnAsBarsNamedByVariant() throws Exception {
    Scenario scenario = new Scenario("s", "test", Map.of(), "g", List.of(new Scenario.Variant("g=5", 5, Map.of()),
        new Scenario.Variant("r=4 g=5", 5, Map.of())), List.of("rabbit"), List.of("recovery_mean_s"));
    RunResult g5 = new RunResult("s", "g=5", 5, "rabbit", result("rabbit", 1, 0, 52).metrics());
    RunResult r4 = new RunResult("s", "r=4 g=5", 5, "rabbit", result("rabbit", 1, 0, 57).metrics());

    CategoryChart chart = Charts.bars(scenario, List.of(g5, r4), "recovery_mean_s");

    var series = chart.getSeriesCollection().iterator().next();
    assertThat(List.<Object>copyOf(series.getXData())).containsExactly("g=5 rabbit", "r=4 g=5 rabbit");
    assertThat(Charts.write(scenario, List.of(g5, r4), dir)).singleElement()
        .satisfies(p -> assertThat(p).isNotEmptyFile());
  }
}
