package org.eafr.sim.policy;

import java.util.Random;
import java.util.function.LongSupplier;
import org.eafr.sim.SimSettings;

/**
 * What a policy is built with: the run's settings, its own seeded {@link Random} (derived from the scenario seed and
 * the policy name, so policies never share a random stream), and the simulated clock in milliseconds.
 */
public record PolicyEnvironment(SimSettings settings, Random random, LongSupplier clockMillis) {
  /** The seed of the random stream of the policy named {@code name} in a run seeded {@code seed}. */
  public static long policySeed(long seed, String name) {
    return seed * 1_000_003L + name.hashCode();
  }

  /**
   * This environment with the random stream of the policy named {@code name}: a scheduled variant of a policy (its
   * carbon- or price-aware twin) draws exactly what the policy draws, so the two differ only in their scheduling.
   */
  public PolicyEnvironment drawingAs(String name) {
    return new PolicyEnvironment(settings, new org.eafr.sim.engine.UnsharedRandom(policySeed(settings.seed(), name)),
        clockMillis);
  }
}
