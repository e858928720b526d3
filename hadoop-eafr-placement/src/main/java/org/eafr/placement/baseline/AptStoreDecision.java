package org.eafr.placement.baseline;

/**
 * AptStore's decision engine (Krish et al., AptStore, Sec. III-D), as we read it: a file whose predicted popularity is
 * below a low bound gets 1 replica (AptStore moves it to secondary storage); one above a high bound gets the default
 * replication plus one replica per {@code popularityPerReplica} above the bound (rounded up), capped at a maximum; one
 * in between keeps the default replication. The paper says popular files are "replicated based on the function
 * P_predicted(f)" without giving it; the linear step is our choice.
 *
 * <p>Worked example: low 0.5, high 2, default 3, max 10, step 0.5. P = 0.4 gives 1 replica; P = 0.5 and P = 2 give 3;
 * P = 3 gives 3 + ceil((3 - 2) / 0.5) = 5; P = 50 gives 3 + 96, capped at 10.
 */
public final class AptStoreDecision {
  private final double lowPopularity;
  private final double highPopularity;
  private final int defaultReplicas;
  private final int maxReplicas;
  private final double popularityPerReplica;

  /**
   * @param lowPopularity below this a file gets 1 replica; finite
   * @param highPopularity above this a file gets more than the default; at least lowPopularity and finite
   * @param defaultReplicas the replication in between, at least 1 (HDFS: 3)
   * @param maxReplicas the cap, at least defaultReplicas
   * @param popularityPerReplica how much popularity above the high bound earns one more replica, above 0
   */
  public AptStoreDecision(double lowPopularity, double highPopularity, int defaultReplicas, int maxReplicas,
      double popularityPerReplica) {
    checkBounds(lowPopularity, highPopularity);
    if (defaultReplicas < 1) {
      throw new IllegalArgumentException("defaultReplicas " + defaultReplicas + " is not allowed: expected at least 1");
    }
    if (maxReplicas < defaultReplicas) {
      throw new IllegalArgumentException("maxReplicas " + maxReplicas + " is not allowed: expected at least"
          + " defaultReplicas " + defaultReplicas);
    }
    if (!(popularityPerReplica > 0) || Double.isInfinite(popularityPerReplica)) {
      throw new IllegalArgumentException("popularityPerReplica " + popularityPerReplica
          + " is not allowed: expected a finite number above 0");
    }
    this.lowPopularity = lowPopularity;
    this.highPopularity = highPopularity;
    this.defaultReplicas = defaultReplicas;
    this.maxReplicas = maxReplicas;
    this.popularityPerReplica = popularityPerReplica;
  }

  /** The replica count for a file with predicted popularity {@code popularity}. */
  public int replicas(double popularity) {
    if (Double.isNaN(popularity)) {
      throw new IllegalArgumentException("popularity NaN is not allowed: expected a number");
    }
    if (isUnpopular(popularity)) {
      return 1;
    }
    if (popularity <= highPopularity) {
      return defaultReplicas;
    }
    double extra = Math.ceil((popularity - highPopularity) / popularityPerReplica);
    return (int) Math.min(maxReplicas, defaultReplicas + extra);
  }

  /** Below the low bound: AptStore keeps the file's single replica on secondary storage. */
  public boolean isUnpopular(double popularity) {
    return popularity < lowPopularity;
  }

  private static void checkBounds(double low, double high) {
    if (Double.isNaN(low) || Double.isInfinite(low)) {
      throw new IllegalArgumentException("lowPopularity " + low + " is not allowed: expected a finite number");
    }
    if (!(high >= low) || Double.isInfinite(high)) {
      throw new IllegalArgumentException("highPopularity " + high + " is not allowed: expected a finite number at"
          + " least lowPopularity " + low);
    }
  }
}
