package org.eafr.placement.gear;

import java.util.Objects;

/**
 * The part every geared layout shares: its chain and its gears, nested sets of servers (gear k's servers are all on in
 * gear k + 1), checked when built. Layouts extend it and add placement, recovery and shares.
 */
public abstract class NestedGears implements GearedLayout {
  private final ExpansionChain chain;
  private final ActiveSet[] gears;

  protected NestedGears(ExpansionChain chain, ActiveSet[] gears) {
    this.chain = Objects.requireNonNull(chain, "chain");
    this.gears = gears.clone();
    for (int gear = 1; gear < this.gears.length; gear++) {
      if (!this.gears[gear - 1].isSubsetOf(this.gears[gear])) {
        throw new IllegalArgumentException("gear " + (gear - 1) + " keeps on servers that gear " + gear
            + " does not: gears must be nested");
      }
    }
  }

  @Override
  public final ExpansionChain chain() {
    return chain;
  }

  @Override
  public final int maximumGear() {
    return gears.length - 1;
  }

  @Override
  public final ActiveSet serversOn(int gear) {
    return gears[GearedLayout.checkGear(this, gear)];
  }
}
