package org.eafr.namenode.power;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/** A {@link PowerScheduler} on a manual clock: tasks run in the test's thread as {@link #runFor} moves time on. */
final class ManualScheduler implements PowerScheduler {
  private final PriorityQueue<Task> queue = new PriorityQueue<>();
  private final List<Long> taskTimes = new ArrayList<>();
  private long now = 1_000_000;
  private long sequence;

  private static final class Task implements Comparable<Task> {
    final long at;
    final long sequence;
    final Runnable runnable;

    Task(long at, long sequence, Runnable runnable) {
      this.at = at;
      this.sequence = sequence;
      this.runnable = runnable;
    }

    @Override
    public int compareTo(Task other) {
      return at != other.at ? Long.compare(at, other.at) : Long.compare(sequence, other.sequence);
    }
  }

  @Override
  public synchronized long nowMillis() {
    return now;
  }

  @Override
  public synchronized void schedule(Runnable task, long delayMillis) {
    queue.add(new Task(now + Math.max(0, delayMillis), sequence++, task));
  }

  /** Runs every task due within {@code millis} from now, in time order, then sets the clock to the end. */
  void runFor(long millis) {
    long end = now + millis;
    while (true) {
      Task next;
      synchronized (this) {
        next = queue.peek();
        if (next == null || next.at > end) {
          now = end;
          return;
        }
        queue.poll();
        now = next.at;
        taskTimes.add(now);
      }
      next.runnable.run();
    }
  }

  /** The clock times at which tasks ran, relative to {@code origin}. */
  synchronized List<Long> taskTimesSince(long origin) {
    List<Long> times = new ArrayList<>();
    for (long time : taskTimes) {
      if (time >= origin) {
        times.add(time - origin);
      }
    }
    return times;
  }

  synchronized boolean idle() {
    return queue.isEmpty();
  }

  @Override
  public void close() {
  }
}
