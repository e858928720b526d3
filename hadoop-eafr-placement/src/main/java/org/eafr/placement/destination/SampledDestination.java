package org.eafr.placement.destination;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;

/**
 * A destination rule applied to a random sample of d candidates instead of the whole pool ({@link CandidateSample}):
 * e.g. EAFR's Eq. 10-12 ({@link DestinationSelector}) over 16 candidates, so one choice costs O(d), not O(pool).
 * Candidates are what every {@link DestinationPolicy} considers: pool members the request does not exclude, with room
 * for the file (Eq. 8), and, through {@link #chooseIndex}, that a caller's own filter allows (e.g. an HDFS rack
 * scope); the sample is drawn among them only, so it never wastes a slot on a server the rule would drop. With
 * d = {@link CandidateSample#ALL} it chooses exactly as the rule alone.
 *
 * <p>Worked example: pool (A, B, C, D, E) where B holds the file, d = 2, draws nextInt(5) = 1, 3, 0: B is excluded,
 * D and A are drawn, and the rule then chooses between A and D only.
 */
public final class SampledDestination implements DestinationPolicy {
  private final DestinationPolicy rule;
  private final CandidateSample sample;
  private final StorageReserve reserve;

  public SampledDestination(DestinationPolicy rule, CandidateSample sample, StorageReserve reserve) {
    this.rule = Objects.requireNonNull(rule, "rule");
    this.sample = Objects.requireNonNull(sample, "sample");
    this.reserve = Objects.requireNonNull(reserve, "reserve");
  }

  @Override
  public Optional<Server> choose(PlacementRequest request, List<Server> pool) {
    Objects.requireNonNull(request, "request");
    if (sample.size() == CandidateSample.ALL) {
      return rule.choose(request, pool);
    }
    int chosen = chooseIndex(request, pool.size(), pool::get, i -> true);
    return chosen < 0 ? Optional.empty() : Optional.of(pool.get(chosen));
  }

  /**
   * The same choice over a pool given by index, for callers whose pool is an array or a view they do not copy:
   * members {@code 0..poolSize-1}, each {@code member.apply(i)}, of which only those {@code allowed} may be drawn.
   *
   * @return the chosen member's index, or -1 when no member is a candidate
   */
  public int chooseIndex(PlacementRequest request, int poolSize, IntFunction<Server> member, IntPredicate allowed) {
    Objects.requireNonNull(request, "request");
    long size = request.sizeBytes();
    int[] drawn = sample.draw(poolSize, i -> allowed.test(i) && isCandidate(member.apply(i), request, size));
    List<Server> candidates = new ArrayList<>(drawn.length);
    for (int i : drawn) {
      candidates.add(member.apply(i));
    }
    Optional<Server> chosen = rule.choose(request, candidates);
    if (chosen.isEmpty()) {
      return -1;
    }
    for (int k = 0; k < drawn.length; k++) {
      if (candidates.get(k) == chosen.get()) {
        return drawn[k];
      }
    }
    throw new IllegalStateException("the rule chose " + chosen.get() + ", which is not among its candidates");
  }

  private boolean isCandidate(Server server, PlacementRequest request, long size) {
    return reserve.canHold(server, size) && !request.excludes(server.id());
  }
}
