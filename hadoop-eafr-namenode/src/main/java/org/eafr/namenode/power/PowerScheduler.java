package org.eafr.namenode.power;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The clock and the timer of the power manager. Passed in so the timing rules (the interval between BMC calls, the
 * poll backoff, the state timeout) are tested on a manual clock without sleeping; {@link #threads} is the real one.
 */
public interface PowerScheduler extends AutoCloseable {
  /** Milliseconds on a monotonic clock. */
  long nowMillis();

  /** Runs {@code task} once, {@code delayMillis} from now. */
  void schedule(Runnable task, long delayMillis);

  @Override
  void close();

  /**
   * A pool of daemon threads: driver calls block (ipmitool runs, HTTPS requests), so a few run at once, each bounded
   * by the command timeout.
   */
  static PowerScheduler threads(int count) {
    AtomicInteger number = new AtomicInteger();
    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(count, runnable -> {
      Thread thread = new Thread(runnable, "eafr-power-" + number.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
    executor.setRemoveOnCancelPolicy(true);
    return new PowerScheduler() {
      @Override
      public long nowMillis() {
        return System.nanoTime() / 1_000_000;
      }

      @Override
      public void schedule(Runnable task, long delayMillis) {
        executor.schedule(task, Math.max(0, delayMillis), TimeUnit.MILLISECONDS);
      }

      @Override
      public void close() {
        executor.shutdownNow();
      }
    };
  }
}
