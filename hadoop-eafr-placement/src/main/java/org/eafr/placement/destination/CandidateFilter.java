package org.eafr.placement.destination;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;

/**
 * The candidate destinations every {@link DestinationPolicy} chooses among (EAFR Sec. 3.3: "first selects candidates
 * ... that have enough storage space for this file replica"): the pool members the request does not exclude and that
 * have room for the file by {@link StorageReserve#canHold} (Eq. 8). Roles are not filtered: the pool is the caller's.
 * Candidates keep pool order, which is what every tie-break relies on.
 */
final class CandidateFilter {
  private final StorageReserve reserve;

  CandidateFilter(StorageReserve reserve) {
    this.reserve = Objects.requireNonNull(reserve, "reserve");
  }

  /** The candidates for {@code request} in {@code pool}, in pool order; unmodifiable, possibly empty. */
  List<Server> candidates(PlacementRequest request, List<Server> pool) {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(pool, "pool");
    List<Server> candidates = new ArrayList<>(pool.size());
    long size = request.sizeBytes();
    for (Server server : pool) {
      // The storage check is arithmetic; the exclusion check hashes, so it goes second.
      if (reserve.canHold(server, size) && !request.excludes(server.id())) {
        candidates.add(server);
      }
    }
    return Collections.unmodifiableList(candidates);
  }
}
