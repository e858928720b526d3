package org.eafr.sim.policy;

import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearDecision;
import org.eafr.placement.gear.LoadSample;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.policy.GearedPolicies;
import org.eafr.placement.gear.rabbit.WriteOffloading;

/**
 * Rabbit (Amur et al.) from the core registry ({@code GearedPolicies.RABBIT}): the equal-work layout with gear and recovery groups ({@link EqualWorkLayout}),
 * the gear controller, the hit-ratio read balancer (Sec. 3.2) on the blocks each server stores now, as the paper
 * defines b_i, rather than on the layout's dealt shares (writes made in a low gear sit on the servers that were on
 * until their homes wake, and the balancer must count them to spread a full read evenly), and write offloading
 * (Sec. 3.3, {@link WriteOffloading}): each control period, the share of primary replicas the p primaries could not
 * absorb at the last period's write rate goes to the servers on past them, and stays there until its holder is about
 * to sleep (cleanup work, counted in the data migrated).
 */
final class RabbitPolicy extends LayoutPolicy {
  RabbitPolicy(PolicyEnvironment env) {
    super(GearedPolicies.RABBIT.name(), env, GearedPolicies.RABBIT, new Counted());
  }

  /** The last period's primary write rate (every replica's bytes / r) sets the share offloaded in this one. */
  @Override
  public GearDecision decide(LoadSample load, ActiveSet on, ActiveSet failed) {
    writes().writeLoad(load.writeBytesPerSecond() / replicas(), perServer().writeBytesPerSecond());
    return super.decide(load, on, failed);
  }
}
