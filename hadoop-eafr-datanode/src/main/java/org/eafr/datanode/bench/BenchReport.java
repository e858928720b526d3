package org.eafr.datanode.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The table of scripts/bench/incast.sh: per scenario, the median over rounds of each metric for the stock mode and
 * for EAFR, and their ratio (EAFR / stock; below 1 is better for times, retransmissions and timeouts, above 1 for
 * goodput), with the goal where it has one. Also writes it into docs/evaluation.md between two markers, so
 * a re-run replaces the section and leaves the rest of the file alone.
 */
public final class BenchReport {
  static final String BEGIN = "<!-- scripts/bench/incast.sh: begin (generated; a re-run replaces it) -->";
  static final String END = "<!-- scripts/bench/incast.sh: end -->";
  static final String STOCK = "stock";
  static final String EAFR = "eafr";

  private final List<RoundResult> results;

  public BenchReport(List<RoundResult> results) {
    this.results = List.copyOf(results);
  }

  /** The Markdown table of medians and ratios, then the rounds. */
  public String markdown() {
    StringBuilder md = new StringBuilder();
    md.append("| scenario | metric | stock | EAFR | EAFR / stock | goal |\n|---|---|---|---|---|---|\n");
    for (String scenario : scenarios()) {
      List<RoundResult> stock = rows(scenario, STOCK);
      List<RoundResult> eafr = rows(scenario, EAFR);
      boolean incast = scenario.equals("incast");
      metric(md, scenario, "block transfer time p50 (s)", stock, eafr, r -> r.p50Millis() / 1000.0, "");
      metric(md, scenario, "block transfer time p99 (s)", stock, eafr, r -> r.p99Millis() / 1000.0,
          incast ? "<= 0.8" : "");
      metric(md, scenario, "re-replication completion (s)", stock, eafr, r -> r.completionMillis() / 1000.0,
          incast ? "" : "<= 0.8");
      metric(md, scenario, "goodput into receivers (Mbit/s)", stock, eafr, RoundResult::goodputMbitPerSecond, "");
      metric(md, scenario, "TCP retransmitted segments", stock, eafr, r -> r.retransmittedSegments(), "");
      metric(md, scenario, "TCP retransmission timeouts", stock, eafr, r -> r.timeouts(), "");
    }
    md.append("\nEvery round (times in ms):\n\n").append("| scenario | mode | round | blocks | p50 | p99 | goodput Mbit/s"
        + " | retransmitted | timeouts | completion |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (RoundResult r : results) {
      md.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %d | %d | %.1f | %d | %d | %d |%n", r.scenario(),
          r.mode(), r.round(), r.blocks(), r.p50Millis(), r.p99Millis(), r.goodputMbitPerSecond(),
          r.retransmittedSegments(), r.timeouts(), r.completionMillis()));
    }
    return md.toString();
  }

  /** EAFR's median over stock's median of one metric; NaN when either is missing or stock's is 0. */
  public double ratio(String scenario, ToDoubleFunction<RoundResult> metric) {
    double stock = median(rows(scenario, STOCK), metric);
    double eafr = median(rows(scenario, EAFR), metric);
    return stock > 0 ? eafr / stock : Double.NaN;
  }

  /** {@code document} with the section between the markers replaced by {@code section}, or appended. */
  public static String replaceSection(String document, String section) {
    String block = BEGIN + "\n" + section + (section.endsWith("\n") ? "" : "\n") + END + "\n";
    int begin = document.indexOf(BEGIN);
    int end = document.indexOf(END);
    if (begin >= 0 && end > begin) {
      int after = end + END.length();
      if (after < document.length() && document.charAt(after) == '\n') {
        after++;
      }
      return document.substring(0, begin) + block + document.substring(after);
    }
    return document + (document.endsWith("\n") ? "\n" : "\n\n") + block;
  }

  private void metric(StringBuilder md, String scenario, String name, List<RoundResult> stock,
      List<RoundResult> eafr, ToDoubleFunction<RoundResult> metric, String goal) {
    double s = median(stock, metric);
    double e = median(eafr, metric);
    double ratio = s > 0 && !Double.isNaN(e) ? e / s : Double.NaN;
    String verdict = goal.isEmpty() || Double.isNaN(ratio) ? goal : goal + (ratio <= 0.8 ? ": met" : ": not met");
    md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n", scenario, name, number(s), number(e),
        Double.isNaN(ratio) ? "n/a" : String.format(Locale.ROOT, "%.2fx", ratio), verdict));
  }

  private static String number(double value) {
    if (Double.isNaN(value)) {
      return "n/a";
    }
    return value == Math.rint(value) && Math.abs(value) >= 100 ? String.format(Locale.ROOT, "%.0f", value)
        : String.format(Locale.ROOT, "%.1f", value);
  }

  /** The median (mean of the middle two for an even count); NaN for no rows. */
  static double median(List<RoundResult> rows, ToDoubleFunction<RoundResult> metric) {
    if (rows.isEmpty()) {
      return Double.NaN;
    }
    List<Double> values = new ArrayList<>();
    for (RoundResult row : rows) {
      values.add(metric.applyAsDouble(row));
    }
    Collections.sort(values);
    int n = values.size();
    return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
  }

  private Set<String> scenarios() {
    Set<String> scenarios = new LinkedHashSet<>();
    for (RoundResult r : results) {
      scenarios.add(r.scenario());
    }
    return scenarios;
  }

  private List<RoundResult> rows(String scenario, String mode) {
    Map<Integer, RoundResult> byRound = new LinkedHashMap<>();
    for (RoundResult r : results) {
      if (r.scenario().equals(scenario) && r.mode().equals(mode)) {
        byRound.put(r.round(), r);
      }
    }
    return new ArrayList<>(byRound.values());
  }
}
