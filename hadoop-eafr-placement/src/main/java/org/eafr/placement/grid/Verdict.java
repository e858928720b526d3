package org.eafr.placement.grid;

import java.time.Instant;
import java.util.Objects;

/**
 * The {@link DeferralScheduler}'s answer for one kind of work at one moment: run now or hold, why, the deadline it
 * must end by, (when held) the start of the slot it waits for, and (when run) the end of the slots it was given: work
 * still pending then is asked about again. Immutable.
 */
public final class Verdict {
  /** Why the work runs or waits. */
  public enum Reason {
    /** The objective is energy only: work runs when it may. */
    ENERGY_ONLY,
    /** No usable signal at this time (none configured, stale, or without the objective's values): energy only. */
    NO_SIGNAL,
    /** It must start now to end by its deadline. */
    DEADLINE,
    /** No later start before the deadline is cleaner or cheaper by the least saving. */
    BEST_NOW,
    /** A later start is cleaner or cheaper, but the last period's mean read latency is above the operator's bound. */
    READ_LATENCY,
    /** A later start is cleaner or cheaper: the work waits for it. */
    WAITING
  }

  private final boolean run;
  private final Reason reason;
  private final long deadlineMillis;
  private final long runAtMillis;
  private final long runUntilMillis;

  public Verdict(boolean run, Reason reason, long deadlineMillis, long runAtMillis, long runUntilMillis) {
    this.run = run;
    this.reason = Objects.requireNonNull(reason, "reason");
    this.deadlineMillis = deadlineMillis;
    this.runAtMillis = runAtMillis;
    this.runUntilMillis = runUntilMillis;
  }

  /**
   * The end of the run this verdict grants: the end of the k slots from now for work run against a signal,
   * {@code Long.MAX_VALUE} (until nothing is pending) for energy only or without a signal.
   */
  public long runUntilMillis() {
    return runUntilMillis;
  }

  public boolean run() {
    return run;
  }

  public Reason reason() {
    return reason;
  }

  public long deadlineMillis() {
    return deadlineMillis;
  }

  /** Now when the work runs; the start of the slot it waits for when held. */
  public long runAtMillis() {
    return runAtMillis;
  }

  /** One line for a log or status page. */
  public String describe() {
    return (run ? "run" : "hold until " + Instant.ofEpochMilli(runAtMillis)) + " (" + reason + ", deadline "
        + Instant.ofEpochMilli(deadlineMillis) + ")";
  }

  @Override
  public String toString() {
    return describe();
  }
}
