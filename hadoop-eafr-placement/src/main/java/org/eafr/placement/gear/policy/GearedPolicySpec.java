package org.eafr.placement.gear.policy;

import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToIntBiFunction;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.StoredBlocks;
import org.eafr.placement.settings.EafrSettings;
import org.eafr.placement.settings.Setting;

/**
 * One geared policy of the {@link GearedPolicies} registry, built from the core's classes: its name (the value of
 * {@code eafr.layout} and the simulator's policy name), what it is, the settings that shape its layout, and its parts:
 * the layout, the read ordering, the write placement, the lowest gear it runs, and how owed replicas go home. The
 * parts are typed by the layout {@code L} they are built on, so a part never casts the layout it is given.
 */
public final class GearedPolicySpec<L extends GearedLayout> {
  private final String name;
  private final String description;
  private final List<Setting<Integer>> shapeKeys;
  private final Function<LayoutContext, L> layout;
  private final BiFunction<L, StoredBlocks, ReadOrdering> reads;
  private final Function<L, WritePlacement> writes;
  private final ToIntBiFunction<L, EafrSettings> lowestGear;
  private final OwedMoves owedMoves;

  GearedPolicySpec(String name, String description, List<Setting<Integer>> shapeKeys, Function<LayoutContext, L> layout,
      BiFunction<L, StoredBlocks, ReadOrdering> reads, Function<L, WritePlacement> writes,
      ToIntBiFunction<L, EafrSettings> lowestGear, OwedMoves owedMoves) {
    this.name = Objects.requireNonNull(name, "name");
    this.description = Objects.requireNonNull(description, "description");
    this.shapeKeys = List.copyOf(shapeKeys);
    this.layout = layout;
    this.reads = reads;
    this.writes = writes;
    this.lowestGear = lowestGear;
    this.owedMoves = owedMoves;
  }

  public String name() {
    return name;
  }

  public String description() {
    return description;
  }

  /** The settings whose values shape the layout: a layout that cannot be built is explained by them. */
  public List<Setting<Integer>> shapeKeys() {
    return shapeKeys;
  }

  /** The layout on the context's chain; settings it cannot be built with throw IllegalArgumentException saying why. */
  public L layout(LayoutContext context) {
    return layout.apply(context);
  }

  /**
   * A fresh read ordering on {@code layout}, with no reads counted; a balancer that weighs servers by what they store
   * reads {@code stored} (StoredBlocks.NONE: the layout's dealt shares).
   */
  public ReadOrdering reads(L layout, StoredBlocks stored) {
    return reads.apply(layout, stored);
  }

  /** The write placement on {@code layout}, with no write load given yet. */
  public WritePlacement writes(L layout) {
    return writes.apply(layout);
  }

  /** The lowest gear the controller may run on {@code layout}: 0, or the gear that keeps a read floor on. */
  public int lowestGear(L layout, EafrSettings settings) {
    return lowestGear.applyAsInt(layout, settings);
  }

  public OwedMoves owedMoves() {
    return owedMoves;
  }

  /** Every part at once, for a host that holds them together (the NameNode rebuilds them when its chain changes). */
  public GearedParts build(LayoutContext context, StoredBlocks stored) {
    L built = layout(context);
    return new GearedParts(this, built, reads(built, stored), writes(built), lowestGear(built, context.settings()));
  }

  @Override
  public String toString() {
    return name;
  }
}
