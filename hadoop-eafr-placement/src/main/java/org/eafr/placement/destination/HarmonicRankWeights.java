package org.eafr.placement.destination;

/**
 * The selection weight of the j-th of m ranked candidates, EAFR Eq. 10: w(j) = (1/j) / sum_{k=1..m} 1/k. The weights
 * fall off harmonically with the rank and sum to 1, so the best candidate is favoured without starving the others.
 *
 * <p>Worked example: m = 4 gives sum 1 + 1/2 + 1/3 + 1/4 = 25/12, so w = 12/25, 6/25, 4/25, 3/25 = 0.48, 0.24, 0.16,
 * 0.12.
 *
 * <p>Ties: candidates with equal keys share the mean weight of the ranks they span, so equal servers are equally
 * likely (a stable order would hand the first of them the largest weight every time, e.g. before any transfer speed
 * is measured). Keys 9, 5, 5, 7 (m = 4) rank 1, 3-4, 3-4, 2: weights 0.48, 0.14, 0.14, 0.24.
 *
 * <p>Immutable; {@link DestinationSelector} keeps the last one it built, since the candidate count rarely changes
 * between decisions.
 */
public final class HarmonicRankWeights {
  private final double[] weights;
  /** cumulative[k] = w(1) + ... + w(k); cumulative[0] = 0. */
  private final double[] cumulative;

  private HarmonicRankWeights(double[] weights) {
    this.weights = weights;
    this.cumulative = new double[weights.length + 1];
    for (int k = 1; k <= weights.length; k++) {
      cumulative[k] = cumulative[k - 1] + weights[k - 1];
    }
  }

  /** The weights of ranks 1..{@code candidates}; {@code candidates} must be at least 1. */
  public static HarmonicRankWeights of(int candidates) {
    if (candidates < 1) {
      throw new IllegalArgumentException("candidates = " + candidates + " is not allowed: expected at least 1");
    }
    double harmonic = 0;
    for (int k = candidates; k >= 1; k--) {
      harmonic += 1.0 / k; // smallest terms first, for the least rounding
    }
    double[] weights = new double[candidates];
    for (int j = 1; j <= candidates; j++) {
      weights[j - 1] = (1.0 / j) / harmonic;
    }
    return new HarmonicRankWeights(weights);
  }

  /** m, the number of ranks. */
  public int size() {
    return weights.length;
  }

  /**
   * The weight of each candidate ranked by descending {@code keys} (m = keys.length), ties sharing the mean weight of
   * the ranks they span. O(m) after the ranking.
   */
  double[] byDescendingKey(int[] keys) {
    if (keys.length != weights.length) {
      throw new IllegalArgumentException("keys of " + keys.length + " candidates is not allowed: expected "
          + weights.length);
    }
    int[] order = inverse(DescendingRanks.of(keys));
    double[] byCandidate = new double[keys.length];
    for (int start = 0; start < order.length;) {
      int end = start + 1;
      while (end < order.length && keys[order[end]] == keys[order[start]]) {
        end++;
      }
      double shared = (cumulative[end] - cumulative[start]) / (end - start);
      for (int i = start; i < end; i++) {
        byCandidate[order[i]] = shared;
      }
      start = end;
    }
    return byCandidate;
  }

  private static int[] inverse(int[] ranks) {
    int[] order = new int[ranks.length];
    for (int i = 0; i < ranks.length; i++) {
      order[ranks[i] - 1] = i;
    }
    return order;
  }

  /** w(rank), for a 1-based {@code rank} in 1..m. */
  public double weight(int rank) {
    if (rank < 1 || rank > weights.length) {
      throw new IllegalArgumentException("rank = " + rank + " is not allowed: expected 1.." + weights.length);
    }
    return weights[rank - 1];
  }
}
