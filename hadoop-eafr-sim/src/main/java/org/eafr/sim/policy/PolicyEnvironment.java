package org.eafr.sim.policy;

import java.util.Random;
import java.util.function.LongSupplier;
import org.eafr.sim.SimSettings;

/**
 * What a policy is built with: the run's settings, its own seeded {@link Random} (derived from the scenario seed and
 * the policy name, so policies never share a random stream), and the simulated clock in milliseconds.
 */
public record PolicyEnvironment(SimSettings settings, Random random, LongSupplier clockMillis) {
}
