package org.eafr.placement.destination;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;

/**
 * A destination rule applied to a random sample of d candidates instead of the whole pool ({@link CandidateSample}):
 * e.g. EAFR's Eq. 10-12 ({@link DestinationSelector}) over 16 candidates, so one choice costs O(d), not O(pool).
 * Candidates are what every {@link DestinationPolicy} considers: pool members the request does not exclude, with room
 * for the file (Eq. 8); the sample is drawn among them only, so it never wastes a slot on a server the rule would
 * drop. With d = {@link CandidateSample#ALL} it chooses exactly as the rule alone.
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
    long size = request.sizeBytes();
    int[] drawn = sample.draw(pool.size(),
        i -> reserve.canHold(pool.get(i), size) && !request.excludes(pool.get(i).id()));
    List<Server> candidates = new ArrayList<>(drawn.length);
    for (int i : drawn) {
      candidates.add(pool.get(i));
    }
    return rule.choose(request, candidates);
  }
}
