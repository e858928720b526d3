package org.eafr.namenode.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures of a bench that runs a baseline ("stock") and a candidate ("eafr") in alternating pairs, one figure per
 * line {@code pair <TAB> label <TAB> metric <TAB> value}, and their report: every run's figure and, per metric, the
 * ratio eafr / stock within each pair with its minimum, median and maximum. Pairing within a pair (the two runs
 * were back to back) cancels the slow drifts of a shared machine that comparing all stock runs to all EAFR runs
 * would not.
 *
 * <p>Worked example: create at 1000 / 900 ops/s (stock / eafr) in pair 1, 800 / 840 in pair 2 and 1000 / 1000 in
 * pair 3 gives ratios 0.90, 1.05 and 1.00: min 0.90, median 1.00, max 1.05.
 */
final class PairedRuns {
  static final String BASELINE = "stock";
  static final String CANDIDATE = "eafr";

  /** metric -> pair -> label -> value, in the order metrics first appear. */
  private final Map<String, Map<Integer, Map<String, Double>>> figures = new LinkedHashMap<>();

  /** Reads lines as written by {@link #line}; blank lines and lines starting with # are skipped. */
  static PairedRuns parse(List<String> lines) {
    PairedRuns runs = new PairedRuns();
    int number = 0;
    for (String line : lines) {
      number++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] fields = line.split("\t");
      if (fields.length != 4) {
        throw new IllegalArgumentException("line " + number + " '" + line
            + "' is not allowed: expected pair, label, metric and value separated by tabs");
      }
      try {
        runs.add(Integer.parseInt(fields[0]), fields[1], fields[2], Double.parseDouble(fields[3]));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("line " + number + " '" + line
            + "' is not allowed: pair must be an integer and value a number", e);
      }
    }
    return runs;
  }

  static String line(int pair, String label, String metric, double value) {
    return String.format(Locale.ROOT, "%d\t%s\t%s\t%.1f", pair, label, metric, value);
  }

  void add(int pair, String label, String metric, double value) {
    if (!BASELINE.equals(label) && !CANDIDATE.equals(label)) {
      throw new IllegalArgumentException("label " + label + " is not allowed: expected " + BASELINE + " or "
          + CANDIDATE);
    }
    Double previous = figures.computeIfAbsent(metric, m -> new TreeMap<>())
        .computeIfAbsent(pair, p -> new LinkedHashMap<>()).put(label, value);
    if (previous != null) {
      throw new IllegalArgumentException("pair " + pair + " has two " + label + " figures for " + metric);
    }
  }

  /** eafr / stock of each pair that has both, in pair order. */
  double[] ratios(String metric) {
    List<Double> ratios = new ArrayList<>();
    for (Map<String, Double> pair : figures.getOrDefault(metric, Map.of()).values()) {
      Double stock = pair.get(BASELINE);
      Double eafr = pair.get(CANDIDATE);
      if (stock != null && eafr != null && stock > 0) {
        ratios.add(eafr / stock);
      }
    }
    return ratios.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** The middle value, or the mean of the two middle values; NaN when there are none. */
  static double median(double[] values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  }

  /** Every run's figures, then the ratio summary of the metrics whose name is in {@code ratioMetrics}. */
  String report(List<String> ratioMetrics) {
    StringBuilder text = new StringBuilder();
    for (Map.Entry<String, Map<Integer, Map<String, Double>>> metric : figures.entrySet()) {
      text.append(metric.getKey()).append(":\n");
      for (Map.Entry<Integer, Map<String, Double>> pair : metric.getValue().entrySet()) {
        text.append(String.format(Locale.ROOT, "  pair %2d  stock %12s  eafr %12s%n", pair.getKey(),
            figure(pair.getValue().get(BASELINE)), figure(pair.getValue().get(CANDIDATE))));
      }
    }
    text.append(String.format(Locale.ROOT, "%-36s %5s %7s %7s %7s%n", "eafr / stock, per pair", "pairs", "min",
        "median", "max"));
    for (String metric : ratioMetrics) {
      double[] ratios = ratios(metric);
      double[] sorted = ratios.clone();
      Arrays.sort(sorted);
      text.append(ratios.length == 0
          ? String.format(Locale.ROOT, "%-36s %5d %7s %7s %7s%n", metric, 0, "n/a", "n/a", "n/a")
          : String.format(Locale.ROOT, "%-36s %5d %7.3f %7.3f %7.3f%n", metric, ratios.length, sorted[0],
              median(ratios), sorted[sorted.length - 1]));
    }
    return text.toString();
  }

  private static String figure(Double value) {
    return value == null ? "n/a" : String.format(Locale.ROOT, "%.1f", value);
  }
}
