package org.eafr.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * The comparison of {@code scripts/demo.sh compare}: the run with every node on ({@code --no-gears}) and one run per
 * policy on the same replay, read from the figures each run saved ({@code MODE.properties}, {@link Report}), into one
 * table ({@code compare.md}, {@code compare.csv}) and one chart ({@code compare.png}) beside them.
 *
 * <p>Per run: kWh (EAFR Table 2 model over each host's real on-time) and its ratio against the run with every node on;
 * read p50 and p99 and p99 against the random layout's; failed reads; files verified; blocks reflected home after
 * gear-ups (the NameNode's {@code blocksReflected}); gear shifts; reads per joule while gearing up
 * ({@link GearUpThroughput}). A run whose figures are missing or older than the comparison's start is a row of "n/a"
 * (not run, or stopped before its report). Exit code 0 when every run is there with no failed read and every file
 * verified.
 *
 * <p>{@code Comparison RESULTS_DIR SINCE_EPOCH_MS POLICY,POLICY,...}
 */
final class Comparison {
  /** One run's figures; NaN where the run has none. */
  record Row(String policy, String run, boolean present, double kwh, double ratio, double p50, double p99,
      double p99VsRandom, long readsFailed, long verified, long files, long reflected, long shifts,
      double readsPerJoule, boolean passed) {
    boolean clean() {
      return present && readsFailed == 0 && files > 0 && verified == files;
    }
  }

  static final String BASELINE = "every node on";

  private Comparison() {
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      System.err.println("usage: Comparison RESULTS_DIR SINCE_EPOCH_MS POLICY,POLICY,...");
      System.exit(2);
    }
    Path results = Paths.get(args[0]);
    Instant since = Instant.ofEpochMilli(Long.parseLong(args[1]));
    List<String> policies = List.of(args[2].split(","));
    List<String> runs = new ArrayList<>(List.of("off"));
    List<Properties> figures = new ArrayList<>(List.of(TraceReplay.load(results.resolve("off.properties"))));
    for (String policy : policies) {
      String run = DemoSettings.runName(policy, DemoSettings.GearMode.AUTO);
      runs.add(run);
      figures.add(TraceReplay.load(results.resolve(run + ".properties")));
    }
    List<Row> rows = rows(policies, runs, figures, since);
    Files.writeString(results.resolve("compare.md"), markdown(rows), StandardCharsets.UTF_8);
    Files.writeString(results.resolve("compare.csv"), csv(rows), StandardCharsets.UTF_8);
    chart(rows, results.resolve("compare.png"));
    System.out.print(markdown(rows));
    System.out.println("table: " + results.resolve("compare.md") + ", " + results.resolve("compare.csv") + "; chart: "
        + results.resolve("compare.png"));
    System.exit(rows.stream().allMatch(Row::clean) ? 0 : 1);
  }

  /**
   * The rows: the baseline (run "off", labelled {@link #BASELINE}), then each policy; {@code figures} holds each run's
   * saved figures in the same order (empty when none). Figures finished before {@code since} belong to an earlier
   * comparison and count as missing.
   */
  static List<Row> rows(List<String> policies, List<String> runs, List<Properties> figures, Instant since) {
    List<String> labels = new ArrayList<>(List.of(BASELINE));
    labels.addAll(policies);
    List<Properties> current = new ArrayList<>();
    for (Properties f : figures) {
      String finished = f.getProperty("finished");
      current.add(finished != null && !Instant.parse(finished).isBefore(since) ? f : new Properties());
    }
    double baselineKwh = number(current.get(0), "kwh");
    int random = labels.indexOf(DemoSettings.RANDOM);
    double randomP99 = random < 0 ? Double.NaN : number(current.get(random), "read.p99.ms");
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < labels.size(); i++) {
      Properties f = current.get(i);
      double p99 = number(f, "read.p99.ms");
      double joules = number(f, "gearup.joules");
      boolean geared = !labels.get(i).equals(DemoSettings.RANDOM); // the random layout has no gears to count
      rows.add(new Row(labels.get(i), runs.get(i), f.getProperty("finished") != null, number(f, "kwh"),
          number(f, "kwh") / baselineKwh, number(f, "read.p50.ms"), p99, p99 / randomP99,
          count(f, "reads.failed"), count(f, "files.verified"), count(f, "files"),
          geared ? count(f, "blocks.reflected") : -1, geared ? count(f, "gear.shifts") : -1, joules > 0 ? number(f, "gearup.reads") / joules : Double.NaN,
          Boolean.parseBoolean(f.getProperty("passed"))));
    }
    return rows;
  }

  private static final List<String> HEADERS = List.of("policy", "run", "kWh", "x every node on", "read p50 (ms)",
      "read p99 (ms)", "p99 x random", "failed reads", "files verified", "blocks reflected", "gear shifts",
      "reads/J gearing up", "run checks");

  /** The table in markdown; "n/a" where a run has no value. */
  static String markdown(List<Row> rows) {
    StringBuilder out = new StringBuilder("| " + String.join(" | ", HEADERS) + " |\n");
    out.append("|").append("---|".repeat(HEADERS.size())).append('\n');
    for (Row row : rows) {
      out.append("| ").append(String.join(" | ", cells(row))).append(" |\n");
    }
    return out.toString();
  }

  /** The same table as CSV (plain numbers, empty where none). */
  static String csv(List<Row> rows) {
    StringBuilder out = new StringBuilder(String.join(",", HEADERS) + "\n");
    for (Row row : rows) {
      out.append(String.join(",", cells(row)).replace("n/a", "").replace(" of ", "/")).append('\n');
    }
    return out.toString();
  }

  private static List<String> cells(Row row) {
    if (!row.present()) {
      List<String> cells = new ArrayList<>(List.of(row.policy(), row.run()));
      while (cells.size() < HEADERS.size() - 1) {
        cells.add("n/a");
      }
      cells.add("not run");
      return cells;
    }
    return List.of(row.policy(), row.run(), format("%.4f", row.kwh()), format("%.2f", row.ratio()),
        format("%.1f", row.p50()), format("%.1f", row.p99()), format("%.2f", row.p99VsRandom()),
        String.valueOf(row.readsFailed()), row.verified() + " of " + row.files(), whole(row.reflected()),
        whole(row.shifts()), format("%.5f", row.readsPerJoule()), row.passed() ? "PASS" : "FAIL");
  }

  /**
   * The chart: kWh against every node on, read p99 and reads per joule while gearing up, a bar per run; a run with no
   * value is labelled "(n/a)" and has no bar (XChart draws none for null), as the simulator's bar charts do.
   */
  static void chart(List<Row> rows, Path png) throws IOException {
    Timeline.writePanels(png, List.of(
        bars("Energy against every node on (same replay)", "kWh used / kWh every node on (ratio)", rows, Row::ratio),
        bars("Read latency p99 (open to last byte, checksum checked)", "read p99 (ms)", rows, Row::p99),
        bars("Reads per joule while gearing up (Accordion's measure)", "reads per joule (reads/J)", rows,
            Row::readsPerJoule)), 900, 330);
  }

  private static CategoryChart bars(String title, String yTitle, List<Row> rows, ToDoubleFunction<Row> metric) {
    CategoryChart chart = new CategoryChartBuilder().width(900).height(330).title(title)
        .xAxisTitle("policy (scripts/demo.sh compare)").yAxisTitle(yTitle).build();
    chart.getStyler().setLegendVisible(false);
    chart.getStyler().setLabelsVisible(true);
    chart.getStyler().setDecimalPattern("#,##0.####");
    chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
    List<String> names = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (Row row : rows) {
      double value = row.present() ? metric.applyAsDouble(row) : Double.NaN;
      names.add(Double.isNaN(value) ? row.policy() + " (n/a)" : row.policy());
      values.add(Double.isNaN(value) ? null : value);
    }
    chart.addSeries(yTitle, names, values);
    return chart;
  }

  private static double number(Properties f, String key) {
    String value = f.getProperty(key);
    return value == null ? Double.NaN : Double.parseDouble(value);
  }

  private static long count(Properties f, String key) {
    String value = f.getProperty(key);
    return value == null ? -1 : Long.parseLong(value);
  }

  private static String format(String pattern, double value) {
    return Double.isNaN(value) || Double.isInfinite(value) ? "n/a" : String.format(Locale.ROOT, pattern, value);
  }

  private static String whole(long value) {
    return value < 0 ? "n/a" : String.valueOf(value);
  }
}
