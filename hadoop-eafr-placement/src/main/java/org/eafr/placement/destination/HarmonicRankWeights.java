package org.eafr.placement.destination;

/**
 * The selection weight of the j-th of m ranked candidates, EAFR Eq. 10: w(j) = (1/j) / sum_{k=1..m} 1/k. The weights
 * fall off harmonically with the rank and sum to 1, so the best candidate is favoured without starving the others.
 *
 * <p>Worked example: m = 4 gives sum 1 + 1/2 + 1/3 + 1/4 = 25/12, so w = 12/25, 6/25, 4/25, 3/25 = 0.48, 0.24, 0.16,
 * 0.12.
 *
 * <p>Immutable; {@link DestinationSelector} keeps the last one it built, since the candidate count rarely changes
 * between decisions.
 */
public final class HarmonicRankWeights {
  private final double[] weights;

  private HarmonicRankWeights(double[] weights) {
    this.weights = weights;
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

  /** w(rank), for a 1-based {@code rank} in 1..m. */
  public double weight(int rank) {
    if (rank < 1 || rank > weights.length) {
      throw new IllegalArgumentException("rank = " + rank + " is not allowed: expected 1.." + weights.length);
    }
    return weights[rank - 1];
  }
}
