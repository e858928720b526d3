package org.eafr.sim.policy;

import java.util.ArrayList;
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
    List<Server> serving = new ArrayList<>(holders.size());
    for (Server holder : holders) {
      if (holder.role().servesReads()) {
        serving.add(holder);
      }
    }
    return serving.isEmpty() ? Optional.empty() : Optional.of(serving.get(random.nextInt(serving.size())));
  }
}
