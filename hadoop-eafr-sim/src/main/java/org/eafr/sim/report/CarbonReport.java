package org.eafr.sim.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.eafr.sim.Scenario;
import org.eafr.sim.Scenarios;
import org.eafr.sim.SimSettings;
import org.eafr.sim.Simulator;
import org.eafr.sim.policy.LayoutPolicy;
import org.eafr.sim.workload.TraceFormat;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The carbon scenario's charts a reader wants beside the per-metric ones: each metric per day (the mean over the grid
 * week) as grouped bars (one group per grid week, one bar per policy; "n/a" in the legend where a policy has no value,
 * e.g. EUR without a price), read from the scenario's CSV; and one day's timeline of the grid's intensity, the gear
 * and the background work held, from two runs of the same core classes (energy-only and carbon-aware) over the week
 * up to the end of that day (a run's first days do not depend on its length).
 *
 * <p>{@code java ... org.eafr.sim.report.CarbonReport OUT [VARIANT [POLICY [DAY]]]} (scripts/carbon-report.sh): reads
 * {@code OUT/carbon.csv}, writes {@code OUT/carbon-day-METRIC.png}, {@code OUT/carbon-timeline-VARIANT.png} and its
 * CSV. Default VARIANT GB-2023-01, POLICY springfs, DAY 3 (1-7: the week's Wednesday); VARIANT "-" draws the bars
 * only.
 */
public final class CarbonReport {
  private static final int WIDTH = 1000;
  private static final int HEIGHT = 760;
  private static final long DAY_MILLIS = 86_400_000L;
  private static final List<String> PER_DAY = List.of("kg_co2_day", "eur_day", "move_g_co2_day", "grid_kwh_day",
      "read_mean_ms", "read_p99_ms", "move_gb_day", "deferred_hold_mean_h");

  private CarbonReport() {
  }

  public static void main(String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println("usage: CarbonReport OUT [VARIANT [POLICY [DAY]]]  (OUT holds carbon.csv of scenario"
          + " carbon; DAY 1-7 of the grid week)");
      System.exit(2);
    }
    Path out = Paths.get(args[0]);
    List<Map<String, String>> rows = readCsv(out.resolve("carbon.csv"));
    for (String metric : PER_DAY) {
      Path file = out.resolve("carbon-day-" + metric + ".png");
      BitmapEncoder.saveBitmap(perDay(rows, metric), file.toString(), BitmapEncoder.BitmapFormat.PNG);
      System.out.println("chart: " + file);
    }
    String variant = args.length > 1 ? args[1] : "GB-2023-01";
    if (variant.equals("-")) {
      return; // the bars only: no timeline runs
    }
    String policy = args.length > 2 ? args[2] : "springfs";
    int day = args.length > 3 ? Integer.parseInt(args[3]) : 3;
    timeline(out, variant, policy, day);
  }

  /** Grouped bars: a group per grid week, a bar per policy; a policy without a value there is named in its legend. */
  static CategoryChart perDay(List<Map<String, String>> rows, String metric) {
    MetricTitles.Name name = MetricTitles.of(metric);
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
        .title(capitalized(name.title()) + ", mean of each grid week's 7 days (carbon scenario)")
        .xAxisTitle("grid week (region, month)").yAxisTitle(name.withUnit()).build();
    chart.getStyler().setDecimalPattern("#,##0.##");
    legendBelow(chart.getStyler());
    Set<String> days = new LinkedHashSet<>();
    Set<String> policies = new LinkedHashSet<>();
    for (Map<String, String> row : rows) {
      days.add(row.get("variant"));
      policies.add(row.get("policy"));
    }
    for (String policy : policies) {
      List<Double> values = new ArrayList<>();
      List<String> missing = new ArrayList<>();
      for (String day : days) {
        double value = value(rows, day, policy, metric);
        values.add(Double.isNaN(value) ? null : value);
        if (Double.isNaN(value)) {
          missing.add(day);
        }
      }
      String label = missing.isEmpty() ? policy : missing.size() == days.size() ? policy + " (n/a)"
          : policy + " (n/a: " + String.join(", ", missing) + ")";
      chart.addSeries(label, new ArrayList<>(days), values);
    }
    return chart;
  }

  private static double value(List<Map<String, String>> rows, String day, String policy, String metric) {
    for (Map<String, String> row : rows) {
      if (row.get("variant").equals(day) && row.get("policy").equals(policy)) {
        String raw = row.get(metric);
        return raw == null || raw.isEmpty() ? Double.NaN : Double.parseDouble(raw);
      }
    }
    return Double.NaN;
  }

  /**
   * Day {@code day} (1-7) of {@code variant}'s week, {@code policy} energy-only and carbon-aware: intensity, gears,
   * work held; the runs cover the week up to that day's end, so work held from the days before is in them.
   */
  static void timeline(Path out, String variantLabel, String policy, int day) throws IOException {
    if (day < 1 || day > 7) {
      throw new IllegalArgumentException("day " + day + " is not allowed: expected 1 to 7 (a day of the grid week)");
    }
    Scenario scenario = Scenarios.get("carbon");
    Scenario.Variant variant = scenario.variants().stream().filter(v -> v.label().equals(variantLabel)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("variant " + variantLabel + " is not a grid week of the"
            + " carbon scenario"));
    Map<String, String> raw = new LinkedHashMap<>(scenario.base());
    raw.putAll(variant.settings());
    raw.put("sim.duration.hours", String.valueOf(24 * day));
    SimSettings settings = SimSettings.of(raw);
    long from = (day - 1) * DAY_MILLIS;
    String date = java.time.Instant.ofEpochMilli(settings.gridStartMillis() + from).toString().substring(0, 10);
    Map<String, List<LayoutPolicy.GridStep>> runs = new LinkedHashMap<>();
    for (String name : List.of(policy, policy + "-carbon")) {
      Simulator simulator = new Simulator(settings, name, TraceFormat.open(variant.trace(), settings), p -> {
      });
      simulator.run("carbon", variantLabel);
      runs.put(name, ((LayoutPolicy) simulator.policy()).timeline().stream()
          .filter(step -> step.runMillis() >= from).toList());
    }
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
        .title(variantLabel + " on " + date + ": intensity, gear, background work held (" + policy + ")")
        .xAxisTitle("hour of " + date + " (UTC)").yAxisTitle("gCO2/kWh").build();
    chart.getStyler().setXAxisDecimalPattern("0");
    legendBelow(chart.getStyler());
    List<LayoutPolicy.GridStep> carbon = runs.get(policy + "-carbon");
    List<Double> hours = new ArrayList<>();
    List<Double> intensity = new ArrayList<>();
    List<Double> held = new ArrayList<>();
    for (LayoutPolicy.GridStep step : carbon) {
      hours.add((step.runMillis() - from) / 3.6e6);
      intensity.add(step.gco2PerKwh());
      held.add(step.heldKinds() > 0 ? 1.0 : 0.0);
    }
    chart.addSeries("carbon intensity (gCO2/kWh, left)", hours, intensity).setMarker(SeriesMarkers.NONE);
    for (Map.Entry<String, List<LayoutPolicy.GridStep>> run : runs.entrySet()) {
      List<Double> x = new ArrayList<>();
      List<Double> gear = new ArrayList<>();
      for (LayoutPolicy.GridStep step : run.getValue()) {
        x.add((step.runMillis() - from) / 3.6e6);
        gear.add((double) step.gear());
      }
      XYSeries series = chart.addSeries("gear, " + run.getKey() + " (right)", x, gear);
      series.setMarker(SeriesMarkers.NONE);
      series.setYAxisGroup(1);
    }
    XYSeries heldSeries = chart.addSeries("background work held, " + policy + "-carbon (right, 0/1)", hours, held);
    heldSeries.setMarker(SeriesMarkers.NONE);
    heldSeries.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Area);
    heldSeries.setYAxisGroup(2);
    heldSeries.setFillColor(new java.awt.Color(0, 160, 0, 50)); // translucent: the gears stay visible
    heldSeries.setLineColor(new java.awt.Color(0, 160, 0, 120));
    chart.setYAxisGroupTitle(0, "carbon intensity (gCO2/kWh)");
    chart.setYAxisGroupTitle(1, "gear (servers on past the 40 primaries)");
    chart.setYAxisGroupTitle(2, "background work held (1 = held)");
    chart.getStyler().setYAxisGroupPosition(1, org.knowm.xchart.style.Styler.YAxisPosition.Right);
    chart.getStyler().setYAxisGroupPosition(2, org.knowm.xchart.style.Styler.YAxisPosition.Right);
    Path png = out.resolve("carbon-timeline-" + variantLabel + ".png");
    BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    System.out.println("chart: " + png);
    Path csv = out.resolve("carbon-timeline-" + variantLabel + ".csv");
    try (Writer w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
      w.write("policy,date,hour,gco2_per_kwh,eur_per_mwh,gear,target_utilization,held_kinds\n");
      for (Map.Entry<String, List<LayoutPolicy.GridStep>> run : runs.entrySet()) {
        for (LayoutPolicy.GridStep s : run.getValue()) {
          w.write(String.format(Locale.ROOT, "%s,%s,%.4f,%.2f,%.2f,%d,%.3f,%d%n", run.getKey(), date,
              (s.runMillis() - from) / 3.6e6, s.gco2PerKwh(), s.eurPerMwh(), s.gear(), s.targetUtilization(),
              s.heldKinds()));
        }
      }
    }
    System.out.println("csv: " + csv);
  }

  /** The legend under the plot: the plot, its title and the week labels get the chart's whole width. */
  private static void legendBelow(org.knowm.xchart.style.Styler styler) {
    styler.setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
    styler.setLegendLayout(org.knowm.xchart.style.Styler.LegendLayout.Vertical);
  }

  private static String capitalized(String text) {
    return text.substring(0, 1).toUpperCase(Locale.ROOT) + text.substring(1);
  }

  static List<Map<String, String>> readCsv(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    String[] header = lines.get(0).split(",", -1);
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      Map<String, String> row = new LinkedHashMap<>();
      for (int i = 0; i < header.length && i < cells.length; i++) {
        row.put(header[i], cells[i]);
      }
      rows.add(row);
    }
    return rows;
  }
}
