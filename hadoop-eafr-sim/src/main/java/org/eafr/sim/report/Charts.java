package org.eafr.sim.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.eafr.sim.Scenario;
import org.eafr.sim.stats.RunResult;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG charts of a scenario's chart metrics with XChart: a line per policy against the sweep's x value, or, for a
 * scenario with a single variant, a bar per policy. Files are named {@code SCENARIO-METRIC.png}. Titles and axes name
 * the metric and its unit ({@link MetricTitles}); a value that does not exist (no copy of that size, no failure to
 * recover) is shown as "n/a": a bar labelled "policy (n/a)" with no bar, or a line's legend naming the x values it
 * lacks.
 */
public final class Charts {
  private static final int WIDTH = 800;
  private static final int HEIGHT = 500;

  private Charts() {
  }

  /** Writes one chart per metric into {@code directory}; returns the files written. */
  public static List<Path> write(Scenario scenario, List<RunResult> results, Path directory) throws IOException {
    Files.createDirectories(directory);
    List<Path> written = new ArrayList<>();
    for (String metric : scenario.chartMetrics()) {
      Path file = directory.resolve(scenario.name() + "-" + metric.replace('.', '_') + ".png");
      if (scenario.variants().size() == 1 || !distinctX(scenario)) {
        BitmapEncoder.saveBitmap(bars(scenario, results, metric), file.toString(), BitmapEncoder.BitmapFormat.PNG);
      } else {
        BitmapEncoder.saveBitmap(lines(scenario, results, metric), file.toString(), BitmapEncoder.BitmapFormat.PNG);
      }
      written.add(file);
    }
    return written;
  }

  /** Whether every variant has its own x; a repeated x (e.g. rabbit's r = 4 beside g = 5) cannot be drawn as a line. */
  private static boolean distinctX(Scenario scenario) {
    return scenario.variants().stream().mapToDouble(Scenario.Variant::x).distinct().count() == scenario.variants().size();
  }

  private static XYChart lines(Scenario scenario, List<RunResult> results, String metric) {
    MetricTitles.Name name = MetricTitles.of(metric);
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title(scenario, name))
        .xAxisTitle(scenario.xLabel()).yAxisTitle(name.withUnit()).build();
    List<String> withoutValues = new ArrayList<>();
    for (String policy : policies(results)) {
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      List<String> missing = new ArrayList<>();
      for (RunResult result : results) {
        if (!result.policy().equals(policy)) {
          continue;
        }
        double y = result.get(metric);
        double x = result.x();
        if (Double.isNaN(y)) {
          missing.add(x == Math.rint(x) ? String.valueOf((long) x) : String.valueOf(x));
        } else {
          xs.add(x);
          ys.add(y);
        }
      }
      if (xs.isEmpty()) {
        withoutValues.add(policy);
      } else {
        String label = missing.isEmpty() ? policy : policy + " (n/a at " + String.join(", ", missing) + ")";
        chart.addSeries(label, xs, ys).setMarker(SeriesMarkers.CIRCLE);
      }
    }
    if (!withoutValues.isEmpty()) {
      chart.setXAxisTitle(scenario.xLabel() + "   (n/a: " + String.join(", ", withoutValues) + ")");
    }
    return chart;
  }

  static CategoryChart bars(Scenario scenario, List<RunResult> results, String metric) {
    MetricTitles.Name name = MetricTitles.of(metric);
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title(scenario, name))
        .xAxisTitle(scenario.variants().size() == 1 ? "policy" : "run").yAxisTitle(name.withUnit()).build();
    chart.getStyler().setLegendVisible(false);
    chart.getStyler().setLabelsVisible(true);
    chart.getStyler().setDecimalPattern("#,##0.###");
    List<String> names = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (RunResult result : results) {
      double value = result.get(metric);
      // XChart draws no bar for a null value; the category label says why the bar is missing.
      String label = scenario.variants().size() == 1 ? result.policy() : result.variant() + " " + result.policy();
      names.add(Double.isNaN(value) ? label + " (n/a)" : label);
      values.add(Double.isNaN(value) ? null : value);
    }
    chart.addSeries(name.title(), names, values);
    return chart;
  }

  private static String title(Scenario scenario, MetricTitles.Name name) {
    return name.title().substring(0, 1).toUpperCase(java.util.Locale.ROOT) + name.title().substring(1)
        + " (" + scenario.name() + " scenario)";
  }

  private static Set<String> policies(List<RunResult> results) {
    Set<String> policies = new LinkedHashSet<>();
    for (RunResult result : results) {
      policies.add(result.policy());
    }
    return policies;
  }
}
