package org.eafr.sim.policy;

import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.read.HitRatioBalancer;

/**
 * Rabbit (Amur et al.) from the core: the equal-work layout with gear and recovery groups ({@link EqualWorkLayout}),
 * the gear controller, and the hit-ratio read balancer (Sec. 3.2) on the blocks each server stores now, as the paper
 * defines b_i, rather than on the layout's dealt shares: writes made in a low gear sit on the servers that were on
 * until their homes wake, and the balancer must count them to spread a full read evenly.
 */
final class RabbitPolicy extends LayoutPolicy {
  RabbitPolicy(PolicyEnvironment env) {
    this(env, new Counted());
  }

  private RabbitPolicy(PolicyEnvironment env, Counted counted) {
    super("rabbit", env, (chain, e) -> EqualWorkLayout.from(e.settings().eafr(), chain),
        layout -> new HitRatioBalancer(layout, counted), counted);
  }
}
