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
 * for every other mode measured (e.g. {@code pacing} and {@code window}, or {@code eafr}), and each one's ratio to
 * stock (below 1 is better for times, retransmissions and timeouts, above 1 for goodput), with the goal where there
 * is one and whether each mode meets it. Also writes the medians into docs/evaluation-real-daemons.md between two
 * markers, so a re-run replaces the section and leaves the rest of the file alone, and every round into
 * docs/bench/incast-rounds.md ({@link #ROUNDS_FILE}).
 */
public final class BenchReport {
  static final String BEGIN = "<!-- scripts/bench/incast.sh: begin (generated; a re-run replaces it) -->";
  static final String END = "<!-- scripts/bench/incast.sh: end -->";
  static final String STOCK = "stock";
  /** Where the rounds go, relative to the folder of the document the medians go into. */
  static final String ROUNDS_FILE = "bench/incast-rounds.md";

  private final List<RoundResult> results;

  public BenchReport(List<RoundResult> results) {
    this.results = List.copyOf(results);
  }

  /** The Markdown table of medians and ratios, then the rounds. */
  public String markdown() {
    return medians() + "Every round (times in ms):\n\n" + rounds();
  }

  /** Per scenario, the table of medians and ratios to stock, each followed by a blank line. */
  public String medians() {
    StringBuilder md = new StringBuilder();
    for (String scenario : scenarios()) {
      List<String> modes = modes(scenario);
      md.append("| scenario | metric | stock |");
      modes.forEach(mode -> md.append(' ').append(mode).append(" |"));
      modes.forEach(mode -> md.append(' ').append(mode).append(" / stock |"));
      md.append(" goal |\n|---|---|---|").append("---|".repeat(2 * modes.size())).append("---|\n");
      boolean incast = scenario.equals("incast");
      metric(md, scenario, modes, "block transfer time p50 (s)", r -> r.p50Millis() / 1000.0, Goal.NONE);
      metric(md, scenario, modes, "block transfer time p99 (s)", r -> r.p99Millis() / 1000.0,
          incast ? Goal.atMost(0.8) : Goal.NONE);
      metric(md, scenario, modes, "re-replication completion (s)", r -> r.completionMillis() / 1000.0,
          incast ? Goal.NONE : Goal.atMost(0.8));
      metric(md, scenario, modes, "goodput into receivers (Mbit/s)", RoundResult::goodputMbitPerSecond,
          incast ? Goal.atLeast(0.95) : Goal.NONE);
      metric(md, scenario, modes, "TCP retransmitted segments", r -> r.retransmittedSegments(), Goal.NONE);
      metric(md, scenario, modes, "TCP retransmission timeouts", r -> r.timeouts(),
          incast ? Goal.atMost(1.0) : Goal.NONE);
      md.append('\n');
    }
    return md.toString();
  }

  /** The table of every round, times in ms. */
  public String rounds() {
    StringBuilder md = new StringBuilder("| scenario | mode | round | blocks | p50 | p99 | goodput Mbit/s"
        + " | retransmitted | timeouts | completion |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (RoundResult r : results) {
      md.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %d | %d | %.1f | %d | %d | %d |%n", r.scenario(),
          r.mode(), r.round(), r.blocks(), r.p50Millis(), r.p99Millis(), r.goodputMbitPerSecond(),
          r.retransmittedSegments(), r.timeouts(), r.completionMillis()));
    }
    return md.toString();
  }

  /** A bound on a ratio to stock: at most (times, losses) or at least (goodput). */
  static final class Goal {
    static final Goal NONE = new Goal("", 0, false);
    final String text;
    final double bound;
    final boolean atMost;

    private Goal(String text, double bound, boolean atMost) {
      this.text = text;
      this.bound = bound;
      this.atMost = atMost;
    }

    static Goal atMost(double bound) {
      return new Goal("<= " + bound, bound, true);
    }

    static Goal atLeast(double bound) {
      return new Goal(">= " + bound, bound, false);
    }

    boolean met(double ratio) {
      return atMost ? ratio <= bound : ratio >= bound;
    }
  }

  /** A mode's median over stock's median of one metric; NaN when either is missing or stock's is 0. */
  public double ratio(String scenario, String mode, ToDoubleFunction<RoundResult> metric) {
    double stock = median(rows(scenario, STOCK), metric);
    double other = median(rows(scenario, mode), metric);
    return stock > 0 ? other / stock : Double.NaN;
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

  private void metric(StringBuilder md, String scenario, List<String> modes, String name,
      ToDoubleFunction<RoundResult> metric, Goal goal) {
    double stock = median(rows(scenario, STOCK), metric);
    StringBuilder values = new StringBuilder();
    StringBuilder ratios = new StringBuilder();
    List<String> verdicts = new ArrayList<>();
    for (String mode : modes) {
      double value = median(rows(scenario, mode), metric);
      double ratio = stock > 0 && !Double.isNaN(value) ? value / stock : Double.NaN;
      values.append(' ').append(number(value)).append(" |");
      ratios.append(' ').append(Double.isNaN(ratio) ? "n/a" : String.format(Locale.ROOT, "%.2fx", ratio)).append(" |");
      if (!goal.text.isEmpty() && !Double.isNaN(ratio)) {
        verdicts.add((modes.size() > 1 ? mode + " " : "") + (goal.met(ratio) ? "met" : "not met"));
      }
    }
    String verdict = goal.text + (verdicts.isEmpty() ? "" : ": " + String.join(", ", verdicts));
    md.append(String.format(Locale.ROOT, "| %s | %s | %s |%s%s %s |%n", scenario, name, number(stock), values, ratios,
        verdict));
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

  /** The modes measured in {@code scenario} besides stock, in the order they first appear. */
  private List<String> modes(String scenario) {
    Set<String> modes = new LinkedHashSet<>();
    for (RoundResult r : results) {
      if (r.scenario().equals(scenario) && !r.mode().equals(STOCK)) {
        modes.add(r.mode());
      }
    }
    return new ArrayList<>(modes);
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
