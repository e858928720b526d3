package org.eafr.placement.gear.layout;

import java.util.Arrays;

/**
 * The arithmetic of Rabbit's equal-work layout (Amur et al., Sec. 3.1 Eq. 1-3, and Sec. 3.5's gear groups): how many
 * blocks each server holds and how far the layout spreads.
 *
 * <ul>
 *   <li>Eq. 1: the servers p+1 .. s hold the r - 1 non-primary replicas, b_i = B / i each: sum_{i=p+1..s} 1/i = r - 1.
 *       The spread s is the smallest s that satisfies it ({@link #exactSpread}).</li>
 *   <li>Eq. 2-3: ln((s+1)/(p+1)) &lt;= sum &lt;= ln(s/p), so s &gt;= p e^(r-1) ({@link #spreadLowerBound}) and
 *       s &lt;= (p+1) e^(r-1) - 1.</li>
 *   <li>Sec. 3.5: with gear groups of g servers, each server of gear group i holds B / (p + g i). A recovery group (one
 *       server of each gear group) holds the non-primary replicas of p / g primaries, B / g blocks each r - 1 times, so
 *       it needs the fewest G with sum_{i=1..G} g / (p + g i) &gt;= r - 1 ({@link #gearGroupsNeeded}); g = 1 is
 *       Eq. 1 again (G = s - p).</li>
 * </ul>
 *
 * <p>A layout gives each server of gear group i the inclusion weight w_i = 1 / (p/g + i): the chance that a block of
 * its recovery group puts a replica on it, so that it holds B w_i / g = B / (p + g i) blocks. The weights of one
 * recovery group add up to exactly r - 1: the last gear group takes the remainder (it is partly filled, as the last
 * node of the paper's spread). When the cluster has fewer gear groups than G, every weight is scaled up by the same
 * factor to make r - 1 (each server then holds more than B / (p + g i), which keeps the equal-work condition b_n &gt;=
 * B / n); a weight above 1 (one server would need a block twice) is refused.
 *
 * <p>Worked example (Sec. 3.1, Fig. 2: N = 100, B = 10^4, p = 5, r = 4): each primary holds B / p = 2,000 blocks;
 * b_6 = 1,666.67, b_20 = 500 (the B / n that 20 servers on must each serve, where the simple layout of Sec. 2.1 gives
 * only B (r-1) / (N-p) = 315.79), b_100 = 100. Eq. 3: s &gt;= 5 e^3 = 100.43; Eq. 1 exactly: s = 111 (the sum reaches
 * 3.0079 there), within Eq. 2's [100.43, 119.51]. On N = 100 servers the 95 non-primaries reach only
 * H(100) - H(5) = 2.9040 replicas, so the weights scale by 3 / 2.9040 = 1.0330: b_6 = 1,721.74, b_100 = 103.30.
 *
 * <p>Immutable.
 */
public final class EqualWorkShares {
  private final int primaries;
  private final int groupSize;
  private final int replicas;
  private final double[] weights;
  private final double scale;

  private EqualWorkShares(int primaries, int groupSize, int replicas, double[] weights, double scale) {
    this.primaries = primaries;
    this.groupSize = groupSize;
    this.replicas = replicas;
    this.weights = weights;
    this.scale = scale;
  }

  /**
   * The shares for p primaries, gear groups of g servers and r replicas on a cluster with room for at most
   * {@code availableGroups} gear groups.
   */
  public static EqualWorkShares of(int primaries, int groupSize, int replicas, int availableGroups) {
    check(primaries, groupSize, replicas);
    int needed = gearGroupsNeeded(primaries, groupSize, replicas);
    double k = (double) primaries / groupSize;
    if (availableGroups >= needed) {
      double[] weights = new double[needed];
      double sum = 0;
      for (int i = 1; i < needed; i++) {
        weights[i - 1] = 1 / (k + i);
        sum += weights[i - 1];
      }
      weights[needed - 1] = (replicas - 1) - sum;
      return new EqualWorkShares(primaries, groupSize, replicas, weights, 1.0);
    }
    double sum = 0;
    for (int i = 1; i <= availableGroups; i++) {
      sum += 1 / (k + i);
    }
    double scale = (replicas - 1) / sum;
    if (availableGroups < fewestGroups(primaries, groupSize, replicas)) {
      throw new IllegalArgumentException(availableGroups + " gear groups of " + groupSize + " servers are too few"
          + " for " + replicas + " replicas with p = " + primaries + ": the first gear group would need each block"
          + " more than once (" + String.format("%.3f", scale / (k + 1)) + "); use fewer primaries or replicas, or"
          + " more servers");
    }
    double[] weights = new double[availableGroups];
    for (int i = 1; i <= availableGroups; i++) {
      weights[i - 1] = scale / (k + i);
    }
    return new EqualWorkShares(primaries, groupSize, replicas, weights, scale);
  }

  /**
   * The fewest gear groups G on which {@link #of} builds the shares: G >= r - 1, and the first group, scaled to carry
   * the r - 1 non-primary replicas, holds each block at most once: (r - 1) / sum_{i=1..G} 1/(k + i) <= k + 1, k = p /
   * g. Worked example: p = 3, g = 1, r = 3 needs 3 groups (with 2 the first would hold 1.111 of each block).
   */
  public static int fewestGroups(int primaries, int groupSize, int replicas) {
    check(primaries, groupSize, replicas);
    double k = (double) primaries / groupSize;
    double sum = 0;
    int groups = 0;
    while (groups < replicas - 1 || (replicas - 1) / sum / (k + 1) > 1) {
      groups++;
      sum += 1 / (k + groups);
    }
    return groups;
  }

  /** Eq. 3: the spread's lower bound p e^(r-1). */
  public static double spreadLowerBound(int primaries, int replicas) {
    return primaries * Math.exp(replicas - 1);
  }

  /** Eq. 2's upper bound on the spread, (p+1) e^(r-1) - 1. */
  public static double spreadUpperBound(int primaries, int replicas) {
    return (primaries + 1) * Math.exp(replicas - 1) - 1;
  }

  /** Eq. 1: the smallest s with sum_{i=p+1..s} 1/i &gt;= r - 1. */
  public static int exactSpread(int primaries, int replicas) {
    return primaries + gearGroupsNeeded(primaries, 1, replicas);
  }

  /** Sec. 3.5: the fewest gear groups G with sum_{i=1..G} g / (p + g i) &gt;= r - 1. */
  public static int gearGroupsNeeded(int primaries, int groupSize, int replicas) {
    check(primaries, groupSize, replicas);
    double k = (double) primaries / groupSize;
    double sum = 0;
    int groups = 0;
    while (sum < replicas - 1 - 1e-12) {
      groups++;
      sum += 1 / (k + groups);
    }
    return groups;
  }

  private static void check(int primaries, int groupSize, int replicas) {
    if (primaries < 1 || groupSize < 1 || replicas < 2) {
      throw new IllegalArgumentException("p = " + primaries + ", g = " + groupSize + ", r = " + replicas
          + " are not allowed: expected p >= 1, g >= 1 and r >= 2");
    }
  }

  public int primaries() {
    return primaries;
  }

  public int groupSize() {
    return groupSize;
  }

  public int replicas() {
    return replicas;
  }

  /** G, the gear groups that hold data. */
  public int gearGroups() {
    return weights.length;
  }

  /** The factor the weights were scaled by to fit the cluster (1 when the cluster has room for the full spread). */
  public double scale() {
    return scale;
  }

  /**
   * w_i: the chance that a block of a recovery group puts a replica on its server of gear group {@code group}
   * (1-based); the weights of one recovery group add up to r - 1.
   */
  public double weight(int group) {
    if (group < 1 || group > weights.length) {
      throw new IllegalArgumentException("gear group " + group + " is not allowed: expected 1.." + weights.length);
    }
    return weights[group - 1];
  }

  /** b / B of a server of gear group {@code group}: its weight over the g recovery groups. */
  public double secondaryShare(int group) {
    return weight(group) / groupSize;
  }

  /** b / B of a primary: 1 / p. */
  public double primaryShare() {
    return 1.0 / primaries;
  }

  /** The weights of gear groups 1..G (a copy). */
  public double[] weights() {
    return Arrays.copyOf(weights, weights.length);
  }
}
