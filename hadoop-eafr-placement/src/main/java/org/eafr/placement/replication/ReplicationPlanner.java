package org.eafr.placement.replication;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.destination.DestinationPolicy;
import org.eafr.placement.destination.PlacementRequest;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.settings.EafrSettings;

/**
 * Adaptive replication, EAFR Algorithm 1 with Eq. 6-8 (Lin and Shen, Sec. 3.2.3). Once per interval T, for each
 * classified file, at most one action:
 * <ol>
 *   <li>HOT file: if more than gamma_s of its replica servers that serve reads are overloaded (Eq. 6: count of
 *       h/c_c &gt; tau_c is &gt; r_i * gamma_s, with r_i counting the awake replicas), ADD one replica on a hot server
 *       chosen by the destination policy (EAFR: Eq. 10-12), copied from the replica server with the most spare
 *       service capacity.</li>
 *   <li>COLD file with r_i &gt; r: DELETE the replica on the server with the least remaining capacity phi (Eq. 7),
 *       among those whose loss keeps eps replicas on hot servers.</li>
 *   <li>COLD file with r_i == r and more than eps replicas on hot servers: MIGRATE the replica of the least-phi hot
 *       server (Eq. 7) to a standby server chosen by the destination policy. A standby server that the round's
 *       migrations push below the storage reserve is reported as turning cold (Eq. 8).</li>
 * </ol>
 *
 * <p>Constraints: a file never drops below r live replicas or below eps replicas on hot servers because of a plan
 * (files already below are left to recovery); a target never already holds the file and always has room for it above
 * the reserve, counting the bytes earlier actions of the same round put there. Only awake servers (hot, standby) give
 * up replicas: deleting from a sleeping cold server would wake it. Replica servers that are failed or not in the view
 * do not count as live. Inputs are not modified; the plan is a value.
 *
 * <p>Why Eq. 6 counts only awake replicas: a sleeping (cold) replica serves no read, so it cannot relieve an
 * overloaded one, yet with the literal r_i it halves the count's weight. A cold file (one replica migrated to a
 * standby server that has since slept) that turns hot again has one serving replica; when a burst of reads (a job's
 * map tasks) swamps it, 1 overloaded of r_i = 2 is not &gt; 2 * 0.5 and the literal rule never adds a replica. On the
 * SWIM FB-2009 trace 65% of EAFR's reads found a single awake replica and EAFR added 1-10 replicas an hour for 3-32 hot
 * files judged "not overloaded" (docs/evaluation-eafr.md).
 *
 * <p>Worked example (defaults: r=2, eps=1, gamma_s=0.5, tau_c=0.8). Hot file f on H1 (h=13 of c_c=15: 0.867, phi 2)
 * and H2 (h=17 of 20: 0.85, phi 3): 2 overloaded &gt; 2 * 0.5, so ADD f, copied from H2 (more spare capacity), to the
 * destination policy's pick among hot servers. Cold file g on H1 (phi 2), H3 (h=6 of 15, phi 9) and standby S1 (h=0
 * of 10, phi 10): r_i = 3 &gt; r and 2 hot replicas &gt; eps, so DELETE g on H1 (least phi). Cold file k on H3 and H4
 * (h=5 of 10, phi 5): r_i = 2 = r and 2 hot &gt; eps, so MIGRATE k from H4 (least phi) to a standby server.
 * Hot file m on H1 (overloaded) and C1 (cold, asleep): 1 overloaded of 1 awake &gt; 1 * 0.5, so ADD m from H1.
 */
public final class ReplicationPlanner {
  private final int minReplicas;
  private final int minHotReplicas;
  private final double overloadedFraction;
  private final double overloadThreshold;
  private final StorageReserve reserve;
  private final DestinationPolicy destinations;
  private final ExcessReplicaSelector excessReplicas;

  /**
   * @param minReplicas r, at least 1
   * @param minHotReplicas eps, in [0, r)
   * @param overloadedFraction gamma_s in (0,1)
   * @param overloadThreshold tau_c in (0,1]
   */
  public ReplicationPlanner(int minReplicas, int minHotReplicas, double overloadedFraction, double overloadThreshold,
      StorageReserve reserve, DestinationPolicy destinations) {
    if (minReplicas < 1) {
      throw new IllegalArgumentException("minReplicas (r) = " + minReplicas + " is not allowed: expected >= 1");
    }
    if (minHotReplicas < 0 || minHotReplicas >= minReplicas) {
      throw new IllegalArgumentException("minHotReplicas (eps) = " + minHotReplicas
          + " is not allowed: expected 0 <= eps < r = " + minReplicas);
    }
    if (!(overloadedFraction > 0 && overloadedFraction < 1)) {
      throw new IllegalArgumentException("overloadedFraction (gamma_s) = " + overloadedFraction
          + " is not allowed: expected a number in (0, 1)");
    }
    if (!(overloadThreshold > 0 && overloadThreshold <= 1)) {
      throw new IllegalArgumentException("overloadThreshold (tau_c) = " + overloadThreshold
          + " is not allowed: expected a number in (0, 1]");
    }
    this.minReplicas = minReplicas;
    this.minHotReplicas = minHotReplicas;
    this.overloadedFraction = overloadedFraction;
    this.overloadThreshold = overloadThreshold;
    this.reserve = reserve;
    this.destinations = destinations;
    this.excessReplicas = new ExcessReplicaSelector(minHotReplicas);
  }

  /** A planner with r, eps, gamma_s, tau_c and tau_s from {@code settings}. */
  public static ReplicationPlanner from(EafrSettings settings, DestinationPolicy destinations) {
    return new ReplicationPlanner(settings.minReplicas(), settings.minHotReplicas(), settings.overloadedFraction(),
        settings.overloadThreshold(), new StorageReserve(settings.storageReserveBytes()), destinations);
  }

  /** Plans one interval's actions for {@code files} on {@code cluster}. */
  public ReplicationPlan plan(List<ClassifiedFile> files, ClusterView cluster) {
    Round round = new Round(cluster);
    for (ClassifiedFile file : files) {
      round.count(planFile(file, round));
    }
    return round.toPlan();
  }

  private PlanOutcome planFile(ClassifiedFile classified, Round round) {
    if (classified.temperature() == FileTemperature.NORMAL) {
      return PlanOutcome.NORMAL;
    }
    Replicas replicas = round.replicasOf(classified.file());
    if (replicas.live.size() < minReplicas) {
      return PlanOutcome.UNDER_REPLICATED;
    }
    return classified.temperature() == FileTemperature.HOT
        ? planHot(classified.file(), replicas, round)
        : planCold(classified.file(), replicas, round);
  }

  /** Alg. 1 lines 2-4 with Eq. 6 over the replica servers that serve reads (see the class comment). */
  private PlanOutcome planHot(ReplicatedFile file, Replicas replicas, Round round) {
    List<Server> awake = replicas.awake();
    if (awake.isEmpty()) {
      return PlanOutcome.NO_AWAKE_SOURCE;
    }
    long overloaded = awake.stream().filter(s -> s.isOverloaded(overloadThreshold)).count();
    if (overloaded <= awake.size() * overloadedFraction) {
      return PlanOutcome.HOT_NOT_OVERLOADED;
    }
    Server source = mostSpared(awake);
    Optional<Server> target = round.choose(file, source, ServerRole.HOT);
    if (target.isEmpty()) {
      return PlanOutcome.NO_HOT_DESTINATION;
    }
    round.place(ReplicaAction.add(file.id(), file.sizeBytes(), source.id(), target.get().id()));
    return PlanOutcome.ADDED;
  }

  /** Alg. 1 lines 5-15 with Eq. 7 and Eq. 8. */
  private PlanOutcome planCold(ReplicatedFile file, Replicas replicas, Round round) {
    if (replicas.live.size() > minReplicas) {
      Optional<Server> excess = excessReplicas.choose(replicas.live, replicas.ids());
      if (excess.isEmpty()) {
        return PlanOutcome.NO_REMOVABLE_REPLICA;
      }
      round.place(ReplicaAction.delete(file.id(), file.sizeBytes(), excess.get().id()));
      return PlanOutcome.DELETED;
    }
    if (replicas.hot.size() <= minHotReplicas) {
      return PlanOutcome.AT_MINIMUM;
    }
    Server source = leastSpared(replicas.hot);
    Optional<Server> target = round.choose(file, source, ServerRole.STANDBY);
    if (target.isEmpty()) {
      return PlanOutcome.NO_STANDBY_DESTINATION;
    }
    round.place(ReplicaAction.migrate(file.id(), file.sizeBytes(), source.id(), target.get().id()));
    return PlanOutcome.MIGRATED;
  }

  /** Eq. 7 for a migration's source: the server with the least remaining service capacity phi; ties keep order. */
  private static Server leastSpared(List<Server> servers) {
    return servers.stream().min(Comparator.comparingInt(Server::remainingServiceCapacity)).orElseThrow();
  }

  /** The copy source: the awake replica server with the most spare service capacity; ties keep replica order. */
  private static Server mostSpared(List<Server> servers) {
    Server best = servers.get(0);
    for (Server server : servers) {
      if (server.remainingServiceCapacity() > best.remainingServiceCapacity()) {
        best = server;
      }
    }
    return best;
  }

  /** A file's live replica servers, split by role, in replica order. */
  private static final class Replicas {
    final List<Server> live = new ArrayList<>();
    final List<Server> hot = new ArrayList<>();
    final List<Server> standby = new ArrayList<>();

    Set<String> ids() {
      Set<String> ids = new LinkedHashSet<>();
      live.forEach(s -> ids.add(s.id()));
      return ids;
    }

    List<Server> awake() {
      List<Server> awake = new ArrayList<>(hot);
      awake.addAll(standby);
      awake.sort(Comparator.comparingInt(live::indexOf));
      return awake;
    }
  }

  /**
   * One round's working state: the pools of hot and standby servers with the bytes this round already placed on
   * them, the actions, and the outcome counts. Pools are updated in place by index, so a placement costs O(1).
   */
  private final class Round {
    private final ClusterView cluster;
    private final Map<ServerRole, List<Server>> pools = new EnumMap<>(ServerRole.class);
    private final Map<String, Integer> poolIndex = new HashMap<>();
    private final List<ReplicaAction> actions = new ArrayList<>();
    private final Set<String> turningCold = new LinkedHashSet<>();
    private final Map<PlanOutcome, Integer> outcomes = new EnumMap<>(PlanOutcome.class);

    Round(ClusterView cluster) {
      this.cluster = cluster;
      for (ServerRole role : new ServerRole[] {ServerRole.HOT, ServerRole.STANDBY}) {
        List<Server> pool = new ArrayList<>(cluster.withRole(role));
        for (int i = 0; i < pool.size(); i++) {
          poolIndex.put(pool.get(i).id(), i);
        }
        pools.put(role, pool);
      }
    }

    Replicas replicasOf(ReplicatedFile file) {
      Replicas replicas = new Replicas();
      for (String id : file.replicaServers()) {
        cluster.find(id).filter(s -> s.role().holdsLiveReplicas()).ifPresent(s -> {
          replicas.live.add(s);
          if (s.role() == ServerRole.HOT) {
            replicas.hot.add(s);
          } else if (s.role() == ServerRole.STANDBY) {
            replicas.standby.add(s);
          }
        });
      }
      return replicas;
    }

    Optional<Server> choose(ReplicatedFile file, Server source, ServerRole role) {
      PlacementRequest request = PlacementRequest.newReplica(file, source.id());
      Optional<Server> target = destinations.choose(request, pools.get(role));
      target.ifPresent(t -> requireEligible(request, t, role));
      return target;
    }

    /** The destination policy is pluggable; the planner's guarantees must not depend on its correctness. */
    private void requireEligible(PlacementRequest request, Server target, ServerRole role) {
      List<Server> pool = pools.get(role);
      Integer index = poolIndex.get(target.id());
      Server current = index == null || index >= pool.size() ? null : pool.get(index);
      if (current == null || !current.id().equals(target.id()) || request.excludes(target.id())
          || !reserve.canHold(current, request.sizeBytes())) {
        throw new IllegalStateException("destination policy " + destinations + " chose " + target + " for "
            + request + ", which is not an eligible " + role + " server");
      }
    }

    void place(ReplicaAction action) {
      actions.add(action);
      if (action.target() != null) {
        Server target = cluster.server(action.target());
        List<Server> pool = pools.get(target.role());
        int index = poolIndex.get(target.id());
        Server filled = pool.get(index).withStorageUsed(pool.get(index).storageUsed() + action.sizeBytes());
        pool.set(index, filled);
        if (reserve.shouldTurnCold(filled)) {
          turningCold.add(filled.id());
        }
      }
    }

    void count(PlanOutcome outcome) {
      outcomes.merge(outcome, 1, Integer::sum);
    }

    ReplicationPlan toPlan() {
      return new ReplicationPlan(actions, new ArrayList<>(turningCold), outcomes);
    }
  }
}
