package org.eafr.sim.engine;

import java.util.Arrays;

/**
 * The discrete-event engine: a binary min-heap of events keyed by (time in microseconds, sequence number), so events
 * at the same instant fire in the order they were scheduled and every run with the same inputs is identical. Time is
 * simulated only; nothing here reads a wall clock.
 *
 * <p>Keys live in primitive arrays (one long per event: time and sequence number are kept in parallel arrays), so a
 * push or pop costs O(log n) comparisons of longs and no boxing.
 */
public final class EventQueue {
  private long[] times = new long[1024];
  private long[] sequences = new long[1024];
  private Event[] events = new Event[1024];
  private int size;
  private long nextSequence;
  private long now;
  private long fired;

  /** Schedules {@code event} at {@code timeMicros}, which must not be in the past. */
  public void schedule(long timeMicros, Event event) {
    if (timeMicros < now) {
      throw new IllegalArgumentException("event time " + timeMicros + " us is not allowed: expected at least the"
          + " current time " + now + " us");
    }
    if (size == times.length) {
      int grown = size * 2;
      times = Arrays.copyOf(times, grown);
      sequences = Arrays.copyOf(sequences, grown);
      events = Arrays.copyOf(events, grown);
    }
    int i = size++;
    long seq = nextSequence++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!before(timeMicros, seq, times[parent], sequences[parent])) {
        break;
      }
      move(parent, i);
      i = parent;
    }
    times[i] = timeMicros;
    sequences[i] = seq;
    events[i] = event;
  }

  /** Schedules {@code event} {@code delayMicros} from now. */
  public void after(long delayMicros, Event event) {
    schedule(now + delayMicros, event);
  }

  /** Fires events in order until the queue is empty or the next event is after {@code endMicros}. */
  public void runUntil(long endMicros) {
    while (size > 0 && times[0] <= endMicros) {
      long time = times[0];
      Event event = events[0];
      removeTop();
      now = time;
      fired++;
      event.fire(time);
    }
    now = Math.max(now, endMicros);
  }

  /** The simulated time of the event firing now (or of the last one fired). */
  public long now() {
    return now;
  }

  /** Events fired so far. */
  public long fired() {
    return fired;
  }

  public int pending() {
    return size;
  }

  private void removeTop() {
    int last = --size;
    long time = times[last];
    long seq = sequences[last];
    Event event = events[last];
    events[last] = null;
    if (last == 0) {
      return;
    }
    int i = 0;
    while (true) {
      int child = 2 * i + 1;
      if (child >= last) {
        break;
      }
      if (child + 1 < last && before(times[child + 1], sequences[child + 1], times[child], sequences[child])) {
        child++;
      }
      if (!before(times[child], sequences[child], time, seq)) {
        break;
      }
      move(child, i);
      i = child;
    }
    times[i] = time;
    sequences[i] = seq;
    events[i] = event;
  }

  private void move(int from, int to) {
    times[to] = times[from];
    sequences[to] = sequences[from];
    events[to] = events[from];
  }

  private static boolean before(long timeA, long seqA, long timeB, long seqB) {
    return timeA < timeB || (timeA == timeB && seqA < seqB);
  }
}
