package org.eafr.sim.stats;

import java.util.Arrays;

/** Nearest-rank percentiles of a small array of values (utilization reports, per-file overheads). */
public final class Percentiles {
  private Percentiles() {
  }

  /** The nearest-rank {@code p}-th percentile of {@code values} (0 &lt; p &lt;= 100); 0 for an empty array. */
  public static double of(double[] values, int length, double p) {
    if (length == 0) {
      return 0;
    }
    double[] sorted = Arrays.copyOf(values, length);
    Arrays.sort(sorted);
    int rank = (int) Math.max(1, Math.ceil(p / 100.0 * length));
    return sorted[rank - 1];
  }
}
