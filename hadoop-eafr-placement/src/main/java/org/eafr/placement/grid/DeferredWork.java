package org.eafr.placement.grid;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * The state of each kind of deferrable work between the {@link DeferralScheduler}'s verdicts: idle (nothing pending),
 * held (pending since a time, waiting for a cleaner or cheaper slot), or running (released until the end of the slots
 * its verdict granted, so work once started is not stopped halfway: the scheduler's non-interruptible reading). Work
 * still pending when its run ends (a stream: new work kept arriving) counts as pending from then and is asked about
 * again. It also keeps how long released work waited, and how long each hold lasted ({@link #holds}): a hold ends
 * in a release, or without one when nothing is pending any more (e.g. the servers the work was owed to went to
 * sleep), or is still open when the run ends.
 *
 * <p>Worked example ({@code DeferredWorkTest}, the scheduler's example): reflection pending at 00:00 is held; asked
 * again at 01:00 it is still held; at 02:00 it runs (until 02:30) and has waited 2 h; at 02:10, still pending, it keeps
 * running without asking; at 02:30, still pending, it is asked again as pending since 02:30 (300 ahead: it runs, having
 * waited 0); at 02:40 nothing is pending and it is idle. Holds ({@code
 * holdsEndReleasedUnreleasedOrOpen}): reflection held from 00:00 and released at 02:00 (2 h); cold migration pending
 * at 01:00 is held (for 02:00) and nothing is pending at 01:20 (20 minutes, ended without a release); trimming
 * pending at 01:30 is held and still is at 03:10 (1 h 40 min, open): 3 holds, mean 80 minutes, longest 2 h.
 *
 * <p>Not thread-safe: one per control loop.
 */
public final class DeferredWork {
  private final DeferralScheduler scheduler;
  private final Map<WorkKind, Long> pendingSince = new EnumMap<>(WorkKind.class);
  private final Map<WorkKind, Verdict> last = new EnumMap<>(WorkKind.class);
  private final Map<WorkKind, Long> runningUntil = new EnumMap<>(WorkKind.class);
  private long releases;
  private double waitedMillis;
  private long longestWaitMillis;
  private long lateReleases;
  private double readMeanMs = Double.NaN;
  private long holds;
  private long unreleasedHolds;
  private double heldMillis;
  private long longestHoldMillis;

  public DeferredWork(DeferralScheduler scheduler) {
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
  }

  /**
   * Whether {@code kind} work runs now, with {@code pending} items of it waiting, expected to take {@code workMillis},
   * and a deadline of the caller's ({@code Long.MAX_VALUE}: none; a reflection's is the next gear-down).
   */
  public boolean mayRun(WorkKind kind, int pending, long now, long workMillis, long callerDeadline) {
    if (pending <= 0) {
      if (held(kind)) {
        holdEnded(now - pendingSince.get(kind));
        unreleasedHolds++;
      }
      pendingSince.remove(kind);
      runningUntil.remove(kind);
      last.remove(kind);
      return true;
    }
    Long until = runningUntil.get(kind);
    if (until != null && now < until) {
      return true;
    }
    if (until != null) {
      runningUntil.remove(kind);
      pendingSince.put(kind, until);
    }
    long since = pendingSince.computeIfAbsent(kind, k -> now);
    boolean wasHeld = last.containsKey(kind) && !last.get(kind).run();
    Verdict verdict = scheduler.decide(kind, since, now, workMillis, callerDeadline, readMeanMs);
    last.put(kind, verdict);
    if (verdict.run()) {
      runningUntil.put(kind, verdict.runUntilMillis());
      long waited = now - since;
      releases++;
      waitedMillis += waited;
      longestWaitMillis = Math.max(longestWaitMillis, waited);
      if (now > verdict.deadlineMillis()) {
        lateReleases++;
      }
      if (wasHeld) {
        holdEnded(waited);
      }
    }
    return verdict.run();
  }

  private void holdEnded(long lengthMillis) {
    holds++;
    heldMillis += lengthMillis;
    longestHoldMillis = Math.max(longestHoldMillis, lengthMillis);
  }

  /**
   * How long work was held: every hold that ended (released or not) and every hold still open at {@code now}
   * (counted up to now, e.g. the end of a run).
   */
  public Holds holds(long now) {
    long count = holds;
    double total = heldMillis;
    long longest = longestHoldMillis;
    long open = 0;
    for (Map.Entry<WorkKind, Long> pending : pendingSince.entrySet()) {
      if (held(pending.getKey())) {
        long length = Math.max(0, now - pending.getValue());
        count++;
        open++;
        total += length;
        longest = Math.max(longest, length);
      }
    }
    return new Holds(count, unreleasedHolds, open, count == 0 ? Double.NaN : total / count, longest);
  }

  /**
   * Holds of deferrable work: how many, how many ended without a release (nothing pending any more), how many were
   * still open, their mean length (NaN without holds) and the longest, in milliseconds.
   */
  public static final class Holds {
    private final long count;
    private final long unreleased;
    private final long open;
    private final double meanMillis;
    private final long longestMillis;

    Holds(long count, long unreleased, long open, double meanMillis, long longestMillis) {
      this.count = count;
      this.unreleased = unreleased;
      this.open = open;
      this.meanMillis = meanMillis;
      this.longestMillis = longestMillis;
    }

    public long count() {
      return count;
    }

    /** Holds that ended without a release: nothing was pending any more. */
    public long unreleased() {
      return unreleased;
    }

    /** Holds still open at the time asked. */
    public long open() {
      return open;
    }

    public double meanMillis() {
      return meanMillis;
    }

    public long longestMillis() {
      return longestMillis;
    }
  }

  /**
   * The last control period's mean read latency in ms (NaN: no read): above {@code eafr.grid.read-latency-bound.ms}
   * no work is held ({@link Verdict.Reason#READ_LATENCY}).
   */
  public void readLatency(double meanMs) {
    this.readMeanMs = meanMs;
  }

  /** Whether {@code kind} work is pending and held. */
  public boolean held(WorkKind kind) {
    return pendingSince.containsKey(kind) && !runningUntil.containsKey(kind);
  }

  /** The kinds held now. */
  public int heldKinds() {
    int held = 0;
    for (WorkKind kind : WorkKind.values()) {
      held += held(kind) ? 1 : 0;
    }
    return held;
  }

  /** The last verdict for {@code kind}, or null when it is idle or ran without asking. */
  public Verdict lastVerdict(WorkKind kind) {
    return last.get(kind);
  }

  /** Times a held or new kind of work was released. */
  public long releases() {
    return releases;
  }

  /** The mean wait of released work in milliseconds; 0 when none was released. */
  public double meanWaitMillis() {
    return releases == 0 ? 0 : waitedMillis / releases;
  }

  public long longestWaitMillis() {
    return longestWaitMillis;
  }

  /** Releases later than their deadline (asked too rarely to start in time); 0 when the caller asks every period. */
  public long lateReleases() {
    return lateReleases;
  }

  public DeferralScheduler scheduler() {
    return scheduler;
  }
}
