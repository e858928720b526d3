package org.eafr.placement.baseline;

/**
 * CDRM's replica count (Wei et al., CLUSTER 2010; the CDRM baseline of EAFR Sec. 4): the fewest replicas that keep a
 * file available with the required probability when each server fails independently with probability p. A file is
 * available while at least one replica's server is up, so r replicas give availability 1 - p^r, and CDRM keeps the
 * smallest r from a minimum (EAFR runs CDRM with 2 initial replicas) up to a cap with 1 - p^r &gt;= A.
 *
 * <p>Where the new replicas go is not decided here: CDRM puts each on the server with the fewest concurrent reads,
 * which is {@code org.eafr.placement.destination.LeastLoadedDestination}.
 *
 * <p>The comparison allows 1e-12 of rounding ({@link #TOLERANCE}), so that a target met exactly on paper is met in
 * floating point too: two replicas at p = 0.9 give 1 - 0.81 = 0.19 on paper but 0.18999999999999995 in doubles, and
 * without the tolerance A = 0.19 would need a third replica.
 *
 * <p>Worked example (EAFR Sec. 4): at p = 0.1 and A = 0.98, two replicas give 1 - 0.1^2 = 0.99 &gt;= 0.98, so r = 2;
 * at p = 0.2 and A = 0.8 one replica would do (1 - 0.2 = 0.8) but the minimum is 2; at p = 0.2 and A = 0.99 two give
 * 0.96 and three give 1 - 0.008 = 0.992, so r = 3; at p = 0.5 and A = 0.9, r = 4 (0.9375).
 */
public final class CdrmReplication {
  /** EAFR Sec. 4: CDRM creates 2 replicas of each file initially. */
  public static final int DEFAULT_MIN_REPLICAS = 2;
  /** The largest replica count the settings accept for any policy (eafr.min-replicas is at most 32). */
  public static final int DEFAULT_MAX_REPLICAS = 32;
  /** Rounding allowed when comparing availability with the target. */
  public static final double TOLERANCE = 1e-12;

  private final int minReplicas;
  private final int maxReplicas;

  /**
   * @param minReplicas the fewest replicas of any file, at least 1
   * @param maxReplicas the cap, at least minReplicas
   */
  public CdrmReplication(int minReplicas, int maxReplicas) {
    if (minReplicas < 1) {
      throw new IllegalArgumentException("minReplicas " + minReplicas + " is not allowed: expected at least 1");
    }
    if (maxReplicas < minReplicas) {
      throw new IllegalArgumentException("maxReplicas " + maxReplicas + " is not allowed: expected at least"
          + " minReplicas " + minReplicas);
    }
    this.minReplicas = minReplicas;
    this.maxReplicas = maxReplicas;
  }

  /** CDRM as EAFR Sec. 4 runs it: at least {@value #DEFAULT_MIN_REPLICAS}, at most {@value #DEFAULT_MAX_REPLICAS}. */
  public CdrmReplication() {
    this(DEFAULT_MIN_REPLICAS, DEFAULT_MAX_REPLICAS);
  }

  /**
   * The smallest r from the minimum to the cap with 1 - p^r &gt;= A.
   *
   * @param failureProbability p, each server's independent failure probability, in (0, 1)
   * @param requiredAvailability A, in (0, 1)
   * @throws IllegalArgumentException when p or A is out of range, or A needs more replicas than the cap
   */
  public int requiredReplicas(double failureProbability, double requiredAvailability) {
    checkOpenUnit("failureProbability", failureProbability);
    checkOpenUnit("requiredAvailability", requiredAvailability);
    for (int r = minReplicas; r <= maxReplicas; r++) {
      if (availability(failureProbability, r) >= requiredAvailability - TOLERANCE) {
        return r;
      }
    }
    throw new IllegalArgumentException("requiredAvailability " + requiredAvailability + " is not allowed at"
        + " failureProbability " + failureProbability + ": expected at most " + availability(failureProbability,
        maxReplicas) + ", what the cap of " + maxReplicas + " replicas gives");
  }

  /** 1 - p^r: the probability that at least one of r replicas' servers is up. */
  public static double availability(double failureProbability, int replicas) {
    return 1 - Math.pow(failureProbability, replicas);
  }

  public int minReplicas() {
    return minReplicas;
  }

  public int maxReplicas() {
    return maxReplicas;
  }

  private static void checkOpenUnit(String name, double value) {
    if (!(value > 0 && value < 1)) {
      throw new IllegalArgumentException(name + " " + value + " is not allowed: expected a number in (0, 1)");
    }
  }
}
