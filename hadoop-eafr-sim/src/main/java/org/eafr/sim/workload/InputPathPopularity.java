package org.eafr.sim.workload;

import java.util.Arrays;

/**
 * How many jobs read each input path, with the popularity the SWIM FB-2010 input-path data shows (the traces' README):
 * the top 1 / 10 / 100 / 1,000 paths take 3% / 11% / 24% / 35% of the accesses and 92% of the distinct paths are read
 * once. The counts are exact integers for a given number of jobs J, so every top-k share is the target rounded to one
 * access:
 * <ul>
 *   <li>rank 1: round(0.03 J);
 *   <li>ranks 2-10 share round(0.11 J) - round(0.03 J) by weights k^-0.77 (the exponent with which rank 1's count,
 *       continued as n(1) k^-a, sums to the 8% of ranks 2-10, so the head has no step there);
 *   <li>ranks 11-100 share the next 13% by k^-0.9 (rank 10's count continued likewise over 11-100);
 *   <li>ranks 101-1,000 share the next 11%: 2 each (read more than once, as every path above the tail) plus the rest
 *       by Zipf k^-1;
 *   <li>then m paths read twice and the tail, each read once, with m chosen so the tail is 92% of the distinct paths:
 *       once = J - T_1000 - 2m and once = 0.92 (1,000 + m + once) give m = (0.08 (J - T_1000) - 920) / 1.08.
 * </ul>
 * Worked example (FB-2010's 24,442 jobs): 733 / 2,689 / 5,866 / 8,555 accesses on the top 1 / 10 / 100 / 1,000
 * paths (2.999% / 11.00% / 24.00% / 35.00%), 325 paths read twice, 15,237 read once, 16,562 distinct paths, 92.00%
 * read once. Each share is cut at one access, so fewer than {@link #MIN_JOBS} jobs cannot carry it (ranks 101-1,000
 * would be read less than twice, or the tail would exceed 92%).
 */
public final class InputPathPopularity {
  /** The top-k ranks whose shares the SWIM FB-2010 data gives. */
  static final int[] RANKS = {1, 10, 100, 1_000};
  /** Their cumulative shares of all accesses. */
  static final double[] SHARES = {0.03, 0.11, 0.24, 0.35};
  /** Share of the distinct paths read once. */
  static final double ONCE = 0.92;
  /** Fewest jobs for which the counts above exist. */
  public static final int MIN_JOBS = 17_800;

  private static final double[] EXPONENTS = {0, 0.77, 0.9, 1.0};
  private static final int FLOOR_ABOVE_TAIL = 2;

  private InputPathPopularity() {
  }

  /**
   * Accesses per distinct path, most read first, summing to {@code jobs}.
   *
   * @throws IllegalArgumentException when {@code jobs} is below {@link #MIN_JOBS}
   */
  public static int[] accessesByPath(int jobs) {
    if (jobs < MIN_JOBS) {
      throw new IllegalArgumentException("jobs " + jobs + " is not allowed: the SWIM FB-2010 input-path popularity"
          + " needs at least " + MIN_JOBS + " jobs (a trace such as FB-2010's 24,442)");
    }
    int head = RANKS[RANKS.length - 1];
    int[] top = new int[RANKS.length];
    for (int i = 0; i < RANKS.length; i++) {
      top[i] = (int) Math.round(SHARES[i] * jobs);
    }
    int twice = (int) Math.round(((1 - ONCE) * (jobs - top[3]) - ONCE * head) / (2 - ONCE));
    int once = jobs - top[3] - FLOOR_ABOVE_TAIL * twice;
    int[] counts = new int[head + twice + once];
    counts[0] = top[0];
    distribute(top[1] - top[0], 2, 10, EXPONENTS[1], counts);
    distribute(top[2] - top[1], 11, 100, EXPONENTS[2], counts);
    distribute(top[3] - top[2] - FLOOR_ABOVE_TAIL * (head - 100), 101, head, EXPONENTS[3], counts);
    for (int rank = 101; rank <= head; rank++) {
      counts[rank - 1] += FLOOR_ABOVE_TAIL;
    }
    Arrays.fill(counts, head, head + twice, FLOOR_ABOVE_TAIL);
    Arrays.fill(counts, head + twice, counts.length, 1);
    for (int i = 1; i < counts.length; i++) {
      if (counts[i] > counts[i - 1]) {
        throw new IllegalStateException("rank " + (i + 1) + " read " + counts[i] + " times, more than rank " + i
            + " (" + counts[i - 1] + ") at " + jobs + " jobs");
      }
    }
    return counts;
  }

  /**
   * Shares {@code total} among ranks {@code from..to} (1-based) by weights k^-exponent: each rank gets its share
   * rounded down, and the units left (fewer than the ranks) go one each to the first ranks, so the block sums to
   * {@code total} exactly and its counts never increase with the rank.
   */
  private static void distribute(int total, int from, int to, double exponent, int[] counts) {
    if (total < 0) {
      throw new IllegalStateException("ranks " + from + "-" + to + " would be read " + total + " times");
    }
    double sum = 0;
    for (int k = from; k <= to; k++) {
      sum += Math.pow(k, -exponent);
    }
    int left = total;
    for (int k = from; k <= to; k++) {
      counts[k - 1] = (int) Math.floor(total * Math.pow(k, -exponent) / sum);
      left -= counts[k - 1];
    }
    for (int k = from; left > 0; k++, left--) {
      counts[k - 1]++;
    }
  }
}
