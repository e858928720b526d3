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
   * Shares by room: the shares of {@link #of}, except that when the cluster has fewer gear groups than the spread
   * needs (the weights would be scaled up), the r - 1 replicas past the equal-work minimum go to the gear groups in
   * proportion to their room instead of in proportion to 1 / (k + i). Each weight is
   *
   * <pre>w_i = min(1, max(1 / (k + i), mu room_i)),  mu such that sum_i w_i = r - 1</pre>
   *
   * (water-filling): a gear group whose minimum 1 / (k + i) already fills its room at the level the others reach keeps
   * the minimum, and the rest fill alike. Every w_i &gt;= 1 / (k + i), so the layout stays equal-work at every gear (b_n
   * &gt;= B / n) and the low tier's argument holds unchanged. The weights do not depend on how much data there is:
   * one copy of B bytes fills gear group i to w_i B / (g room_i).
   *
   * <p>Worked example (the unit test checks it): p = 2, g = 1, r = 3 on 6 servers, gear groups with room 1, 1, 4 and 4.
   * The minimum 1/3 + 1/4 + 1/5 + 1/6 = 0.95 is short of 2; {@link #of} scales every weight by 2.105 (0.702, 0.526,
   * 0.421, 0.351), which fills the first group to 0.702 B. By room, mu = (2 - 1/3 - 1/4) / 8 = 0.17708: weights 1/3,
   * 1/4, 0.70833, 0.70833, so the fullest group holds B / 3 and one copy of up to 3 rooms fits where the scaled weights
   * overflow past 1.42.
   *
   * @param groupRoom each gear group's room (the least usable bytes of its g servers), in chain order; a group
   *     without a known room (0) makes the shares {@link #of}'s again
   */
  public static EqualWorkShares byRoom(int primaries, int groupSize, int replicas, double[] groupRoom) {
    EqualWorkShares plain = of(primaries, groupSize, replicas, groupRoom.length);
    if (plain.scale == 1.0 || !allPositive(groupRoom, plain.weights.length)) {
      return plain;
    }
    double k = (double) primaries / groupSize;
    double low = 0;
    double high = 1 / Arrays.stream(groupRoom).min().orElse(1);
    for (int step = 0; step < 200 && high - low > 1e-15 * high; step++) {
      double mu = (low + high) / 2;
      if (roomWeights(k, groupRoom, mu) < replicas - 1) {
        low = mu;
      } else {
        high = mu;
      }
    }
    double[] weights = new double[groupRoom.length];
    double fixed = 0;
    double free = 0;
    for (int i = 0; i < weights.length; i++) {
      weights[i] = Math.min(1, Math.max(1 / (k + i + 1), high * groupRoom[i]));
      boolean atBound = weights[i] == 1 || weights[i] == 1 / (k + i + 1);
      fixed += atBound ? weights[i] : 0;
      free += atBound ? 0 : weights[i];
    }
    double fix = free > 0 ? (replicas - 1 - fixed) / free : 1;
    for (int i = 0; i < weights.length; i++) {
      boolean atBound = weights[i] == 1 || weights[i] == 1 / (k + i + 1);
      weights[i] = atBound ? weights[i] : weights[i] * fix;
    }
    return new EqualWorkShares(primaries, groupSize, replicas, weights, plain.scale);
  }

  private static double roomWeights(double k, double[] groupRoom, double mu) {
    double sum = 0;
    for (int i = 0; i < groupRoom.length; i++) {
      sum += Math.min(1, Math.max(1 / (k + i + 1), mu * groupRoom[i]));
    }
    return sum;
  }

  private static boolean allPositive(double[] values, int count) {
    for (int i = 0; i < count; i++) {
      if (!(values[i] > 0)) {
        return false;
      }
    }
    return true;
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
