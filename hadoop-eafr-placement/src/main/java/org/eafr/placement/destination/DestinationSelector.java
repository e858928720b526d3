package org.eafr.placement.destination;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.settings.EafrSettings;

/**
 * EAFR's replica destination selection (Lin and Shen, EAFR, Sec. 3.3, Eq. 10-12). Among the candidates (pool members
 * not excluded by the request, with room for the file by {@link StorageReserve#canHold}) it ranks every candidate
 * twice: by expected transfer speed from the request's source, fastest first (rank_t), and by remaining service
 * capacity phi = c_c - h, largest first (rank_c). Each rank j gets the harmonic weight w(j) of Eq. 10
 * ({@link HarmonicRankWeights}), and candidates tied on a key share the mean weight of the ranks they span, so equal
 * servers are equally likely; a candidate's probability is Eq. 11, p = beta * w(rank_t) + (1 - beta) *
 * w(rank_c); and Eq. 12 spins a roulette wheel: x = U[0,1) * sum(P), the chosen candidate is the first j with
 * x &lt; p_1 + ... + p_j.
 *
 * <p>Worked example (beta = 0.5, m = 4, so w = 0.48, 0.24, 0.16, 0.12):
 * <pre>
 *   candidate  speed (MB/s)  phi   rank_t  rank_c  p = 0.5 w_t + 0.5 w_c
 *   A          10            5     4       2       0.5 * 0.12 + 0.5 * 0.24 = 0.18
 *   B          40            1     1       4       0.5 * 0.48 + 0.5 * 0.12 = 0.30
 *   C          20            8     3       1       0.5 * 0.16 + 0.5 * 0.48 = 0.32
 *   D          30            3     2       3       0.5 * 0.24 + 0.5 * 0.16 = 0.20
 * </pre>
 * Speed order B, D, C, A; capacity order C, A, D, B; cumulative P = 0.18, 0.48, 0.80, 1.00. A draw of 0.5 gives
 * x = 0.5, and 0.48 &lt;= 0.5 &lt; 0.80 chooses C.
 *
 * <p>Randomness: exactly one {@code random.nextDouble()} per decision that has at least one candidate (a single
 * candidate is drawn for too, so that the number of draws never depends on the pool); none when there is no
 * candidate. Speed ranking compares speeds as floats (24-bit mantissa): speeds within about one part in 10^7 of each
 * other tie, far finer than any transfer measurement. A speed that is NaN or negative throws.
 *
 * <p>Speed: ranks come from {@link DescendingRanks} (radix ranking of primitive keys, no boxing or comparators), so
 * a decision among 1,000 candidates, filtering included, stays under the 50 microsecond budget (see
 * DestinationSelectionBench).
 *
 * <p>Thread-safe when {@code speeds} is: the only shared mutable state is a cache of the last weights.
 */
public final class DestinationSelector implements DestinationPolicy {
  private final double speedWeight;
  private final CandidateFilter filter;
  private final TransferSpeeds speeds;
  private final Random random;
  private volatile HarmonicRankWeights lastWeights = HarmonicRankWeights.of(1);

  /**
   * @param speedWeight beta of Eq. 11, in [0, 1]: 1 ranks by transfer speed only, 0 by remaining capacity only
   * @param reserve decides which pool members have room for the file (Eq. 8)
   * @param speeds expected transfer speeds, e.g. a {@link TransferSpeedEstimator}
   * @param random the source of the one draw per decision (seed it for reproducible runs)
   */
  public DestinationSelector(double speedWeight, StorageReserve reserve, TransferSpeeds speeds, Random random) {
    if (!(speedWeight >= 0 && speedWeight <= 1)) {
      throw new IllegalArgumentException("speedWeight (beta) = " + speedWeight + " is not allowed: expected [0, 1]");
    }
    this.speedWeight = speedWeight;
    this.filter = new CandidateFilter(reserve);
    this.speeds = Objects.requireNonNull(speeds, "speeds");
    this.random = Objects.requireNonNull(random, "random");
  }

  /** beta from {@code eafr.destination.speed-weight}, tau_s from {@code eafr.storage-reserve.bytes}. */
  public static DestinationSelector from(EafrSettings settings, TransferSpeeds speeds, Random random) {
    return new DestinationSelector(settings.speedWeight(), new StorageReserve(settings.storageReserveBytes()), speeds,
        random);
  }

  @Override
  public Optional<Server> choose(PlacementRequest request, List<Server> pool) {
    List<Server> candidates = filter.candidates(request, pool);
    if (candidates.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(candidates.get(spin(probabilities(request.sourceId(), candidates))));
  }

  /** P of Eq. 11, one entry per candidate in pool order; empty when there is no candidate. */
  double[] probabilities(PlacementRequest request, List<Server> pool) {
    List<Server> candidates = filter.candidates(request, pool);
    return candidates.isEmpty() ? new double[0] : probabilities(request.sourceId(), candidates);
  }

  private double[] probabilities(String sourceId, List<Server> candidates) {
    HarmonicRankWeights weights = weightsFor(candidates.size());
    double[] bySpeed = weights.byDescendingKey(speedKeys(sourceId, candidates));
    double[] byCapacity = weights.byDescendingKey(capacityKeys(candidates));
    double[] p = new double[candidates.size()];
    for (int i = 0; i < p.length; i++) {
      p[i] = speedWeight * bySpeed[i] + (1 - speedWeight) * byCapacity[i];
    }
    return p;
  }

  /** Eq. 12: the first j with x &lt; p_1 + ... + p_j, for x uniform in [0, sum(P)). */
  private int spin(double[] p) {
    double total = 0;
    for (double pj : p) {
      total += pj;
    }
    double x = random.nextDouble() * total;
    double cumulative = 0;
    for (int j = 0; j < p.length; j++) {
      cumulative += p[j];
      if (x < cumulative) {
        return j;
      }
    }
    return p.length - 1; // x = nextDouble() * total can round up to total itself
  }

  /** Sortable int keys of the expected speeds: a non-negative float's raw bits order like the float. */
  private int[] speedKeys(String sourceId, List<Server> candidates) {
    int[] keys = new int[candidates.size()];
    for (int i = 0; i < keys.length; i++) {
      String destinationId = candidates.get(i).id();
      double speed = speeds.expectedSpeed(sourceId, destinationId);
      if (!(speed >= 0)) {
        throw new IllegalArgumentException("expected speed " + speed + " B/s from " + sourceId + " to "
            + destinationId + " is not allowed: expected a number >= 0");
      }
      keys[i] = speed > 0 ? Float.floatToRawIntBits((float) speed) : 0; // folds -0.0 into +0.0
    }
    return keys;
  }

  private static int[] capacityKeys(List<Server> candidates) {
    int[] keys = new int[candidates.size()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = candidates.get(i).remainingServiceCapacity();
    }
    return keys;
  }

  private HarmonicRankWeights weightsFor(int candidates) {
    HarmonicRankWeights weights = lastWeights;
    if (weights.size() != candidates) {
      weights = HarmonicRankWeights.of(candidates);
      lastWeights = weights;
    }
    return weights;
  }
}
