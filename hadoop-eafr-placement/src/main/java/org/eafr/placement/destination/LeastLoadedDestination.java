package org.eafr.placement.destination;

import java.util.List;
import java.util.Optional;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;

/**
 * The candidate serving the fewest concurrent reads h, ties to the first in pool order: the destination rule of the
 * CDRM baseline as EAFR Sec. 4 compares against it. Candidates are filtered exactly as for
 * {@link DestinationSelector}. Deterministic.
 *
 * <p>Worked example: candidates A (h = 4), B (h = 2), C (h = 2) choose B.
 */
public final class LeastLoadedDestination implements DestinationPolicy {
  private final CandidateFilter filter;

  public LeastLoadedDestination(StorageReserve reserve) {
    this.filter = new CandidateFilter(reserve);
  }

  @Override
  public Optional<Server> choose(PlacementRequest request, List<Server> pool) {
    Server best = null;
    for (Server candidate : filter.candidates(request, pool)) {
      if (best == null || candidate.concurrentReads() < best.concurrentReads()) {
        best = candidate;
      }
    }
    return Optional.ofNullable(best);
  }
}
