package org.eafr.sim.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eafr.placement.baseline.AptStoreDecision;
import org.eafr.placement.baseline.PopularityPredictor;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.destination.RandomDestination;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.sim.engine.UnsharedRandom;
import org.eafr.sim.model.SimFile;

/**
 * AptStore: every read feeds the {@link PopularityPredictor} (PPA, Eq. 1-2); every interval T is a reference time whose
 * predicted popularities the {@link AptStoreDecision} turns into replica counts (1 below the low bound, 3 in between,
 * more above the high bound, at most 10). The decision's bounds are the core's worked example (low 0.5, high 2, one
 * replica per 0.5 above it): AptStore publishes no values. New replicas go to random servers with room
 * ({@link RandomDestination}), as AptStore leaves placement to HDFS.
 */
final class AptStorePolicy extends BaselinePolicy {
  private final PopularityPredictor predictor = PopularityPredictor.builder().build();
  private final AptStoreDecision decision = new AptStoreDecision(0.5, 2.0, 3, 10, 0.5);
  private final RandomDestination destinations;

  AptStorePolicy(PolicyEnvironment env) {
    super("aptstore", env);
    this.destinations = new RandomDestination(reserve, new UnsharedRandom(env.random().nextLong()));
  }

  @Override
  public void readStarted(SimFile file, String serverId, long nowMillis) {
    predictor.recordAccess(file.id(), file.sizeBytes(), nowMillis);
  }

  @Override
  public IntervalDecision endOfInterval(List<SimFile> files, ClusterView cluster, long nowMillis) {
    Map<String, Double> predicted = predictor.endReferenceTime();
    List<ReplicaAction> actions = new ArrayList<>();
    PlacedBytes placed = new PlacedBytes();
    for (SimFile file : files) {
      Double popularity = predicted.get(file.id());
      if (popularity == null || file.pendingCopies() > 0 || file.replicaCount() == 0) {
        continue;
      }
      int wanted = Math.min(cluster.size(), decision.replicas(popularity));
      if (wanted != file.replicaCount()) {
        reconcile(file.view(), wanted, cluster, destinations, placed, actions);
      }
    }
    return new IntervalDecision(actions, List.of());
  }
}
