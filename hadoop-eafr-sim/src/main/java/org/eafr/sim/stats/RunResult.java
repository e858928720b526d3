package org.eafr.sim.stats;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The metrics of one policy in one run (EAFR Sec. 4), as an ordered map of column name to value so the
 * table, the CSV and the charts all read the same numbers. Values are formatted with {@link Locale#ROOT} and a fixed
 * number of decimals, so the same run prints the same bytes. {@code x} is the variant's value on a sweep's axis.
 */
public record RunResult(String scenario, String variant, double x, String policy, Map<String, Double> metrics) {
  public RunResult {
    metrics = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
  }

  public double get(String metric) {
    Double value = metrics.get(metric);
    if (value == null) {
      throw new IllegalArgumentException("metric " + metric + " is not allowed: known metrics are "
          + metrics.keySet());
    }
    return value;
  }

  /** A value as the reports print it: 4 decimals, or 6 significant for tiny non-zero values. */
  public static String format(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    return String.format(Locale.ROOT, "%.4f", value);
  }
}
