package org.eafr.sim.policy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.eafr.placement.baseline.HdfsDefaultPlacement;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.destination.DestinationPolicy;
import org.eafr.placement.destination.PlacementRequest;
import org.eafr.placement.destination.RandomDestination;
import org.eafr.placement.recovery.LostReplica;
import org.eafr.placement.recovery.RecoveryPlan;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.sim.engine.UnsharedRandom;
import org.eafr.sim.model.SimFile;

/**
 * What the baselines share: every server stays hot, no rate control, reads go to a random replica (EAFR Sec. 4),
 * new files get HDFS's default placement, and failures are recovered with a random source and destination. Baselines
 * that change replica counts ({@link ScarlettPolicy}, {@link AptStorePolicy}) turn a wanted count into ADD and DELETE
 * actions with {@link #reconcile}: new replicas go where the baseline's core destination policy says.
 */
abstract class BaselinePolicy implements Policy {
  private final String name;
  protected final PolicyEnvironment env;
  protected final StorageReserve reserve;
  protected final HdfsDefaultPlacement hdfs;
  private final RandomReplica randomReads;
  private final RandomRecovery recovery;

  BaselinePolicy(String name, PolicyEnvironment env) {
    this.name = name;
    this.env = env;
    Random random = env.random();
    this.reserve = new StorageReserve(env.settings().eafr().storageReserveBytes());
    this.hdfs = new HdfsDefaultPlacement(reserve, new UnsharedRandom(random.nextLong()));
    this.randomReads = new RandomReplica(new UnsharedRandom(random.nextLong()));
    this.recovery = new RandomRecovery(new RandomDestination(reserve, new UnsharedRandom(random.nextLong())),
        new UnsharedRandom(random.nextLong()), false);
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final boolean powerManaged() {
    return false;
  }

  @Override
  public final boolean receiveRateControl() {
    return false;
  }

  @Override
  public List<Server> placeNewFile(SimFile file, ClusterView cluster) {
    return hdfs.choose(null, env.settings().hdfsReplicas(), file.sizeBytes(), new ArrayList<>(cluster.servers()));
  }

  @Override
  public int replicasPerNewFile() {
    return env.settings().hdfsReplicas();
  }

  @Override
  public final Optional<Server> chooseReplica(String readerRack, List<Server> holders) {
    return randomReads.choose(holders);
  }

  @Override
  public RecoveryPlan recover(String failedId, List<LostReplica> lost, ClusterView cluster) {
    return recovery.recover(failedId, lost, cluster);
  }

  /**
   * ADD actions (copied from the file's first live holder, placed by {@code destinations} among all servers) until
   * the file has {@code wanted} replicas, or DELETE actions of its newest replicas down to {@code wanted}. Bytes placed
   * earlier in the same round are counted through {@code placed}.
   */
  static void reconcile(ReplicatedFile file, int wanted, ClusterView cluster, DestinationPolicy destinations,
      PlacedBytes placed, List<ReplicaAction> actions) {
    List<String> holders = file.replicaServers();
    if (holders.isEmpty()) {
      return;
    }
    if (holders.size() > wanted) {
      for (int i = holders.size() - 1; i >= wanted; i--) {
        actions.add(ReplicaAction.delete(file.id(), file.sizeBytes(), holders.get(i)));
      }
      return;
    }
    Set<String> excluded = new LinkedHashSet<>(holders);
    String source = holders.get(0);
    for (int i = holders.size(); i < wanted; i++) {
      Optional<Server> target = destinations.choose(
          new PlacementRequest(file.id(), file.sizeBytes(), source, excluded), placed.pool(cluster));
      if (target.isEmpty()) {
        return;
      }
      excluded.add(target.get().id());
      placed.add(target.get().id(), file.sizeBytes());
      actions.add(ReplicaAction.add(file.id(), file.sizeBytes(), source, target.get().id()));
    }
  }

  /** Bytes a round has already assigned to each server, so later choices in the round see them. */
  static final class PlacedBytes {
    private final java.util.Map<String, Long> bytes = new java.util.HashMap<>();
    private final Set<String> changed = new HashSet<>();
    private List<Server> pool;

    void add(String serverId, long size) {
      bytes.merge(serverId, size, Long::sum);
      changed.add(serverId);
    }

    List<Server> pool(ClusterView cluster) {
      if (pool == null) {
        pool = new ArrayList<>(cluster.servers());
      }
      if (!changed.isEmpty()) {
        pool.replaceAll(s -> changed.contains(s.id())
            ? cluster.server(s.id()).withStorageUsed(cluster.server(s.id()).storageUsed() + bytes.get(s.id())) : s);
        changed.clear();
      }
      return pool;
    }
  }
}
