package org.eafr.placement.destination;

import java.util.List;
import java.util.Optional;
import org.eafr.placement.cluster.Server;

/**
 * The one contract for choosing where a new replica goes: a request and a pool of servers in, one server (or none)
 * out. The caller decides the pool (hot servers for a hot file, standby servers for a migrated cold replica); every
 * implementation skips pool members the request excludes and those without room for the file above the storage
 * reserve, and returns empty when none is left.
 *
 * <p>Implementations: EAFR's {@link DestinationSelector} (Eq. 10-12) and the baselines' simpler rules.
 */
@FunctionalInterface
public interface DestinationPolicy {
  Optional<Server> choose(PlacementRequest request, List<Server> pool);
}
