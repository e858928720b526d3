package org.eafr.sim.stats;

/**
 * Latencies in microseconds, kept in buckets so memory does not grow with the number of reads: exact to 10 us below
 * 100 ms, then buckets 1% wide. Percentiles are nearest-rank over bucket lower bounds; the mean and the count above a
 * threshold are exact.
 */
public final class LatencyHistogram {
  private static final int LINEAR_BUCKETS = 10_000;
  private static final long LINEAR_WIDTH = 10;
  private static final long LINEAR_LIMIT = LINEAR_BUCKETS * LINEAR_WIDTH;
  private static final double LOG_BASE = Math.log(1.01);
  private static final int LOG_BUCKETS = 2_500;

  private final long[] counts = new long[LINEAR_BUCKETS + LOG_BUCKETS];
  private final long thresholdMicros;
  private long count;
  private long aboveThreshold;
  private double sum;

  /** @param thresholdMicros latencies strictly above it are counted in {@link #shareAbove()} */
  public LatencyHistogram(long thresholdMicros) {
    this.thresholdMicros = thresholdMicros;
  }

  public void record(long micros) {
    if (micros < 0) {
      throw new IllegalArgumentException("latency " + micros + " us is not allowed: expected >= 0");
    }
    counts[bucket(micros)]++;
    count++;
    sum += micros;
    if (micros > thresholdMicros) {
      aboveThreshold++;
    }
  }

  private static int bucket(long micros) {
    if (micros < LINEAR_LIMIT) {
      return (int) (micros / LINEAR_WIDTH);
    }
    int log = (int) (Math.log((double) micros / LINEAR_LIMIT) / LOG_BASE);
    return LINEAR_BUCKETS + Math.min(LOG_BUCKETS - 1, log);
  }

  private static double lowerBound(int bucket) {
    if (bucket < LINEAR_BUCKETS) {
      return bucket * LINEAR_WIDTH;
    }
    return LINEAR_LIMIT * Math.exp((bucket - LINEAR_BUCKETS) * LOG_BASE);
  }

  public long count() {
    return count;
  }

  /** Mean in microseconds; 0 when empty. */
  public double mean() {
    return count == 0 ? 0 : sum / count;
  }

  /** The nearest-rank {@code p}-th percentile (0 &lt; p &lt;= 100) in microseconds; 0 when empty. */
  public double percentile(double p) {
    if (count == 0) {
      return 0;
    }
    long rank = Math.max(1, (long) Math.ceil(p / 100.0 * count));
    long seen = 0;
    for (int i = 0; i < counts.length; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return lowerBound(i);
      }
    }
    return lowerBound(counts.length - 1);
  }

  /** Share of latencies above the threshold; 0 when empty. */
  public double shareAbove() {
    return count == 0 ? 0 : (double) aboveThreshold / count;
  }
}
