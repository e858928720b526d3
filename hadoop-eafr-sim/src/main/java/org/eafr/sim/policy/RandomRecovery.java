package org.eafr.sim.policy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.destination.PlacementRequest;
import org.eafr.placement.destination.RandomDestination;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.recovery.LostReplica;
import org.eafr.placement.recovery.RecoveryAssignment;
import org.eafr.placement.recovery.RecoveryFailure;
import org.eafr.placement.recovery.RecoveryPlan;
import org.eafr.placement.recovery.UnrecoverableFile;

/**
 * Recovery without load awareness (EAFR Sec. 4.2.3, EAFR/B): a random live source (an awake one when there is one)
 * and a random destination with room from the core's {@link RandomDestination}, in the pool EAFR would use (hot
 * servers for hot and normal files, standby for cold), or among all awake servers when roles are not managed. The
 * baselines recover this way too, as HDFS picks re-replication sources and targets at random.
 */
final class RandomRecovery {
  private final Random random;
  private final RandomDestination destinations;
  private final boolean powerManaged;

  RandomRecovery(RandomDestination destinations, Random random, boolean powerManaged) {
    this.destinations = destinations;
    this.random = random;
    this.powerManaged = powerManaged;
  }

  RecoveryPlan recover(String failedId, List<LostReplica> lost, ClusterView cluster) {
    List<RecoveryAssignment> assignments = new ArrayList<>();
    List<UnrecoverableFile> unrecoverable = new ArrayList<>();
    Map<String, Long> pending = new HashMap<>();
    for (LostReplica replica : lost) {
      ReplicatedFile file = replica.file();
      Optional<Server> source = source(file, failedId, cluster);
      if (source.isEmpty()) {
        unrecoverable.add(new UnrecoverableFile(file.id(), RecoveryFailure.NO_LIVE_REPLICA));
        continue;
      }
      Optional<Server> target = destinations.choose(PlacementRequest.newReplica(file, source.get().id()),
          pool(replica.temperature(), cluster, pending));
      if (target.isEmpty()) {
        unrecoverable.add(new UnrecoverableFile(file.id(), RecoveryFailure.NO_DESTINATION_WITH_ROOM));
        continue;
      }
      pending.merge(target.get().id(), file.sizeBytes(), Long::sum);
      assignments.add(new RecoveryAssignment(file.id(), source.get().id(), target.get().id(),
          source.get().role() == ServerRole.COLD));
    }
    return new RecoveryPlan(assignments, unrecoverable);
  }

  private Optional<Server> source(ReplicatedFile file, String failedId, ClusterView cluster) {
    List<Server> awake = new ArrayList<>();
    List<Server> asleep = new ArrayList<>();
    for (String id : file.replicaServers()) {
      Optional<Server> holder = id.equals(failedId) ? Optional.empty() : cluster.find(id);
      holder.filter(s -> s.role().servesReads()).ifPresent(awake::add);
      holder.filter(s -> s.role() == ServerRole.COLD).ifPresent(asleep::add);
    }
    List<Server> from = awake.isEmpty() ? asleep : awake;
    return from.isEmpty() ? Optional.empty() : Optional.of(from.get(random.nextInt(from.size())));
  }

  /** The destination pool, with bytes already assigned in this plan counted as used. */
  private List<Server> pool(FileTemperature temperature, ClusterView cluster, Map<String, Long> pending) {
    ServerRole role = powerManaged && temperature == FileTemperature.COLD ? ServerRole.STANDBY : ServerRole.HOT;
    List<Server> pool = new ArrayList<>();
    for (Server server : cluster.withRole(role)) {
      long extra = pending.getOrDefault(server.id(), 0L);
      pool.add(extra == 0 ? server : server.withStorageUsed(server.storageUsed() + extra));
    }
    return pool;
  }
}
