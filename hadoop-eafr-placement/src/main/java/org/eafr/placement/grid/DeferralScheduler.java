package org.eafr.placement.grid;

import java.util.Objects;

/**
 * Decides when deferrable background work runs, from the grid's forecast (Wiesner et al., "Let's Wait Awhile",
 * Middleware 2021, Sec. 4: shift a job with a deadline to the window of lowest forecast carbon intensity;
 * non-interruptible: the work runs in one stretch).
 *
 * <p>For work of kind K pending since t0 and lasting about W (rounded up to k whole slots of the signal):
 * <ol>
 *   <li>deadline = min(t0 + the kind's longest wait, a caller's earlier deadline: a reflection must end before the
 *       next gear-down); latest start = deadline - W;</li>
 *   <li>run now when the objective is energy only, or no signal covers now (energy-only fallback), or now >= latest
 *       start;</li>
 *   <li>run now (READ_LATENCY) when the last control period's mean read latency is above the operator's
 *       {@code eafr.grid.read-latency-bound.ms}: held work must not cost reads more than the operator allows;</li>
 *   <li>otherwise, over the forecast from now's slot to the deadline (at most the horizon), the cost of each start j
 *       is the mean forecast of slots j .. j + k - 1; hold for the cheapest start b when cost(0) - cost(b) >=
 *       {@code eafr.grid.min-saving} x |cost(0)|, else run now (ties and small savings never wait).</li>
 * </ol>
 * Because a held decision is asked again every period, the work starts within one period of its chosen slot or its
 * latest start, and ends by its deadline. Work run against a signal is granted its k slots ({@link
 * Verdict#runUntilMillis}); a stream of work that is still pending after them is asked about again.
 *
 * <p>Worked example ({@code DeferralSchedulerTest}): slots of 30 min with carbon forecast 200, 180, 120, 150, 90, 300
 * gCO2/kWh from now (00:00), longest wait 3 h, least saving 0.05. Work of 30 min (k = 1): the cheapest start is slot 4
 * (90, 110 below 200 >= 10), so hold until 02:00. Work of 1 h (k = 2): start means 190, 150, 135, 120, 195, so hold
 * until 01:30. At 02:00 the 30-min work sees 90, 300 and runs (BEST_NOW); at 02:30 any work of 30 min runs (DEADLINE).
 *
 * <p>Stateless and thread-safe: the caller keeps when each kind of work became pending.
 */
public final class DeferralScheduler {
  private final GridSettings settings;
  private final GridSignal signal;

  /** @param signal the grid signal, or null when none is configured (every verdict is then NO_SIGNAL or energy) */
  public DeferralScheduler(GridSettings settings, GridSignal signal) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.signal = signal;
  }

  public GridSettings settings() {
    return settings;
  }

  /** The verdict for {@code kind} work pending since {@code pendingSince}, lasting about {@code workMillis}. */
  public Verdict decide(WorkKind kind, long pendingSince, long now, long workMillis) {
    return decide(kind, pendingSince, now, workMillis, Long.MAX_VALUE);
  }

  /** As {@link #decide(WorkKind, long, long, long)}, with a deadline of the caller's that may be earlier. */
  public Verdict decide(WorkKind kind, long pendingSince, long now, long workMillis, long callerDeadline) {
    long wait = settings.maxWaitMillis(kind);
    long deadline = Math.min(callerDeadline, pendingSince + wait);
    Objective objective = settings.objective();
    if (objective == Objective.ENERGY) {
      return new Verdict(true, Verdict.Reason.ENERGY_ONLY, deadline, now, Long.MAX_VALUE);
    }
    if (!usable(now)) {
      return new Verdict(true, Verdict.Reason.NO_SIGNAL, deadline, now, Long.MAX_VALUE);
    }
    long work = Math.max(0, workMillis);
    int k = (int) Math.max(1, (work + signal.stepMillis() - 1) / signal.stepMillis());
    long runUntil = signal.slotStart(signal.slot(now)) + k * signal.stepMillis();
    if (now >= deadline - work) {
      return new Verdict(true, Verdict.Reason.DEADLINE, deadline, now, runUntil);
    }
    long until = Math.min(deadline, now + settings.get(GridSettings.HORIZON_MS));
    double[] forecast = signal.forecast(objective, now, until);
    int best = 0;
    double bestCost = meanCost(forecast, 0, k);
    for (int j = 1; j + k <= forecast.length; j++) {
      double cost = meanCost(forecast, j, k);
      if (cost < bestCost) {
        best = j;
        bestCost = cost;
      }
    }
    double nowCost = meanCost(forecast, 0, k);
    double saving = nowCost - bestCost;
    if (best == 0 || saving < settings.get(GridSettings.MIN_SAVING) * Math.abs(nowCost)) {
      return new Verdict(true, Verdict.Reason.BEST_NOW, deadline, now, runUntil);
    }
    long runAt = signal.slotStart(signal.slot(now) + best);
    return new Verdict(false, Verdict.Reason.WAITING, deadline, runAt, runAt + k * signal.stepMillis());
  }

  /**
   * The verdict when the last control period's mean read latency was {@code readMeanMs} (NaN: no read): work the
   * forecast would hold runs now (READ_LATENCY) while that latency is above {@code eafr.grid.read-latency-bound.ms},
   * so waiting for a cleaner hour never costs reads more than the operator allows.
   */
  public Verdict decide(WorkKind kind, long pendingSince, long now, long workMillis, long callerDeadline,
      double readMeanMs) {
    Verdict verdict = decide(kind, pendingSince, now, workMillis, callerDeadline);
    if (verdict.run() || !overLatencyBound(readMeanMs)) {
      return verdict;
    }
    long slot = signal.slotStart(signal.slot(now));
    return new Verdict(true, Verdict.Reason.READ_LATENCY, verdict.deadlineMillis(), now,
        slot + (verdict.runUntilMillis() - verdict.runAtMillis()));
  }

  /** Whether {@code readMeanMs} is above the operator's read-latency bound (never when no bound is set). */
  public boolean overLatencyBound(double readMeanMs) {
    double bound = settings.get(GridSettings.READ_LATENCY_BOUND_MS);
    return bound > 0 && readMeanMs > bound;
  }

  /** Whether a signal with the objective's values covers {@code now}. */
  public boolean usable(long now) {
    return signal != null && signal.supports(settings.objective()) && signal.covers(now);
  }

  /** The mean of up to {@code k} values from {@code from} (fewer at the forecast's end). */
  private static double meanCost(double[] forecast, int from, int k) {
    int to = Math.min(forecast.length, from + k);
    double sum = 0;
    for (int i = from; i < to; i++) {
      sum += forecast[i];
    }
    return sum / (to - from);
  }
}
