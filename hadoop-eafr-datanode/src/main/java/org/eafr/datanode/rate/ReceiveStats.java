package org.eafr.datanode.rate;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the receive rate control did, for the DataNode's metrics: bytes received through it and their rate over the
 * last second, senders now, adjustments down and up (one per sender per round), time writers were held back, and how
 * often the throttler was put back after a reconfiguration replaced it. Thread-safe.
 */
public final class ReceiveStats {
  private static final long RATE_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final LongAdder bytes = new LongAdder();
  private final LongAdder throttledNanos = new LongAdder();
  private final AtomicLong adjustmentsDown = new AtomicLong();
  private final AtomicLong adjustmentsUp = new AtomicLong();
  private final AtomicLong reinstalls = new AtomicLong();
  private final AtomicLong waitsCapped = new AtomicLong();
  private volatile int senders;
  private volatile long capacityBytesPerSecond;
  private volatile long bytesPerSecond;
  private long windowStartNanos = Long.MIN_VALUE;
  private long windowStartBytes;

  void received(long count) {
    bytes.add(count);
  }

  void throttled(long nanos) {
    throttledNanos.add(nanos);
  }

  void adjusted(long down, long up) {
    adjustmentsDown.addAndGet(down);
    adjustmentsUp.addAndGet(up);
  }

  void waitCapped() {
    waitsCapped.incrementAndGet();
  }

  /** Packets let in at the wait cap (half the writer's socket timeout) before their rate allowed them. */
  public long waitsCapped() {
    return waitsCapped.get();
  }

  void reinstalled() {
    reinstalls.incrementAndGet();
  }

  void senders(int count) {
    senders = count;
  }

  void capacity(long bytesPerSecond) {
    capacityBytesPerSecond = bytesPerSecond;
  }

  /** Closes the inbound-rate window once a second has passed; called by the one adjusting thread. */
  synchronized void sample(long nowNanos) {
    long total = bytes.sum();
    if (windowStartNanos == Long.MIN_VALUE) {
      windowStartNanos = nowNanos;
      windowStartBytes = total;
      return;
    }
    long elapsed = nowNanos - windowStartNanos;
    if (elapsed >= RATE_WINDOW_NANOS) {
      bytesPerSecond = (long) ((total - windowStartBytes) * 1e9 / elapsed);
      windowStartNanos = nowNanos;
      windowStartBytes = total;
    }
  }

  public long bytes() {
    return bytes.sum();
  }

  /** Bytes received per second over the last full second. */
  public long bytesPerSecond() {
    return bytesPerSecond;
  }

  public int senders() {
    return senders;
  }

  public long adjustmentsDown() {
    return adjustmentsDown.get();
  }

  public long adjustmentsUp() {
    return adjustmentsUp.get();
  }

  public long throttledMillis() {
    return TimeUnit.NANOSECONDS.toMillis(throttledNanos.sum());
  }

  public long reinstalls() {
    return reinstalls.get();
  }

  /** c_b in use: the link capacity, or the stock write cap when that is lower. */
  public long capacityBytesPerSecond() {
    return capacityBytesPerSecond;
  }
}
