package org.eafr.placement.popularity;

import java.util.List;
import java.util.Objects;
import org.eafr.placement.settings.EafrSettings;

/**
 * Classifies a file as hot, cold or normal from its reads in one interval (EAFR Sec. 3.2.2, Eq. 2-5).
 *
 * <p>With r_i replicas, v_i reads of the file and v_ij reads of its replica on server j:
 * <ul>
 *   <li>HOT if Eq. 2, v_i / r_i &gt; tau_u, or Eq. 3, more than r_i * gamma_v replicas have v_ij &gt; sigma_u;</li>
 *   <li>otherwise COLD if Eq. 4, v_i / r_i &lt; tau_l, and Eq. 5, more than r_i * gamma_v replicas have
 *       v_ij &lt; sigma_l;</li>
 *   <li>otherwise NORMAL.</li>
 * </ul>
 * r_i is the number of servers listed; a listed replica with no recorded reads has v_ij = 0, and v_i counts every read
 * of the file, including unattributed ones and reads of replicas since removed. Every comparison is strict: a value
 * exactly at a threshold is not beyond it.
 *
 * <p>Reads are bounds ({@link FileReads}): the hot tests (Eq. 2, 3) use the lower bounds and the cold tests (Eq. 4, 5)
 * the upper bounds, so an uncertain count can only leave a file NORMAL, never add or remove a replica wrongly. When
 * both hot and cold hold, HOT wins: with tau_l &lt;= tau_u and sigma_l &lt;= sigma_u this needs gamma_v &lt; 0.5 (e.g.
 * gamma_v = 0.4 and ten replicas, five busy and five idle, mean under tau_l).
 *
 * <p>Worked example, EAFR defaults (tau_u = 20, sigma_u = 8, tau_l = 10, sigma_l = 1, gamma_v = 0.5), r_i = 2 and
 * v = (12, 0): Eq. 2 fails (12 / 2 = 6 is not above 20), Eq. 3 fails (1 replica above 8 is not more than 2 * 0.5 = 1),
 * Eq. 4 holds (6 &lt; 10), Eq. 5 fails (1 replica below 1 is not more than 1): NORMAL.
 */
public final class PopularityClassifier {
  private final ReadThresholds hot;
  private final ReadThresholds cold;
  private final double replicaFraction;
  private final ScaledThreshold hotMean;
  private final ScaledThreshold busyReplica;
  private final ScaledThreshold coldMean;
  private final ScaledThreshold idleReplica;
  private final ScaledThreshold replicaShare;

  /**
   * @param hot tau_u and sigma_u
   * @param cold tau_l and sigma_l, each at most its hot counterpart
   * @param replicaFraction gamma_v, in (0, 1)
   */
  public PopularityClassifier(ReadThresholds hot, ReadThresholds cold, double replicaFraction) {
    this.hot = Objects.requireNonNull(hot, "hot");
    this.cold = Objects.requireNonNull(cold, "cold");
    requireAtMost("cold meanReads (tau_l)", cold.meanReads(), "hot meanReads (tau_u)", hot.meanReads());
    requireAtMost("cold replicaReads (sigma_l)", cold.replicaReads(), "hot replicaReads (sigma_u)",
        hot.replicaReads());
    if (!(replicaFraction > 0 && replicaFraction < 1)) {
      throw new IllegalArgumentException(
          "replicaFraction (gamma_v) " + replicaFraction + " is not allowed: expected a number in (0, 1)");
    }
    this.replicaFraction = replicaFraction;
    this.hotMean = new ScaledThreshold(hot.meanReads());
    this.busyReplica = new ScaledThreshold(hot.replicaReads());
    this.coldMean = new ScaledThreshold(cold.meanReads());
    this.idleReplica = new ScaledThreshold(cold.replicaReads());
    this.replicaShare = new ScaledThreshold(replicaFraction);
  }

  /** The classifier with tau_u, sigma_u, tau_l, sigma_l and gamma_v from {@code settings}. */
  public static PopularityClassifier from(EafrSettings settings) {
    return new PopularityClassifier(new ReadThresholds(settings.hotMeanReads(), settings.hotReplicaReads()),
        new ReadThresholds(settings.coldMeanReads(), settings.coldReplicaReads()), settings.replicaFraction());
  }

  /** HOT if Eq. 2 or Eq. 3 holds, else COLD if Eq. 4 and Eq. 5 hold, else NORMAL. */
  public FileTemperature classify(FileReads reads, List<String> replicaServers) {
    if (meanReadsHot(reads, replicaServers) || busyReplicasHot(reads, replicaServers)) {
      return FileTemperature.HOT;
    }
    if (meanReadsCold(reads, replicaServers) && idleReplicasCold(reads, replicaServers)) {
      return FileTemperature.COLD;
    }
    return FileTemperature.NORMAL;
  }

  /** Eq. 2 on the lower bound: v_i / r_i &gt; tau_u. */
  public boolean meanReadsHot(FileReads reads, List<String> replicaServers) {
    return hotMean.isAbove(reads.readsLowerBound(), replicaCount(replicaServers));
  }

  /** Eq. 3 on the lower bounds: more than r_i * gamma_v replicas with v_ij &gt; sigma_u. */
  public boolean busyReplicasHot(FileReads reads, List<String> replicaServers) {
    int busy = 0;
    for (String server : replicaServers) {
      if (busyReplica.isAbove(reads.replicaReadsLowerBound(server), 1)) {
        busy++;
      }
    }
    return replicaShare.isAbove(busy, replicaCount(replicaServers));
  }

  /** Eq. 4 on the upper bound: v_i / r_i &lt; tau_l. */
  public boolean meanReadsCold(FileReads reads, List<String> replicaServers) {
    return coldMean.isBelow(reads.readsUpperBound(), replicaCount(replicaServers));
  }

  /** Eq. 5 on the upper bounds: more than r_i * gamma_v replicas with v_ij &lt; sigma_l. */
  public boolean idleReplicasCold(FileReads reads, List<String> replicaServers) {
    int idle = 0;
    for (String server : replicaServers) {
      if (idleReplica.isBelow(reads.replicaReadsUpperBound(server), 1)) {
        idle++;
      }
    }
    return replicaShare.isAbove(idle, replicaCount(replicaServers));
  }

  /** tau_u and sigma_u. */
  public ReadThresholds hotThresholds() {
    return hot;
  }

  /** tau_l and sigma_l. */
  public ReadThresholds coldThresholds() {
    return cold;
  }

  /** gamma_v. */
  public double replicaFraction() {
    return replicaFraction;
  }

  private static int replicaCount(List<String> replicaServers) {
    if (replicaServers.isEmpty()) {
      throw new IllegalArgumentException("replicaServers [] is not allowed: a file has at least one replica");
    }
    return replicaServers.size();
  }

  private static void requireAtMost(String lowName, double low, String highName, double high) {
    if (low > high) {
      throw new IllegalArgumentException(
          lowName + " " + low + " is not allowed: must be at most " + highName + " = " + high);
    }
  }

  @Override
  public String toString() {
    return "PopularityClassifier(hot " + hot + ", cold " + cold + ", gamma_v " + replicaFraction + ")";
  }
}
