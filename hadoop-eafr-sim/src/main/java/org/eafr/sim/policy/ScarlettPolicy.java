package org.eafr.sim.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eafr.placement.baseline.PeakConcurrency;
import org.eafr.placement.baseline.ScarlettReplication;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.destination.LeastLoadedDestination;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.sim.model.SimFile;

/**
 * Scarlett (as AptStore Sec. IV-D emulates it): every interval T is a learning window; {@link PeakConcurrency} gives
 * each file's peak concurrent reads cf, {@link ScarlettReplication} turns it into max(cf + 1, 3) replicas (capped by
 * the number of servers), and new replicas go to the least-loaded server ({@link LeastLoadedDestination}, Scarlett
 * spreads replicas to the least busy machines). Files not read in the window go back to 3.
 */
final class ScarlettPolicy extends BaselinePolicy {
  private final PeakConcurrency peaks = new PeakConcurrency();
  private final ScarlettReplication scarlett = new ScarlettReplication(1);
  private final LeastLoadedDestination leastLoaded;

  ScarlettPolicy(PolicyEnvironment env) {
    super("scarlett", env);
    this.leastLoaded = new LeastLoadedDestination(reserve);
  }

  @Override
  public void readStarted(SimFile file, String serverId, long nowMillis) {
    peaks.readStarted(file.id(), nowMillis);
  }

  @Override
  public void readFinished(SimFile file, long nowMillis) {
    peaks.readFinished(file.id(), nowMillis);
  }

  @Override
  public boolean wantsReadFinished() {
    return true;
  }

  @Override
  public IntervalDecision endOfInterval(List<SimFile> files, ClusterView cluster, long nowMillis) {
    Map<String, Integer> peak = peaks.peaks();
    List<ReplicaAction> actions = new ArrayList<>();
    PlacedBytes placed = new PlacedBytes();
    for (SimFile file : files) {
      if (file.pendingCopies() > 0 || file.replicaCount() == 0) {
        continue;
      }
      int wanted = Math.min(cluster.size(), scarlett.desiredReplicas(peak.getOrDefault(file.id(), 0)));
      if (wanted != file.replicaCount()) {
        reconcile(file.view(), wanted, cluster, leastLoaded, placed, actions);
      }
    }
    peaks.startWindow(nowMillis);
    return new IntervalDecision(actions, List.of());
  }
}
