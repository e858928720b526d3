package org.eafr.sim.policy;

import java.util.List;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.GearDecision;
import org.eafr.placement.gear.LoadSample;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.rabbit.WriteOffloading;
import org.eafr.placement.gear.read.HitRatioBalancer;

/**
 * Rabbit (Amur et al.) from the core: the equal-work layout with gear and recovery groups ({@link EqualWorkLayout}),
 * the gear controller, the hit-ratio read balancer (Sec. 3.2) on the blocks each server stores now, as the paper
 * defines b_i, rather than on the layout's dealt shares (writes made in a low gear sit on the servers that were on
 * until their homes wake, and the balancer must count them to spread a full read evenly), and write offloading
 * (Sec. 3.3, {@link WriteOffloading}): each control period, the share of primary replicas the p primaries could not
 * absorb at the last period's write rate goes to the servers on past them, and stays there until its holder is about
 * to sleep (cleanup work, counted in the data migrated).
 */
final class RabbitPolicy extends LayoutPolicy {
  private WriteOffloading offloading;
  private int primaries;

  RabbitPolicy(PolicyEnvironment env) {
    this(env, new Counted());
  }

  private RabbitPolicy(PolicyEnvironment env, Counted counted) {
    super("rabbit", env, (chain, e) -> EqualWorkLayout.from(e.settings().eafr(), chain),
        layout -> new HitRatioBalancer(layout, counted), counted);
  }

  @Override
  public void start(org.eafr.placement.cluster.ClusterView cluster, LoadSample perServer) {
    super.start(cluster, perServer);
    primaries = ((EqualWorkLayout) layout()).primaries();
    offloading = new WriteOffloading(primaries);
  }

  @Override
  public GearDecision decide(LoadSample load, ActiveSet on, ActiveSet failed) {
    offloading.share(WriteOffloading.offloadedShare(load.writeBytesPerSecond() / replicas(),
        perServer().writeBytesPerSecond(), primaries));
    return super.decide(load, on, failed);
  }

  @Override
  protected BlockPlacement place(BlockRequest request, ActiveSet on) {
    return offloading.apply(super.place(request, on), request, on);
  }

  @Override
  public List<BlockMove> reflection(ActiveSet on) {
    return offloading.beforeCleanup(super.reflection(on));
  }
}
