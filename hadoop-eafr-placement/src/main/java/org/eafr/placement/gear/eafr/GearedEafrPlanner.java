package org.eafr.placement.gear.eafr;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.destination.DestinationPolicy;
import org.eafr.placement.destination.PlacementRequest;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.replication.ClassifiedFile;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.placement.replication.ReplicationPlan;
import org.eafr.placement.replication.ReplicationPlanner;
import org.eafr.placement.settings.EafrSettings;

/**
 * One interval of EAFR on gears (docs/core-gears.md, "EAFR on gears"): EAFR's {@link ReplicationPlanner} (Lin and Shen,
 * Alg. 1, Eq. 6-8), unchanged, run on {@link GearedEafr#roles} of the gear k running now, with
 * <ul>
 *   <li>ADD (Eq. 6): the destination policy (EAFR: Eq. 10-12) chooses only inside {@link GearedEafr#hotPool}, the
 *       lowest gears with enough eligible servers, so a hot file's extra replica is still served after a
 *       gear-down; the copies this interval already sent to a server count as load there ({@link InboundCopies});</li>
 *   <li>MIGRATE (Eq. 7): the target is a standby server, which in gear k is a server of gear k + 1, the first gear of
 *       {@link GearedEafr#coldPool} (the planner places only on servers it sees as standby, so the pool does not
 *       widen further here; a full standby gear is EAFR's full standby server). That server sleeps in gear k, so the
 *       migration is not made now: it is returned as a {@link BlockMove} the caller owes and makes when the target
 *       wakes, and until then the replica stays where it is;</li>
 *   <li>DELETE and MIGRATE: only from a replica for which {@link GearedEafr#mayRemove} holds (the file keeps a live
 *       replica in gear 0). Eq. 7 picks the least-spared hot replica; when that is the file's last gear-0 replica, the
 *       migration leaves from the least-spared hot replica that may go instead (as Eq. 7's DELETE chooses only among
 *       replicas whose loss keeps eps hot); a removal with no such replica is counted and dropped. So no action
 *       leaves a block without a live replica in any gear.</li>
 * </ul>
 * Hot and cold files are planned apart, each on its own view of the servers. Hot files see gear k's servers on
 * (hot) and every other one asleep (cold), so Eq. 6 counts only the replicas that serve reads: the gear above
 * sleeps, and seen as EAFR's standby it would count as an idle serving replica and hide an overloaded one (1
 * overloaded of 2 is not more than gamma_s = 0.5). Cold files see {@link GearedEafr#roles}, with the gear above as
 * standby.
 * The planner's r is the layout's r: the replicas above it are EAFR's extras for hot files, which Eq. 7 deletes once
 * the file cools; the layout's own replicas are never deleted.
 *
 * <p>Worked example (20 servers s0..s19, p = 5, gear groups of 5, r = 2, eps = 1, tau_c = 0.8, gear 1 running: s0-s9
 * hot, s10-s14 standby; a destination policy that takes the first eligible server). Hot file h on s0 (h = 9 of 10)
 * and s7 (9 of 10): both overloaded, so ADD h from s0 (ties keep replica order) to s1, the first of gear 0's eligible
 * s1-s4. Hot file k on s4 (h = 9) and s12 (gear 2, asleep): 1 overloaded of 1 serving replica, so ADD k from s4 to
 * s1. Cold file c on s3 (phi 10) and s8 (phi 5): MIGRATE c from s8 to s10, owed as the move 8 -> 10. Cold file d on
 * s2 (phi 4) and s6 (phi 9): Eq. 7 picks s2, d's only gear-0 replica, so d migrates from s6 instead: 6 -> 10. Cold
 * file e on s1 (phi 10), s5 (phi 10) and s9 (phi 3), one above r: DELETE e on s9 (s1 stays in gear 0).
 *
 * <p>Stateless and thread-safe when the destination policy is; O(files + servers x hot files) per call.
 */
public final class GearedEafrPlanner {
  private final GearedEafr gears;
  private final int replicas;
  private final int minHotReplicas;
  private final double overloadedFraction;
  private final double overloadThreshold;
  private final StorageReserve reserve;
  private final DestinationPolicy destinations;
  private final int poolSize;

  /**
   * @param replicas r, the layout's replicas per block
   * @param minHotReplicas eps, in [0, r)
   * @param overloadedFraction gamma_s in (0, 1)
   * @param overloadThreshold tau_c in (0, 1]
   * @param poolSize how many eligible servers the hot pool's lowest gears must offer before it stops widening
   *     (EAFR's sample size d; at least 1)
   */
  public GearedEafrPlanner(GearedEafr gears, int replicas, int minHotReplicas, double overloadedFraction,
      double overloadThreshold, StorageReserve reserve, DestinationPolicy destinations, int poolSize) {
    this.gears = Objects.requireNonNull(gears, "gears");
    if (poolSize < 1) {
      throw new IllegalArgumentException("poolSize = " + poolSize + " is not allowed: expected >= 1");
    }
    // The planner checks r, eps, gamma_s and tau_c; build one now so bad values fail here, not at the first interval.
    new ReplicationPlanner(replicas, minHotReplicas, overloadedFraction, overloadThreshold, reserve, destinations);
    this.replicas = replicas;
    this.minHotReplicas = minHotReplicas;
    this.overloadedFraction = overloadedFraction;
    this.overloadThreshold = overloadThreshold;
    this.reserve = Objects.requireNonNull(reserve, "reserve");
    this.destinations = Objects.requireNonNull(destinations, "destinations");
    this.poolSize = poolSize;
  }

  /**
   * eps, gamma_s, tau_c, tau_s and d from {@code settings}; r from {@code eafr.gear.replicas} (the layout's r); d = 0
   * (rank every candidate) widens the hot pool to the whole running gear.
   */
  public static GearedEafrPlanner from(EafrSettings settings, GearedEafr gears, DestinationPolicy destinations) {
    int d = settings.get(EafrSettings.DESTINATION_SAMPLE_SIZE);
    return new GearedEafrPlanner(gears, settings.get(EafrSettings.GEAR_REPLICAS), settings.minHotReplicas(),
        settings.overloadedFraction(), settings.overloadThreshold(),
        new StorageReserve(settings.storageReserveBytes()), destinations, d == 0 ? Integer.MAX_VALUE : d);
  }

  /** Plans one interval for {@code files} on {@code cluster} (its roles are replaced by gear {@code gear}'s). */
  public GearedEafrPlan plan(List<ClassifiedFile> files, ClusterView cluster, int gear) {
    List<ClassifiedFile> hot = new ArrayList<>();
    List<ClassifiedFile> rest = new ArrayList<>();
    for (ClassifiedFile file : files) {
      (file.temperature() == FileTemperature.HOT ? hot : rest).add(file);
    }
    // Hot files see the servers as they are in gear k: on (hot) or asleep (cold), so Eq. 6 counts only serving
    // replicas; the gear above sleeps, and as EAFR's standby it would count as an idle serving replica.
    ClusterView serving = servingView(cluster, gear);
    InboundCopies inbound = new InboundCopies();
    ReplicationPlan plan = planner(serving, gear, inbound).plan(hot, serving);
    // Cold files see the gear above as standby: the target of their migrations.
    ClusterView roles = gears.roles(cluster, gear);
    plan = plan.followedBy(planner(roles, gear, inbound).plan(rest, roles));

    Map<String, ReplicatedFile> byId = new HashMap<>();
    for (ClassifiedFile file : files) {
      byId.put(file.file().id(), file.file());
    }
    ExpansionChain chain = gears.layout().chain();
    List<ReplicaAction> now = new ArrayList<>();
    List<BlockMove> owed = new ArrayList<>();
    int keptForGear0 = 0;
    for (ReplicaAction action : plan.actions()) {
      ReplicatedFile file = byId.get(action.fileId());
      if (action.kind() == ReplicaAction.Kind.ADD) {
        now.add(action);
      } else if (action.kind() == ReplicaAction.Kind.DELETE && gears.mayRemove(roles, file, action.source())) {
        now.add(action);
      } else if (action.kind() == ReplicaAction.Kind.MIGRATE) {
        Optional<Server> source = removableSource(roles, file, action.source());
        if (source.isPresent()) {
          owed.add(new BlockMove(action.fileId(), chain.requirePosition(source.get().id()),
              chain.requirePosition(action.target()), true));
        } else {
          keptForGear0++;
        }
      } else {
        keptForGear0++;
      }
    }
    return new GearedEafrPlan(now, owed, keptForGear0, plan.outcomes());
  }

  private ReplicationPlanner planner(ClusterView view, int gear, InboundCopies inbound) {
    return new ReplicationPlanner(replicas, minHotReplicas, overloadedFraction, overloadThreshold, reserve,
        (request, pool) -> choose(request, pool, view, gear, inbound));
  }

  /** Servers of gears 0..k hot, the others asleep (cold); failed servers stay failed. */
  private ClusterView servingView(ClusterView cluster, int gear) {
    List<Server> servers = new ArrayList<>(cluster.size());
    for (Server server : gears.roles(cluster, gear).servers()) {
      servers.add(server.role() == ServerRole.STANDBY ? server.withRole(ServerRole.COLD) : server);
    }
    return ClusterView.of(servers);
  }

  /**
   * Eq. 7's source among the replicas that may leave: the planner's least-spared hot replica when it may, else the
   * least-spared other hot replica that may (the first of equals), else none.
   */
  private Optional<Server> removableSource(ClusterView roles, ReplicatedFile file, String chosen) {
    if (gears.mayRemove(roles, file, chosen)) {
      return roles.find(chosen);
    }
    Server best = null;
    for (String id : file.replicaServers()) {
      Server server = roles.find(id).orElse(null);
      if (server != null && server.role() == ServerRole.HOT && !id.equals(chosen) && gears.mayRemove(roles, file, id)
          && (best == null || server.remainingServiceCapacity() < best.remainingServiceCapacity())) {
        best = server;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * ADD: EAFR's choice inside the hot pool, with the copies this interval already sent charged as load
   * ({@link InboundCopies}); MIGRATE: the planner's standby pool is already the gear above.
   */
  private Optional<Server> choose(PlacementRequest request, List<Server> pool, ClusterView view, int gear,
      InboundCopies inbound) {
    if (pool.isEmpty() || pool.get(0).role() != ServerRole.HOT) {
      return destinations.choose(request, pool);
    }
    ReplicatedFile file = new ReplicatedFile(request.fileId(), request.sizeBytes(),
        new ArrayList<>(request.excludedServers()));
    Set<String> lowest = new HashSet<>();
    for (Server server : gears.hotPool(inbound.charged(view), file, gear, poolSize)) {
      lowest.add(server.id());
    }
    List<Server> inPool = new ArrayList<>(lowest.size());
    for (Server server : pool) {
      if (lowest.contains(server.id())) {
        inPool.add(inbound.charged(server)); // the planner's copy: it counts the bytes this round already placed
      }
    }
    Optional<Server> chosen = destinations.choose(request, inPool);
    chosen.ifPresent(inbound::sent);
    return chosen;
  }
}
