package org.eafr.sim.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eafr.placement.baseline.CdrmReplication;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.destination.LeastLoadedDestination;
import org.eafr.placement.destination.PlacementRequest;
import org.eafr.sim.model.SimFile;

/**
 * CDRM as EAFR Sec. 4 runs it: each file gets the replica count {@link CdrmReplication} requires for availability A
 * at failure probability lambda (2 at lambda 0.1 and A 0.98), each replica on the server with the fewest concurrent
 * reads ({@link LeastLoadedDestination}). The pool is rotated by a seeded offset per file, so ties among equally
 * loaded servers (all of them at the start) fall at random instead of always on the first server.
 */
final class CdrmPolicy extends BaselinePolicy {
  private final LeastLoadedDestination leastLoaded;
  private final int replicas;

  CdrmPolicy(PolicyEnvironment env) {
    super("cdrm", env);
    this.leastLoaded = new LeastLoadedDestination(reserve);
    this.replicas = new CdrmReplication().requiredReplicas(env.settings().failureProbability(),
        env.settings().cdrmAvailability());
  }

  @Override
  public int replicasPerNewFile() {
    return replicas;
  }

  @Override
  public List<Server> placeNewFile(SimFile file, ClusterView cluster) {
    List<Server> servers = new ArrayList<>(cluster.servers());
    java.util.Collections.rotate(servers, env.random().nextInt(servers.size()));
    List<Server> chosen = new ArrayList<>();
    java.util.Set<String> excluded = new java.util.LinkedHashSet<>();
    for (int i = 0; i < replicas; i++) {
      Optional<Server> target = leastLoaded.choose(
          new PlacementRequest(file.id(), file.sizeBytes(), null, excluded), servers);
      if (target.isEmpty()) {
        break;
      }
      chosen.add(target.get());
      excluded.add(target.get().id());
    }
    return chosen;
  }

  @Override
  public void readStarted(SimFile file, String serverId, long nowMillis) {
  }

  @Override
  public IntervalDecision endOfInterval(List<SimFile> files, ClusterView cluster, long nowMillis) {
    return IntervalDecision.NONE;
  }
}
