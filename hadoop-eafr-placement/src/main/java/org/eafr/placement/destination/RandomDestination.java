package org.eafr.placement.destination;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;

/**
 * A uniformly random candidate: stock HDFS's random choice of a new replica's destination, and the ablation of EAFR
 * without its speed- and capacity-aware choice (Sec. 3.3). Candidates are filtered exactly as for
 * {@link DestinationSelector}. One {@code random.nextInt(m)} per decision with m &gt;= 1 candidates; none otherwise.
 *
 * <p>Worked example: candidates (A, B, C) and a draw nextInt(3) = 2 choose C.
 */
public final class RandomDestination implements DestinationPolicy {
  private final CandidateFilter filter;
  private final Random random;

  public RandomDestination(StorageReserve reserve, Random random) {
    this.filter = new CandidateFilter(reserve);
    this.random = Objects.requireNonNull(random, "random");
  }

  @Override
  public Optional<Server> choose(PlacementRequest request, List<Server> pool) {
    List<Server> candidates = filter.candidates(request, pool);
    if (candidates.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(candidates.get(random.nextInt(candidates.size())));
  }
}
