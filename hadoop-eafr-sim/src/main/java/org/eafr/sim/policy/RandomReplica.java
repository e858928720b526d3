package org.eafr.sim.policy;

import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.eafr.placement.cluster.Server;

/**
 * The read rule of the baselines and of the eafr-random-reads ablation: "each file read request was forwarded to a
 * randomly selected server that owns the replica" (EAFR Sec. 4), among the holders that serve reads.
 */
final class RandomReplica {
  private final Random random;

  RandomReplica(Random random) {
    this.random = random;
  }

  Optional<Server> choose(List<Server> holders) {
    int serving = 0;
    for (Server holder : holders) {
      if (holder.role().servesReads()) {
        serving++;
      }
    }
    if (serving == 0) {
      return Optional.empty();
    }
    // The n-th serving holder, as if picked from the list of serving holders (no list is built per read).
    int n = random.nextInt(serving);
    for (Server holder : holders) {
      if (holder.role().servesReads() && n-- == 0) {
        return Optional.of(holder);
      }
    }
    throw new IllegalStateException("no serving holder left among " + holders);
  }
}
