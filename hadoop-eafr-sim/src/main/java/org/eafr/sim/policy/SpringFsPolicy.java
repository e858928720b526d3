package org.eafr.sim.policy;

import java.util.List;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.GearDecision;
import org.eafr.placement.gear.LoadSample;
import org.eafr.placement.gear.policy.GearedPolicies;
import org.eafr.placement.gear.read.ReadOffloadBalancer;
import org.eafr.placement.gear.read.RecentLoad;
import org.eafr.placement.gear.springfs.OffloadSetSize;
import org.eafr.placement.gear.springfs.PassiveMigration;
import org.eafr.placement.gear.springfs.SpringFsLayout;
import org.eafr.placement.grid.WorkKind;

/**
 * SpringFS (Xu et al.) from the core registry ({@code GearedPolicies.SPRINGFS}): {@link SpringFsLayout} (the equal-work layout with bounded write offloading to
 * an offload set of m servers), {@link ReadOffloadBalancer} on the layout's {@link RecentLoad}, and
 * {@link PassiveMigration} with T ({@code eafr.gear.migration-threshold}, SpringFS's 10) for what is owed to
 * re-integrated servers. Each control period m is chosen on
 * the fly, {@link OffloadSetSize} of the last period's primary write rate (every replica's bytes / r), or fixed by
 * {@code sim.springfs.offload-set} (the scenario's sweep) from time 0: the initial files are placed with m = p.
 *
 * <p>Passive migration asks whether a destination already holds its equal-work share: the simulator counts the blocks
 * each server stores ({@link org.eafr.sim.model.ReplicaCounts}) and owed moves to a server at its share are dropped
 * ({@link PassiveMigration#fromCounts}); the rest move, 1/T of them per period.
 */
final class SpringFsPolicy extends LayoutPolicy {
  private SpringFsLayout springFs;
  private PassiveMigration migration;
  private PassiveMigration.ServerFullness fullness;

  SpringFsPolicy(PolicyEnvironment env) {
    this(GearedPolicies.SPRINGFS.name(), env);
  }

  /** SpringFS named {@code name} (a carbon- or price-aware variant is scheduled with {@link #scheduledFor}). */
  SpringFsPolicy(String name, PolicyEnvironment env) {
    super(name, env, GearedPolicies.SPRINGFS);
  }

  @Override
  public void start(org.eafr.placement.cluster.ClusterView cluster, LoadSample perServer) {
    super.start(cluster, perServer);
    springFs = (SpringFsLayout) layout();
    // One server migrates at its link speed for a control period, in blocks of the catalog's mean size.
    double blocksPerServerPeriod = Math.max(1e-9, perServer.writeBytesPerSecond()
        * env().settings().controlMicros() / 1e6 / env().settings().meanFileBytes());
    fullness = PassiveMigration.fromCounts(springFs, counted());
    migration = GearedPolicies.SPRINGFS.owedMoves().migration(env().settings().eafr(), blocksPerServerPeriod)
        .orElseThrow();
  }

  /**
   * The initial files were placed with m = p, so each primary replica is at home on a primary (the data exists before
   * the run in its target layout); a fixed m applies from time 0 on. Placed with m &gt; p, (m - p) / m of the primary
   * replicas would sit on offload-set servers that sleep at time 0, with no replica of their blocks in gear 0, and
   * their cleanup would wake a recovery group out of turn (259 servers at p = 40, g = 1), on until the next gear-down.
   */
  @Override
  public ActiveSet initialOn() {
    int fixed = env().settings().springFsOffloadSet();
    if (fixed > 0) {
      springFs.offloadSet(fixed);
    }
    return super.initialOn();
  }

  /** With m not fixed by the run, the last period's primary write rate sets m for this one ({@link OffloadSetSize}). */
  @Override
  public GearDecision decide(LoadSample load, ActiveSet on, ActiveSet failed) {
    if (env().settings().springFsOffloadSet() == 0) {
      writes().writeLoad(load.writeBytesPerSecond() / replicas(), perServer().writeBytesPerSecond());
    }
    return super.decide(load, on, failed);
  }

  /** Passive migration of what is owed, when the grid lets it run ({@link WorkKind#PASSIVE_MIGRATION}). */
  @Override
  public List<BlockMove> reflection(ActiveSet on) {
    List<BlockMove> owed = ledger().reflectionFor(on);
    return mayRun(WorkKind.PASSIVE_MIGRATION, owed.size()) ? migration.plan(owed, fullness).moves() : List.of();
  }
}
