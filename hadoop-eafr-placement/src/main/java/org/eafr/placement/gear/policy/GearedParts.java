package org.eafr.placement.gear.policy;

import org.eafr.placement.gear.GearedLayout;

/**
 * A geared policy built on one chain: its layout, read ordering, write placement and lowest gear, made together so
 * that parts sharing state (SpringFS's layout and its read offloading share a load tracker) share it. Immutable.
 */
public final class GearedParts {
  private final GearedPolicySpec<?> policy;
  private final GearedLayout layout;
  private final ReadOrdering reads;
  private final WritePlacement writes;
  private final int lowestGear;

  GearedParts(GearedPolicySpec<?> policy, GearedLayout layout, ReadOrdering reads, WritePlacement writes,
      int lowestGear) {
    this.policy = policy;
    this.layout = layout;
    this.reads = reads;
    this.writes = writes;
    this.lowestGear = lowestGear;
  }

  public GearedPolicySpec<?> policy() {
    return policy;
  }

  public GearedLayout layout() {
    return layout;
  }

  public ReadOrdering reads() {
    return reads;
  }

  public WritePlacement writes() {
    return writes;
  }

  /** The lowest gear the controller may run: 0, or the gear that keeps the read floor on. */
  public int lowestGear() {
    return lowestGear;
  }
}
