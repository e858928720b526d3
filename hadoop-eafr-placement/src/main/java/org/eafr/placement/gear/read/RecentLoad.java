package org.eafr.placement.gear.read;

import java.time.Clock;
import java.util.Objects;

/**
 * The requests each server received recently (SpringFS Sec. 4, load balancer): every read or write assigned to a
 * server adds one, and every period all counts decay by a factor (0.95 every 5 s in SpringFS), so recent activity
 * weighs most. Decay is applied lazily per server (count x decay^(periods since its last update)), so recording and
 * reading are O(1).
 *
 * <p>Worked example (decay 0.95 per 5 s): 10 requests at t = 0 count 10; at t = 10 s they count 10 x 0.95^2 = 9.025.
 *
 * <p>Thread-safe (synchronized: a few arithmetic operations per call). The clock is injected.
 */
public final class RecentLoad {
  private final double decay;
  private final long periodMillis;
  private final Clock clock;
  private final double[] counts;
  private final long[] periods;

  public RecentLoad(int servers, double decay, long periodMillis, Clock clock) {
    if (!(decay > 0 && decay <= 1) || periodMillis < 1) {
      throw new IllegalArgumentException("decay " + decay + " every " + periodMillis
          + " ms is not allowed: expected a decay in (0, 1] and a period of at least 1 ms");
    }
    this.decay = decay;
    this.periodMillis = periodMillis;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.counts = new double[servers];
    this.periods = new long[servers];
  }

  /** SpringFS's setting: 0.95 every 5 seconds. */
  public static RecentLoad springFs(int servers, Clock clock) {
    return new RecentLoad(servers, 0.95, 5_000L, clock);
  }

  /** One request assigned to the server at {@code position}. */
  public synchronized void record(int position) {
    counts[position] = current(position) + 1;
  }

  /** The decayed count of the server at {@code position}. */
  public synchronized double load(int position) {
    return current(position);
  }

  private double current(int position) {
    long now = Math.floorDiv(clock.millis(), periodMillis);
    if (now != periods[position]) {
      counts[position] *= Math.pow(decay, now - periods[position]);
      periods[position] = now;
    }
    return counts[position];
  }
}
