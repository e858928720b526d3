package org.eafr.demo;

import java.util.Locale;

/**
 * Reads served per joule while gearing up, Accordion's measure of throughput per watt during a gear-up (the
 * simulator's, docs/evaluation-accordion.md): the reads served and the joules the DataNode hosts drew over the sample
 * intervals that began with a gear-up under way (target gear above the gear, its woken servers not yet in service),
 * summed over every gear-up of the run. A run without a gear-up has none (NaN, shown n/a).
 *
 * <p>Worked example: two gear-up intervals of 1 s, 5 reads at 600 W and 7 reads at 650 W: 12 reads / 1250 J =
 * 0.0096 reads per joule.
 */
final class GearUpThroughput {
  private long reads;
  private double joules;

  /** One sample interval: whether it began gearing up, the reads served and the joules drawn in it. */
  synchronized void add(boolean gearingUp, long readsServed, double joulesDrawn) {
    if (gearingUp) {
      reads += readsServed;
      joules += joulesDrawn;
    }
  }

  synchronized long reads() {
    return reads;
  }

  synchronized double joules() {
    return joules;
  }

  /** Reads per joule while gearing up; NaN when no interval was. */
  synchronized double readsPerJoule() {
    return joules > 0 ? reads / joules : Double.NaN;
  }

  @Override
  public synchronized String toString() {
    return joules > 0 ? String.format(Locale.ROOT, "%d reads in %.0f J: %.5f reads/J", reads, joules,
        readsPerJoule()) : "n/a (no gear-up)";
  }
}
