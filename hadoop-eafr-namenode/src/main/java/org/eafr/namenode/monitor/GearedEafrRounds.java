package org.eafr.namenode.monitor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.destination.DestinationPolicy;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.eafr.GearedEafr;
import org.eafr.placement.gear.eafr.GearedEafrPlan;
import org.eafr.placement.gear.eafr.GearedEafrPlanner;
import org.eafr.placement.gear.eafr.OwedMigrations;
import org.eafr.placement.gear.eafr.ReadFloor;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.policy.GearedPolicies;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.replication.ClassifiedFile;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.placement.replication.ReplicationPlan;
import org.eafr.placement.settings.EafrSettings;

/**
 * EAFR on gears in the NameNode's replication rounds ({@code eafr.layout = eafr-geared}): each round plans with the
 * core's {@link GearedEafrPlanner} for the gear in force, as the simulator's eafr-geared policy does each interval,
 * instead of plain Alg. 1. A hot file's extra replica goes to the lowest gears' servers (the planner's hot pool), a
 * removal never takes a file's last live gear-0 replica (or, with a read floor, one of its r floor replicas), and a
 * cold file's migration to the gear above (asleep now) is owed ({@link OwedMigrations}) and handed to the round as a
 * MIGRATE once both its ends are in the running gear and on, one at a time per DataNode. The round carries the
 * actions out with HDFS's own re-replication and excess deletion, as for plain EAFR.
 *
 * <p>Plans only while the gear state is steady: during a shift the gear in force is not the one the servers on
 * match, so the round plans nothing and lets the shift finish. The bytes owed to a DataNode count as used in the
 * planner's view, so owed migrations never overfill it; a file with a migration owed or under way is not planned
 * again until it ends. DataNodes outside the expansion chain are neither sources nor targets. What is owed lives in
 * memory: after a restart the next rounds plan from what HDFS then holds.
 *
 * <p>Not thread-safe: the replication monitor calls it under its own lock.
 */
final class GearedEafrRounds {
  private final GearRuntime gears;
  private final EafrSettings core;
  private final OwedMigrations owed = new OwedMigrations();
  /** The owed migrations handed to the round, by file, until they end. */
  private final Map<String, BlockMove> handedOut = new HashMap<>();

  GearedEafrRounds(GearRuntime gears, EafrSettings core) {
    this.gears = gears;
    this.core = core;
  }

  /** The rounds of eafr-geared when {@code eafr.layout} names it; empty otherwise (the round runs plain Alg. 1). */
  static Optional<GearedEafrRounds> of(GearRuntime gears, EafrSettings core) {
    return gears.settings().policy().filter(policy -> policy == GearedPolicies.EAFR_GEARED)
        .map(policy -> new GearedEafrRounds(gears, core));
  }

  /**
   * The batch planner of one round: the geared planner for the gear in force on each batch's view (plans nothing
   * while no steady gear is in force); with {@code owe} false (a preview) the migrations it plans are not recorded.
   */
  BiFunction<List<ClassifiedFile>, ClusterView, ReplicationPlan> planner(DestinationPolicy destinations,
      boolean owe) {
    Optional<GearedLayout> steady = steadyLayout();
    if (steady.isEmpty()) {
      return (files, view) -> ReplicationPlan.empty();
    }
    GearedLayout layout = steady.get();
    int gear = gears.state().gear();
    GearedEafrPlanner planner = GearedEafrPlanner.from(core, GearedEafr.from(core, layout, floor(layout),
        core.get(EafrSettings.GEAR_REPLICAS)), destinations);
    return (files, view) -> {
      GearedEafrPlan plan = planner.plan(files, onChain(owed.charged(view, layout.chain()), layout.chain()), gear);
      if (owe && !plan.owed().isEmpty()) {
        Map<String, Long> sizes = new HashMap<>();
        files.forEach(file -> sizes.put(file.file().id(), file.file().sizeBytes()));
        plan.owed().forEach(move -> owed.owe(move, sizes.get(move.blockId())));
      }
      return ReplicationPlan.of(plan.now(), plan.outcomes());
    };
  }

  /**
   * The owed migrations due now ({@link OwedMigrations#due}: both ends in the running gear and on by {@code isOn}),
   * each handed out once; the round gives back with {@link #notStarted} those it cannot start.
   */
  List<BlockMove> due(Predicate<String> isOn) {
    Optional<GearedLayout> steady = steadyLayout();
    if (steady.isEmpty() || owed.owedCount() == 0) {
      return List.of();
    }
    GearedLayout layout = steady.get();
    ActiveSet running = layout.serversOn(gears.state().gear());
    List<BlockMove> moves = owed.due(running.intersection(GearRuntime.serversOn(layout, isOn)));
    moves.forEach(move -> handedOut.put(move.blockId(), move));
    return moves;
  }

  /** {@code move} of {@code bytes} as the round's MIGRATE of its file (block ids are the files' paths). */
  ReplicaAction action(BlockMove move, long bytes) {
    ExpansionChain chain = steadyLayout().orElseThrow().chain();
    return ReplicaAction.migrate(move.blockId(), bytes, chain.id(move.from()), chain.id(move.to()));
  }

  /** A due migration the round could not start (budgets, the grid): owed again, for a later round. */
  void notStarted(BlockMove move, long bytes) {
    ended(move.blockId());
    owed.owe(move, bytes);
  }

  /** The action of file {@code path} ended (done or given up): a migration handed out for it is over. */
  void ended(String path) {
    BlockMove move = handedOut.remove(path);
    if (move != null) {
      owed.ended(move);
    }
  }

  /** File {@code path} is gone (deleted or renamed): nothing it owed is made. */
  void forget(String path) {
    ended(path);
    owed.forget(path);
  }

  /** Whether file {@code path} has a migration owed or under way: the round leaves it alone until it ends. */
  boolean pending(String path) {
    return owed.pending(path);
  }

  /** Migrations owed to DataNodes of gears that sleep now, not yet handed out. */
  int owedCount() {
    return owed.owedCount();
  }

  private Optional<GearedLayout> steadyLayout() {
    return gears.state().phase() == ShiftPhase.STEADY ? gears.layout() : Optional.empty();
  }

  /** The read floor of eafr-geared's layout (its equal-work layout), off for any other layout. */
  private ReadFloor floor(GearedLayout layout) {
    return layout instanceof EqualWorkLayout ? GearedPolicies.readFloor(core, (EqualWorkLayout) layout)
        : ReadFloor.off();
  }

  /** DataNodes outside the chain as cold (failed ones stay failed): the gears place nothing on them. */
  private static ClusterView onChain(ClusterView view, ExpansionChain chain) {
    List<Server> servers = new ArrayList<>(view.size());
    boolean changed = false;
    for (Server server : view.servers()) {
      boolean outside = chain.position(server.id()) < 0 && server.role() != ServerRole.FAILED
          && server.role() != ServerRole.COLD;
      servers.add(outside ? server.withRole(ServerRole.COLD) : server);
      changed |= outside;
    }
    return changed ? ClusterView.of(servers) : view;
  }
}
