package org.eafr.placement.popularity;

/**
 * The two read thresholds of one side of EAFR's classification (Sec. 3.2.2): for hot files tau_u on reads per replica
 * (Eq. 2) and sigma_u on one replica's reads (Eq. 3); for cold files tau_l (Eq. 4) and sigma_l (Eq. 5).
 *
 * <p>Worked example: the EAFR Sec. 4 defaults are hot = (20, 8) and cold = (10, 1).
 *
 * <p>Immutable; both values finite and positive.
 */
public final class ReadThresholds {
  private final double meanReads;
  private final double replicaReads;

  /**
   * @param meanReads tau: the threshold on v_i / r_i
   * @param replicaReads sigma: the threshold on one replica's v_ij
   */
  public ReadThresholds(double meanReads, double replicaReads) {
    this.meanReads = requirePositive("meanReads", meanReads);
    this.replicaReads = requirePositive("replicaReads", replicaReads);
  }

  /** tau_u or tau_l: the threshold on reads per replica, v_i / r_i. */
  public double meanReads() {
    return meanReads;
  }

  /** sigma_u or sigma_l: the threshold on the reads of one replica, v_ij. */
  public double replicaReads() {
    return replicaReads;
  }

  private static double requirePositive(String name, double value) {
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(name + " " + value + " is not allowed: expected a number in (0, +inf)");
    }
    return value;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ReadThresholds)) {
      return false;
    }
    ReadThresholds other = (ReadThresholds) o;
    return Double.compare(meanReads, other.meanReads) == 0 && Double.compare(replicaReads, other.replicaReads) == 0;
  }

  @Override
  public int hashCode() {
    return 31 * Double.hashCode(meanReads) + Double.hashCode(replicaReads);
  }

  @Override
  public String toString() {
    return "(mean " + meanReads + ", replica " + replicaReads + ")";
  }
}
