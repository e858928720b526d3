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
 * <p>Finish time (an extension for links of different speeds, {@code eafr.destination.finish-ratio} r &gt;= 1; r = 0
 * leaves Eq. 10-12 as written): rank_t orders candidates by expected finish time of the copy ({@link FinishTimes}),
 * soonest first, and candidates finishing later than r times the soonest are not candidates. In the example of
 * {@link FinishTimes} (r = 2) C and D are cut, and rank_t is B then A.
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
  private final FinishTimes finishTimes;
  private final Random random;
  private volatile HarmonicRankWeights lastWeights = HarmonicRankWeights.of(1);

  /**
   * @param speedWeight beta of Eq. 11, in [0, 1]: 1 ranks by transfer speed only, 0 by remaining capacity only
   * @param reserve decides which pool members have room for the file (Eq. 8)
   * @param speeds expected transfer speeds, e.g. a {@link TransferSpeedEstimator}
   * @param random the source of the one draw per decision (seed it for reproducible runs)
   */
  public DestinationSelector(double speedWeight, StorageReserve reserve, TransferSpeeds speeds, Random random) {
    this(speedWeight, reserve, speeds, FinishTimes.OFF, random);
  }

  /**
   * @param finishTimes when on, rank_t by expected finish time and the late candidates cut (see the class comment)
   */
  public DestinationSelector(double speedWeight, StorageReserve reserve, TransferSpeeds speeds,
      FinishTimes finishTimes, Random random) {
    if (!(speedWeight >= 0 && speedWeight <= 1)) {
      throw new IllegalArgumentException("speedWeight (beta) = " + speedWeight + " is not allowed: expected [0, 1]");
    }
    this.speedWeight = speedWeight;
    this.filter = new CandidateFilter(reserve);
    this.speeds = Objects.requireNonNull(speeds, "speeds");
    this.finishTimes = Objects.requireNonNull(finishTimes, "finishTimes");
    this.random = Objects.requireNonNull(random, "random");
  }

  /** beta, r and tau_s from settings, with nothing queued anywhere ({@link TransferBacklog#NONE}). */
  public static DestinationSelector from(EafrSettings settings, TransferSpeeds speeds, Random random) {
    return from(settings, speeds, TransferBacklog.NONE, random);
  }

  /**
   * beta from {@code eafr.destination.speed-weight}, r from {@code eafr.destination.finish-ratio}, tau_s from
   * {@code eafr.storage-reserve.bytes}.
   */
  public static DestinationSelector from(EafrSettings settings, TransferSpeeds speeds, TransferBacklog backlog,
      Random random) {
    return new DestinationSelector(settings.speedWeight(), new StorageReserve(settings.storageReserveBytes()), speeds,
        FinishTimes.from(settings, speeds, backlog), random);
  }

  @Override
  public Optional<Server> choose(PlacementRequest request, List<Server> pool) {
    List<Server> candidates = candidates(request, pool);
    if (candidates.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(candidates.get(spin(probabilities(request, candidates))));
  }

  /** The candidates Eq. 10-12 rank, in pool order. */
  List<Server> candidates(PlacementRequest request, List<Server> pool) {
    return finishTimes.inTime(request.sourceId(), request.sizeBytes(), filter.candidates(request, pool));
  }

  /** P of Eq. 11, one entry per candidate ({@link #candidates}); empty when there is no candidate. */
  double[] probabilities(PlacementRequest request, List<Server> pool) {
    List<Server> candidates = candidates(request, pool);
    return candidates.isEmpty() ? new double[0] : probabilitiesOf(request, candidates);
  }

  private double[] probabilitiesOf(PlacementRequest request, List<Server> candidates) {
    HarmonicRankWeights weights = weightsFor(candidates.size());
    double[] bySpeed = weights.byDescendingKey(speedKeys(request, candidates));
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

  /**
   * Sortable int keys of rank_t, larger first: the expected speed, or with a finish ratio the inverse of the finish
   * time. A non-negative float's raw bits order like the float.
   */
  private int[] speedKeys(PlacementRequest request, List<Server> candidates) {
    int[] keys = new int[candidates.size()];
    for (int i = 0; i < keys.length; i++) {
      double key = finishTimes.enabled()
          ? 1 / finishTimes.seconds(request.sourceId(), candidates.get(i), request.sizeBytes())
          : speedOf(request, candidates.get(i));
      keys[i] = key > 0 ? Float.floatToRawIntBits((float) key) : 0; // folds -0.0 into +0.0
    }
    return keys;
  }

  private double speedOf(PlacementRequest request, Server candidate) {
    double speed = speeds.expectedSpeed(request.sourceId(), candidate.id());
    if (!(speed >= 0)) {
      throw new IllegalArgumentException("expected speed " + speed + " B/s from " + request.sourceId() + " to "
          + candidate.id() + " is not allowed: expected a number >= 0");
    }
    return speed;
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
