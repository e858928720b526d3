package org.eafr.placement.gear.layout;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Deals the replicas of a stream of blocks to servers in fixed proportions, exactly: each slot (one block) picks m
 * distinct servers, and after any number K of slots server i has been picked within one of K w_i times, for weights
 * w_i &lt;= 1 that add up to m. It is Pfair scheduling (Baruah et al., 1996) with servers as tasks and replica slots as
 * processors, and uses the PD2 priority rule (Anderson and Srinivasan, 2000), which keeps every lag K w_i - picked_i
 * strictly between -1 and 1 when the weights add up to exactly m. The equal-work layout uses it so that each server
 * holds its b_i within one block at every moment, not only on average.
 *
 * <p>Weights are integers c_i over a period L = 2^30 (c_i / L, rounded by largest remainder so they add up to m L
 * exactly), so every deadline is integer arithmetic. Subtask j of server i is released at floor((j-1) L / c_i) and due
 * at ceil(j L / c_i); among released subtasks the earliest deadline wins, then the one whose window overlaps the next
 * (b-bit 1), then, for heavy servers (w &gt;= 1/2), the later group deadline.
 *
 * <p>Cost: O(m log n) per slot, O(n) memory. Not thread-safe: its owner locks.
 *
 * <p>Worked example: weights 1/2, 1/3, 1/6 with m = 1 give the slots A B A C A B: after 6 slots 3, 2, 1, and after
 * every prefix each count is within one of K w.
 */
final class PfairSchedule {
  static final long PERIOD = 1L << 30;

  private final Task[] tasks;
  private final int perSlot;
  private final PriorityQueue<Task> eligible = new PriorityQueue<>(Comparator.comparingLong((Task t) -> t.deadline)
      .thenComparing(Comparator.comparingInt((Task t) -> t.bBit).reversed())
      .thenComparing(Comparator.comparingLong((Task t) -> t.groupDeadline).reversed())
      .thenComparingInt(t -> t.index));
  private final PriorityQueue<Task> pending = new PriorityQueue<>(Comparator.comparingLong((Task t) -> t.release)
      .thenComparingInt(t -> t.index));
  private final List<Task> decided = new ArrayList<>();
  private long slot;

  /** Servers 0..weights.length-1 with weights w_i in [0, 1] adding up to {@code perSlot}. */
  PfairSchedule(double[] weights, int perSlot) {
    this.perSlot = perSlot;
    long[] numerators = apportion(weights, perSlot);
    this.tasks = new Task[weights.length];
    for (int i = 0; i < weights.length; i++) {
      tasks[i] = new Task(i, numerators[i]);
    }
    restart();
  }

  int perSlot() {
    return perSlot;
  }

  /** Opens the next slot: subtasks released by now become eligible. */
  void beginSlot() {
    if (slot == PERIOD) {
      restart();
    }
    while (!pending.isEmpty() && pending.peek().release <= slot) {
      eligible.add(pending.poll());
    }
  }

  /** The highest-priority eligible server not yet taken this slot, removed from the queue; -1 when none is left. */
  int poll() {
    Task task = eligible.poll();
    if (task == null) {
      task = pending.poll(); // only when rounding left fewer released subtasks than replicas: take the earliest
    }
    return task == null ? -1 : task.index;
  }

  /** Server {@code index}, polled this slot, gets the replica: its next subtask is queued. */
  void take(int index) {
    Task task = tasks[index];
    task.advance();
    decided.add(task);
  }

  /** Server {@code index}, polled this slot, does not get a replica after all: it keeps its subtask. */
  void putBack(int index) {
    decided.add(tasks[index]);
  }

  /** Closes the slot: the servers polled in it queue again, by the release of their next subtask. */
  void endSlot() {
    slot++;
    for (Task task : decided) {
      (task.release <= slot ? eligible : pending).add(task);
    }
    decided.clear();
  }

  private void restart() {
    slot = 0;
    decided.clear();
    eligible.clear();
    pending.clear();
    for (Task task : tasks) {
      task.reset();
      if (task.numerator > 0) {
        (task.release <= 0 ? eligible : pending).add(task);
      }
    }
  }

  /** c_i = w_i L rounded so that they add up to m L exactly (largest remainder), each at most L. */
  static long[] apportion(double[] weights, int perSlot) {
    long[] numerators = new long[weights.length];
    double[] remainders = new double[weights.length];
    long total = 0;
    for (int i = 0; i < weights.length; i++) {
      if (!(weights[i] >= 0 && weights[i] <= 1 + 1e-9)) {
        throw new IllegalArgumentException("weight " + weights[i] + " of server " + i
            + " is not allowed: expected a number in [0, 1]");
      }
      double exact = Math.min(weights[i], 1.0) * PERIOD;
      numerators[i] = (long) Math.floor(exact);
      remainders[i] = exact - numerators[i];
      total += numerators[i];
    }
    long missing = perSlot * PERIOD - total;
    if (missing < 0 || missing > weights.length) {
      throw new IllegalArgumentException("weights adding up to " + (double) total / PERIOD
          + " are not allowed: expected them to add up to " + perSlot);
    }
    for (; missing > 0; missing--) {
      int best = -1;
      for (int i = 0; i < weights.length; i++) {
        if (numerators[i] < PERIOD && (best < 0 || remainders[i] > remainders[best])) {
          best = i;
        }
      }
      numerators[best]++;
      remainders[best] = -1;
    }
    return numerators;
  }

  private static final class Task {
    final int index;
    final long numerator;
    long done;
    long release;
    long deadline;
    int bBit;
    long groupDeadline;

    Task(int index, long numerator) {
      this.index = index;
      this.numerator = numerator;
    }

    void reset() {
      done = 0;
      computeWindow();
    }

    void advance() {
      done++;
      computeWindow();
    }

    /** The window of subtask j = done + 1. */
    private void computeWindow() {
      if (numerator == 0) {
        return;
      }
      long j = done + 1;
      release = Math.floorDiv((j - 1) * PERIOD, numerator);
      deadline = ceilDiv(j * PERIOD, numerator);
      bBit = (j * PERIOD) % numerator == 0 ? 0 : 1;
      if (numerator == PERIOD) {
        groupDeadline = Long.MAX_VALUE;
      } else if (2 * numerator < PERIOD) {
        groupDeadline = 0;
      } else {
        long rest = PERIOD - numerator;
        long x = ceilDiv(deadline * rest, PERIOD);
        groupDeadline = ceilDiv(x * PERIOD, rest);
      }
    }

    private static long ceilDiv(long a, long b) {
      return -Math.floorDiv(-a, b);
    }
  }
}
