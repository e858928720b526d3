package org.eafr.placement.destination;

import java.util.ArrayList;
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
 * leaves Eq. 10-12 as written): rank_t orders candidates by expected finish time of the copy, (bytes already
 * scheduled to the candidate and not yet received, {@link TransferBacklog}, plus the copy) / V, soonest first, and a
 * candidate expected to finish later than r times the soonest is not a candidate. Copies the NameNode schedules in
 * one burst then spread over the fast links as their queues grow instead of all ranking the idle fast one first, and
 * the roulette never sends a copy down a link that would take several times longer. Worked example (r = 2, a 16 MB
 * copy, MB = 10^6 bytes): A at 12.5 MB/s with 16 MB queued finishes in 2.56 s, B at 12.5 MB/s with nothing queued in
 * 1.28 s, C and D at 3.125 MB/s with nothing queued in 5.12 s; C and D exceed 2 x 1.28 s and are cut, A (exactly
 * 2 x 1.28 s) stays; rank_t is B then A.
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
  private final double finishRatio;
  private final CandidateFilter filter;
  private final TransferSpeeds speeds;
  private final TransferBacklog backlog;
  private final Random random;
  private volatile HarmonicRankWeights lastWeights = HarmonicRankWeights.of(1);

  /**
   * @param speedWeight beta of Eq. 11, in [0, 1]: 1 ranks by transfer speed only, 0 by remaining capacity only
   * @param reserve decides which pool members have room for the file (Eq. 8)
   * @param speeds expected transfer speeds, e.g. a {@link TransferSpeedEstimator}
   * @param random the source of the one draw per decision (seed it for reproducible runs)
   */
  public DestinationSelector(double speedWeight, StorageReserve reserve, TransferSpeeds speeds, Random random) {
    this(speedWeight, 0, reserve, speeds, TransferBacklog.NONE, random);
  }

  /**
   * @param finishRatio r: 0 ranks by speed alone; at least 1 ranks by expected finish time and cuts candidates
   *     finishing later than r times the soonest (see the class comment)
   * @param backlog bytes already scheduled to each destination, for the finish time
   */
  public DestinationSelector(double speedWeight, double finishRatio, StorageReserve reserve, TransferSpeeds speeds,
      TransferBacklog backlog, Random random) {
    if (!(speedWeight >= 0 && speedWeight <= 1)) {
      throw new IllegalArgumentException("speedWeight (beta) = " + speedWeight + " is not allowed: expected [0, 1]");
    }
    if (!(finishRatio == 0 || finishRatio >= 1 && finishRatio < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException("finishRatio (r) = " + finishRatio + " is not allowed: expected 0 or a"
          + " finite number >= 1");
    }
    this.speedWeight = speedWeight;
    this.finishRatio = finishRatio;
    this.filter = new CandidateFilter(reserve);
    this.speeds = Objects.requireNonNull(speeds, "speeds");
    this.backlog = Objects.requireNonNull(backlog, "backlog");
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
    return new DestinationSelector(settings.speedWeight(), settings.finishRatio(),
        new StorageReserve(settings.storageReserveBytes()), speeds, backlog, random);
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
    List<Server> candidates = filter.candidates(request, pool);
    return finishRatio == 0 || candidates.isEmpty() ? candidates : finishingInTime(request, candidates);
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
      double key = finishRatio == 0 ? speedOf(request, candidates.get(i)) : 1 / finishSeconds(request,
          candidates.get(i));
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

  /** (bytes queued to the candidate + the copy, at least 1 byte) / V, in seconds; infinite at speed 0. */
  private double finishSeconds(PlacementRequest request, Server candidate) {
    double speed = speedOf(request, candidate);
    double bytes = (double) backlog.queuedBytes(candidate.id()) + Math.max(1, request.sizeBytes());
    return speed > 0 ? bytes / speed : Double.POSITIVE_INFINITY;
  }

  /** The candidates expected to finish within r times the soonest (all of them when none can finish). */
  private List<Server> finishingInTime(PlacementRequest request, List<Server> candidates) {
    double[] finish = new double[candidates.size()];
    double soonest = Double.POSITIVE_INFINITY;
    for (int i = 0; i < finish.length; i++) {
      finish[i] = finishSeconds(request, candidates.get(i));
      soonest = Math.min(soonest, finish[i]);
    }
    if (soonest == Double.POSITIVE_INFINITY) {
      return candidates;
    }
    List<Server> inTime = new ArrayList<>(candidates.size());
    for (int i = 0; i < finish.length; i++) {
      if (finish[i] <= finishRatio * soonest) {
        inTime.add(candidates.get(i));
      }
    }
    return inTime;
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
