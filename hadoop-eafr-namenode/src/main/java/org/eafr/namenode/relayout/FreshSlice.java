package org.eafr.namenode.relayout;

import java.util.concurrent.TimeUnit;

/**
 * Relayout's short holds of the namesystem read lock begin at the start of a CPU slice of their thread: before a hold
 * the thread yields ({@code sched_yield}) unless it has yielded within the last {@value #BUDGET_MICROS} us.
 *
 * <p>Why: a hold's length as HDFS reports it is wall time, and on a busy host it is set by the holder losing its core
 * while it holds the lock (a slice of the other runnable threads, tens of ms at low priority), not by the work under
 * it (relayout's holds do 0.1-0.5 ms of it). Linux's scheduler (EEVDF, and CFS before it) gives a thread picked again
 * after a yield a fresh slice (0.75 ms x (1 + log2 CPUs), 1.5 ms on 2 cores), so a hold that starts within
 * {@value #BUDGET_MICROS} us of the yield, with its work under the rest of the slice, ends before the scheduler can
 * take the core for a slice end. Where the thread's core is free a yield returns at once (a system call, about
 * 1 us); on a loaded host it trades a little of the thread's share of the CPU for holds that rarely outlast their
 * work ({@code docs/bench/gear-scale-runs.md} measures both).
 */
final class FreshSlice {
  static final long BUDGET_MICROS = 500;
  private static final long BUDGET_NANOS = TimeUnit.MICROSECONDS.toNanos(BUDGET_MICROS);
  /** When this thread's last yield returned (System.nanoTime). */
  private static final ThreadLocal<long[]> LAST =
      ThreadLocal.withInitial(() -> new long[] {System.nanoTime() - BUDGET_NANOS - 1});

  private FreshSlice() {
  }

  /** Called just before taking the lock: yields unless the thread did within the budget. */
  static void beforeHold() {
    long[] last = LAST.get();
    if (System.nanoTime() - last[0] > BUDGET_NANOS) {
      Thread.yield();
      last[0] = System.nanoTime();
    }
  }
}
