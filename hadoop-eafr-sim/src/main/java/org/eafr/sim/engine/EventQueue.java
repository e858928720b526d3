package org.eafr.sim.engine;

import java.util.Arrays;

/**
 * The discrete-event engine: events keyed by (time in microseconds, sequence number), so events at the same instant
 * fire in the order they were scheduled and every run with the same inputs is identical. Time is simulated only;
 * nothing here reads a wall clock.
 *
 * <p>Events live in two structures, both ordered by (time, sequence number): events due within
 * {@link #NEAR_HORIZON_MICROS} of their scheduling (reads, trace arrivals: almost every event) go to a ring of one
 * FIFO bucket per microsecond, found through a bitmap; the rest (transfer checks, control ticks, sampling: few events,
 * thousands pending) go to a binary min-heap on primitive keys. A bucket's FIFO is in sequence order because sequence
 * numbers only grow, and every pending ring event lies in [now, now + ring size), so the first non-empty bucket from
 * now's is the earliest. Each pop takes the lesser of the two candidates, so the firing order is exactly that of a
 * single heap.
 */
public final class EventQueue {
  /** Events due at most this far ahead go to the ring (a read's service is a few milliseconds). */
  static final long NEAR_HORIZON_MICROS = 20_000;
  private static final int RING = 1 << 15;
  private static final int RING_MASK = RING - 1;

  private final Heap far = new Heap();
  private final int[] bucketHead = new int[RING];
  private final int[] bucketTail = new int[RING];
  private final long[] occupied = new long[RING / 64];
  private long[] nodeTime = new long[1024];
  private long[] nodeSeq = new long[1024];
  private Event[] nodeEvent = new Event[1024];
  private int[] nodeNext = new int[1024];
  private int freeNode = -1;
  private int usedNodes;
  private int ringSize;
  private long nextSequence;
  private long now;
  private long fired;

  public EventQueue() {
    Arrays.fill(bucketHead, -1);
    Arrays.fill(bucketTail, -1);
  }

  /** Schedules {@code event} at {@code timeMicros}, which must not be in the past. */
  public void schedule(long timeMicros, Event event) {
    if (timeMicros < now) {
      throw new IllegalArgumentException("event time " + timeMicros + " us is not allowed: expected at least the"
          + " current time " + now + " us");
    }
    long seq = nextSequence++;
    if (timeMicros - now <= NEAR_HORIZON_MICROS) {
      pushRing(timeMicros, seq, event);
    } else {
      far.push(timeMicros, seq, event);
    }
  }

  /** Schedules {@code event} {@code delayMicros} from now. */
  public void after(long delayMicros, Event event) {
    schedule(now + delayMicros, event);
  }

  /** Fires events in order until the queue is empty or the next event is after {@code endMicros}. */
  public void runUntil(long endMicros) {
    while (true) {
      int bucket = ringSize == 0 ? -1 : firstBucket();
      boolean fromRing;
      long time;
      if (bucket < 0) {
        if (far.size == 0) {
          break;
        }
        fromRing = false;
        time = far.topTime();
      } else {
        int node = bucketHead[bucket];
        time = nodeTime[node];
        fromRing = far.size == 0 || Heap.before(time, nodeSeq[node], far.topTime(), far.topSequence());
        if (!fromRing) {
          time = far.topTime();
        }
      }
      if (time > endMicros) {
        break;
      }
      Event event = fromRing ? popRing(bucket) : far.pop();
      now = time;
      fired++;
      event.fire(time);
    }
    now = Math.max(now, endMicros);
  }

  private void pushRing(long time, long seq, Event event) {
    int node = freeNode;
    if (node >= 0) {
      freeNode = nodeNext[node];
    } else {
      if (usedNodes == nodeTime.length) {
        int grown = usedNodes * 2;
        nodeTime = Arrays.copyOf(nodeTime, grown);
        nodeSeq = Arrays.copyOf(nodeSeq, grown);
        nodeEvent = Arrays.copyOf(nodeEvent, grown);
        nodeNext = Arrays.copyOf(nodeNext, grown);
      }
      node = usedNodes++;
    }
    nodeTime[node] = time;
    nodeSeq[node] = seq;
    nodeEvent[node] = event;
    nodeNext[node] = -1;
    int bucket = (int) (time & RING_MASK);
    int tail = bucketTail[bucket];
    if (tail < 0) {
      bucketHead[bucket] = node;
      occupied[bucket >>> 6] |= 1L << bucket;
    } else {
      nodeNext[tail] = node;
    }
    bucketTail[bucket] = node;
    ringSize++;
  }

  /** The first non-empty bucket at or after now's, wrapping around; the ring must not be empty. */
  private int firstBucket() {
    int start = (int) (now & RING_MASK);
    int word = start >>> 6;
    long bits = occupied[word] & (-1L << start);
    int words = occupied.length;
    for (int i = 0; i <= words; i++) {
      if (bits != 0) {
        return (word << 6) + Long.numberOfTrailingZeros(bits);
      }
      word = (word + 1) & (words - 1);
      bits = occupied[word];
    }
    throw new IllegalStateException("event ring holds " + ringSize + " events but no bucket is occupied");
  }

  private Event popRing(int bucket) {
    int node = bucketHead[bucket];
    int next = nodeNext[node];
    bucketHead[bucket] = next;
    if (next < 0) {
      bucketTail[bucket] = -1;
      occupied[bucket >>> 6] &= ~(1L << bucket);
    }
    Event event = nodeEvent[node];
    nodeEvent[node] = null;
    nodeNext[node] = freeNode;
    freeNode = node;
    ringSize--;
    return event;
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
    return ringSize + far.size;
  }

  /** A binary min-heap of events; keys[2i] is slot i's time and keys[2i + 1] its sequence number, side by side. */
  private static final class Heap {
    private long[] keys = new long[2048];
    private Event[] events = new Event[1024];
    private int size;

    long topTime() {
      return keys[0];
    }

    long topSequence() {
      return keys[1];
    }

    void push(long time, long seq, Event event) {
      if (size == events.length) {
        int grown = size * 2;
        keys = Arrays.copyOf(keys, 2 * grown);
        events = Arrays.copyOf(events, grown);
      }
      long[] k = keys;
      Event[] e = events;
      int i = size++;
      // The new event has the largest sequence number so far, so it moves up only past strictly later times.
      while (i > 0) {
        int parent = (i - 1) >>> 1;
        if (time >= k[2 * parent]) {
          break;
        }
        k[2 * i] = k[2 * parent];
        k[2 * i + 1] = k[2 * parent + 1];
        e[i] = e[parent];
        i = parent;
      }
      k[2 * i] = time;
      k[2 * i + 1] = seq;
      e[i] = event;
    }

    Event pop() {
      Event top = events[0];
      int last = --size;
      long[] k = keys;
      Event[] e = events;
      long time = k[2 * last];
      long seq = k[2 * last + 1];
      Event moved = e[last];
      e[last] = null;
      if (last == 0) {
        return top;
      }
      int i = 0;
      while (true) {
        int child = 2 * i + 1;
        if (child >= last) {
          break;
        }
        long childTime = k[2 * child];
        long childSeq = k[2 * child + 1];
        if (child + 1 < last) {
          long rightTime = k[2 * child + 2];
          long rightSeq = k[2 * child + 3];
          if (before(rightTime, rightSeq, childTime, childSeq)) {
            child++;
            childTime = rightTime;
            childSeq = rightSeq;
          }
        }
        if (!before(childTime, childSeq, time, seq)) {
          break;
        }
        k[2 * i] = childTime;
        k[2 * i + 1] = childSeq;
        e[i] = e[child];
        i = child;
      }
      k[2 * i] = time;
      k[2 * i + 1] = seq;
      e[i] = moved;
      return top;
    }

    static boolean before(long timeA, long seqA, long timeB, long seqB) {
      return timeA < timeB || (timeA == timeB && seqA < seqB);
    }
  }
}
