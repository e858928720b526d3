package org.eafr.sim.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.LoadSample;
import org.eafr.placement.gear.eafr.GearedEafr;
import org.eafr.placement.gear.eafr.GearedEafrPlan;
import org.eafr.placement.gear.eafr.GearedEafrPlanner;
import org.eafr.placement.gear.eafr.OwedMigrations;
import org.eafr.placement.gear.eafr.ReadFloor;
import org.eafr.placement.gear.eafr.RoundsReader;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.policy.GearedPolicies;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.popularity.PopularityClassifier;
import org.eafr.placement.popularity.ReadStatistics;
import org.eafr.placement.destination.TransferSpeedEstimator;
import org.eafr.placement.grid.WorkKind;
import org.eafr.placement.settings.EafrSettings;
import org.eafr.sim.engine.UnsharedRandom;
import org.eafr.sim.model.SimFile;

/**
 * EAFR on gears (docs/core-gears.md, "EAFR on gears"), wired from the core registry ({@code GearedPolicies.EAFR_GEARED}): Rabbit's equal-work layout and gear controller
 * (as {@code rabbit}) carry the data and pick the servers on; on top, EAFR's adaptive replication every interval T:
 * {@link ReadStatistics} counts reads, {@link PopularityClassifier} classifies (Eq. 2-5), and
 * {@link GearedEafrPlanner} plans for the gear running now with EAFR's destination choice (Eq. 10-12 among d
 * sampled candidates over {@link TransferSpeedEstimator}): a hot file's extra replica goes into the lowest gears at
 * once; a cold file's migration to the gear above is owed and made when its target is on (with the layout's
 * reflection); a removal that would take a file's last gear-0 replica is dropped. With a {@link ReadFloor}
 * (eafr.gear.eafr.read-floor) the layout spreads over the floor's servers, the controller never runs below the gear
 * that keeps them on, and a removal that would leave a file fewer than r replicas there is dropped. Reads go by EAFR's
 * Alg. 3 with queues counted in rounds of each holder's slots ({@link RoundsReader}: the fewest rounds of wait, then
 * the same rack, among the holders that are on).
 *
 * <p>The bytes owed to a server count as used in the planner's view, so owed migrations never overfill it. A file
 * with a copy in flight or a migration owed is not planned again until it lands; a file written anew (a SWIM rewrite)
 * forgets what it owed. A file with a replica the layout still owes home (in the {@code OffloadLedger}: written while
 * its homes slept) is left to the layout until it is home, so EAFR and the ledger never change the same block's
 * replicas, and the ledger is told only of the layout's moves. Degree of power proportionality is measured with the layout's hit-ratio balancer, as for
 * rabbit, on the data as it lies (EAFR's extras included).
 */
final class EafrGearedPolicy extends LayoutPolicy {
  private final ReadStatistics reads;
  private final Temperatures temperatures;
  private final TransferSpeedEstimator speeds;
  private final RoundsReader readers = new RoundsReader();
  private final OwedMigrations owed = new OwedMigrations();
  private final UnsharedRandom destinationRandom;
  private GearedEafrPlanner planner;

  EafrGearedPolicy(PolicyEnvironment env) {
    this("eafr-geared", env);
  }

  /** EAFR on gears named {@code name} (a carbon- or price-aware variant is scheduled with {@link #scheduledFor}). */
  EafrGearedPolicy(String name, PolicyEnvironment env) {
    super(name, env, GearedPolicies.EAFR_GEARED);
    EafrSettings settings = env.settings().eafr();
    this.reads = ReadStatistics.from(settings);
    this.temperatures = new Temperatures(PopularityClassifier.from(settings));
    this.speeds = new TransferSpeedEstimator(settings.ewmaAlpha(), settings.ewmaWindowMillis(), env.clockMillis(),
        TransferSpeedEstimator.DEFAULT_UNMEASURED_SPEED);
    this.destinationRandom = new UnsharedRandom(env.random().nextLong());
  }

  private ReadFloor floor() {
    return GearedPolicies.readFloor(env().settings().eafr(), (EqualWorkLayout) layout());
  }

  @Override
  public void start(ClusterView cluster, LoadSample perServer) {
    super.start(cluster, perServer);
    EafrSettings settings = env().settings().eafr();
    planner = GearedEafrPlanner.from(settings, GearedEafr.from(settings, layout(), floor(),
        settings.get(EafrSettings.GEAR_REPLICAS)), EafrPolicy.destinations(settings, speeds, destinationRandom, true));
  }

  @Override
  public List<Server> placeNewFile(SimFile file, ClusterView cluster) {
    owed.forget(file.id()); // a new version: its old replicas, and what they owed, are gone
    return super.placeNewFile(file, cluster);
  }

  @Override
  public Optional<Server> chooseReplica(String readerRack, List<Server> holders) {
    return readers.select(readerRack, holders);
  }

  @Override
  public void readStarted(SimFile file, String serverId, long nowMillis) {
    reads.recordRead(file.id(), serverId);
  }

  @Override
  public IntervalDecision endOfInterval(List<SimFile> files, ClusterView cluster, long nowMillis) {
    owed.settle(id -> fileOf(files, id).pendingCopies() != 0); // a migration whose copy was abandoned never lands
    var classified = temperatures.classify(files, reads.snapshotAndReset(),
        file -> file.pendingCopies() != 0 || owed.pending(file.id()) || ledger().placement(file.id()).isPresent());
    GearedEafrPlan plan = planner.plan(classified, owed.charged(cluster, chain()), gear());
    for (BlockMove move : plan.owed()) {
      owed.owe(move, fileOf(files, move.blockId()).sizeBytes());
    }
    return new IntervalDecision(plan.now(), List.of());
  }

  /** A file by its block id ("f" and its index: one block per file). */
  private static SimFile fileOf(List<SimFile> files, String blockId) {
    return files.get(Integer.parseInt(blockId.substring(1)));
  }

  /**
   * The layout's reflection, then the owed migrations due ({@link OwedMigrations#due}: both ends in the running gear
   * and on, one at a time per server) when the grid lets them run ({@link WorkKind#COLD_MIGRATION}).
   */
  @Override
  public List<BlockMove> reflection(ActiveSet on) {
    List<BlockMove> moves = new ArrayList<>(super.reflection(on));
    ActiveSet running = layout().serversOn(gear());
    if (mayRun(WorkKind.COLD_MIGRATION, owed.owedCount())) {
      moves.addAll(owed.due(running.minus(running.minus(on)))); // the running gear's servers that are on
    }
    return moves;
  }

  /** The layout's ledger learns only of its own moves: EAFR's are not offloaded replicas going home. */
  @Override
  public void moved(BlockMove move) {
    if (!owed.ended(move)) {
      super.moved(move);
    }
  }

  @Override
  public FileTemperature temperature(int file) {
    return temperatures.of(file);
  }

  @Override
  public void transferFinished(String destinationId, long bytes, long elapsedMillis) {
    speeds.recordTransfer(destinationId, bytes, Math.max(1, elapsedMillis));
  }
}
