package org.eafr.sim.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
 * scenario with a single variant, a bar per policy. Files are named {@code SCENARIO-METRIC.png}.
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
      if (scenario.variants().size() == 1) {
        BitmapEncoder.saveBitmap(bars(scenario, results, metric), file.toString(), BitmapEncoder.BitmapFormat.PNG);
      } else {
        BitmapEncoder.saveBitmap(lines(scenario, results, metric), file.toString(), BitmapEncoder.BitmapFormat.PNG);
      }
      written.add(file);
    }
    return written;
  }

  private static XYChart lines(Scenario scenario, List<RunResult> results, String metric) {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(scenario.name() + ": " + metric)
        .xAxisTitle(scenario.xLabel()).yAxisTitle(metric).build();
    Map<String, Double> xByVariant = new LinkedHashMap<>();
    for (Scenario.Variant variant : scenario.variants()) {
      xByVariant.put(variant.label(), variant.x());
    }
    for (String policy : policies(results)) {
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (RunResult result : results) {
        double y = result.get(metric);
        if (result.policy().equals(policy) && !Double.isNaN(y)) {
          xs.add(xByVariant.get(result.variant()));
          ys.add(y);
        }
      }
      if (!xs.isEmpty()) {
        chart.addSeries(policy, xs, ys).setMarker(SeriesMarkers.CIRCLE);
      }
    }
    return chart;
  }

  private static CategoryChart bars(Scenario scenario, List<RunResult> results, String metric) {
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
        .title(scenario.name() + ": " + metric).xAxisTitle("policy").yAxisTitle(metric).build();
    chart.getStyler().setLegendVisible(false);
    List<String> names = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (RunResult result : results) {
      names.add(result.policy());
      double value = result.get(metric);
      values.add(Double.isNaN(value) ? 0.0 : value);
    }
    chart.addSeries(metric, names, values);
    return chart;
  }

  private static Set<String> policies(List<RunResult> results) {
    Set<String> policies = new LinkedHashSet<>();
    for (RunResult result : results) {
      policies.add(result.policy());
    }
    return policies;
  }
}
