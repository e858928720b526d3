package org.eafr.placement.gear.policy;

import java.time.Clock;
import java.util.Objects;
import java.util.Random;
import java.util.function.Supplier;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.settings.EafrSettings;

/**
 * What a geared policy's layout is built with: the core settings, the expansion chain, the chain size its automatic
 * defaults are computed for (its size when it was fixed, so servers appended later change nothing), the clock its
 * load tracker decays by, and a source of its own seeded random stream, drawn only by a layout that draws.
 */
public final class LayoutContext {
  private final EafrSettings settings;
  private final ExpansionChain chain;
  private final int sizedFor;
  private final Clock clock;
  private final Supplier<Random> random;

  public LayoutContext(EafrSettings settings, ExpansionChain chain, int sizedFor, Clock clock,
      Supplier<Random> random) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.chain = Objects.requireNonNull(chain, "chain");
    this.sizedFor = sizedFor;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.random = Objects.requireNonNull(random, "random");
  }

  public EafrSettings settings() {
    return settings;
  }

  public ExpansionChain chain() {
    return chain;
  }

  public int sizedFor() {
    return sizedFor;
  }

  public Clock clock() {
    return clock;
  }

  public Supplier<Random> random() {
    return random;
  }
}
