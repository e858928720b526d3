package org.eafr.placement.popularity;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A threshold x compared strictly against whole counts scaled by n: "count &gt; x * n" and "count &lt; x * n", the
 * comparisons of EAFR Eq. 2-5 (with n = r_i, or n = 1 for a single replica). Exact for x as written in decimal: in
 * doubles 100 * 0.29 = 28.999999999999996, so a count of exactly 29 would wrongly be beyond it. Each comparison becomes
 * one integer compare against a precomputed count, cached for n up to {@value #CACHED_SCALES}.
 *
 * <p>Worked example: x = 0.5 and n = 3 give x * n = 1.5, so counts of 2 or more are above and of 1 or less below; with
 * n = 2, x * n = 1 and a count of 1 is neither.
 */
final class ScaledThreshold {
  private static final int CACHED_SCALES = 64;
  private static final BigDecimal MAX_COUNT = BigDecimal.valueOf(Long.MAX_VALUE);

  private final BigDecimal value;
  private final long[] leastAbove = new long[CACHED_SCALES + 1];
  private final long[] mostBelow = new long[CACHED_SCALES + 1];

  /** {@code value} must be finite and positive; the caller names it in its own error message. */
  ScaledThreshold(double value) {
    this.value = BigDecimal.valueOf(value);
    for (int n = 1; n <= CACHED_SCALES; n++) {
      leastAbove[n] = computeLeastAbove(n);
      mostBelow[n] = computeMostBelow(n);
    }
  }

  /** count &gt; x * n. */
  boolean isAbove(long count, int n) {
    return count >= (n <= CACHED_SCALES ? leastAbove[n] : computeLeastAbove(n));
  }

  /** count &lt; x * n. */
  boolean isBelow(long count, int n) {
    return count <= (n <= CACHED_SCALES ? mostBelow[n] : computeMostBelow(n));
  }

  private long computeLeastAbove(int n) {
    return clamp(scaled(n).setScale(0, RoundingMode.FLOOR).add(BigDecimal.ONE));
  }

  private long computeMostBelow(int n) {
    return clamp(scaled(n).setScale(0, RoundingMode.CEILING).subtract(BigDecimal.ONE));
  }

  private BigDecimal scaled(int n) {
    return value.multiply(BigDecimal.valueOf(n));
  }

  private static long clamp(BigDecimal count) {
    return count.compareTo(MAX_COUNT) >= 0 ? Long.MAX_VALUE : count.longValueExact();
  }
}
