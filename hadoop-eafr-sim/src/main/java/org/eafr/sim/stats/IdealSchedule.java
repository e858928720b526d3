package org.eafr.sim.stats;

/**
 * Which servers the ideal of SpringFS Sec. 5.2 keeps on, period after period, when a server switched on must stay on
 * for at least a minimum dwell (the gear controller's {@code eafr.gear.min-dwell.ms}: it never gears down within the
 * dwell of a shift, so none of its servers switched on goes off sooner). With a dwell of 0 it is the plain ideal.
 *
 * <p>Each period asks for n servers on, at least the floor (the servers that hold one copy, always on). The servers
 * are ranked (rank 0 first: the largest, which the floor keeps on). Rule, per period starting at time t:
 * <ul>
 *   <li>fewer than n on: switch on the lowest-ranked servers that are off until n are on (a power cycle each, but
 *       not at the first period, the run's starting state);</li>
 *   <li>more than n on: switch off the highest-ranked servers above the floor that have been on for at least the
 *       dwell (switched on at or before t - dwell), until n are on or none may go.</li>
 * </ul>
 * So the servers on are max(n, the servers still within their dwell): a server is switched on only when the load needs
 * one more than are on, and a server kept on past the need is reused before another is switched on. It is the ideal's
 * own schedule made to keep the dwell, not the least any schedule keeping it could reach: one that knows the load ahead
 * keeps a server on through a short dip rather than switching it on again (on bursty loads in {@code IdealScheduleTest}
 * within 5% of that least on each and 1% in all). With a dwell of 0 the servers on are exactly the n lowest-ranked.
 *
 * <p>Worked example (the unit test checks it): 4 servers, floor 1, periods of 60 s asking for 1, 3, 1, 2, 1, 1, 1, 4,
 * 1 servers. Without a dwell: 15 server-periods (0.25 machine-hours) and 6 power-ons (ranks 1, 2, 3: 3, 2 and 1).
 * With a dwell of 180 s: the servers switched on at 60 s stay on until 240 s (covering the 2 asked at 180 s), those
 * switched on at 420 s to the end: 1, 3, 3, 3, 1, 1, 1, 4, 4 = 21 server-periods (0.35 machine-hours) and 5 power-ons
 * (2, 2 and 1). Over the 9-minute run that is 200 power cycles per server per day on average and 320 at most (rank 1),
 * against 240 and 480 without the dwell.
 *
 * <p>Not thread-safe: one run's sampler drives it.
 */
public final class IdealSchedule {
  private final long dwellMicros;
  private final boolean[] on;
  private final long[] onSince;
  private final long[] powerOns;
  private int count;
  private boolean started;
  private double serverMicros;

  /** A schedule over {@code servers} ranked servers, each switched on kept on for at least {@code dwellMicros}. */
  public IdealSchedule(int servers, long dwellMicros) {
    if (servers < 1 || dwellMicros < 0) {
      throw new IllegalArgumentException(servers + " servers and a dwell of " + dwellMicros + " us are not allowed:"
          + " expected at least 1 server and a dwell of at least 0");
    }
    this.dwellMicros = dwellMicros;
    this.on = new boolean[servers];
    this.onSince = new long[servers];
    this.powerOns = new long[servers];
  }

  /**
   * The period from {@code startMicros}, {@code micros} long, asks for {@code needed} servers on, of which the
   * {@code floor} lowest-ranked never go off; returns how many are on.
   */
  public int period(long startMicros, long micros, int needed, int floor) {
    int n = Math.max(1, Math.min(on.length, Math.max(needed, floor)));
    for (int rank = 0; rank < on.length && count < n; rank++) {
      if (!on[rank]) {
        on[rank] = true;
        onSince[rank] = startMicros;
        powerOns[rank] += started ? 1 : 0;
        count++;
      }
    }
    for (int rank = on.length - 1; rank >= floor && count > n; rank--) {
      if (on[rank] && startMicros - onSince[rank] >= dwellMicros) {
        on[rank] = false;
        count--;
      }
    }
    started = true;
    serverMicros += (double) count * micros;
    return count;
  }

  /** Servers on times microseconds, summed over the periods so far. */
  public double serverMicros() {
    return serverMicros;
  }

  /** How often each server (by rank) was switched on after the first period. */
  public long[] powerOns() {
    return powerOns.clone();
  }
}
