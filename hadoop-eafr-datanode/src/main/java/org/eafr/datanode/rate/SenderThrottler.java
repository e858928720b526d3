package org.eafr.datanode.rate;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.hadoop.hdfs.util.Canceler;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;
import org.eafr.placement.rate.RateAdjustment;
import org.eafr.placement.rate.RateDirection;
import org.eafr.placement.rate.ReceiveRateController;
import org.eafr.placement.rate.ReceiverRates;
import org.eafr.placement.rate.SenderUse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DataNode's write throttler with one rate per sender (EAFR Alg. 2). HDFS calls {@link #throttle(long)} after
 * every packet of every inbound block write (client, pipeline mirror, re-replication) on the receiving DataXceiver
 * thread, whose name carries the sending connection ({@link XceiverThreadName}); each connection is one sender, aged
 * from its first packet. The core's {@link ReceiverRates} grants the rates and {@link #adjust()} runs one round of
 * Alg. 2; this class only attributes packets, paces each sender to its rate and counts.
 *
 * <p>Pacing: a sender's packets are spaced by bytes / rate, with at most {@link #BURST_NANOS} of credit after a pause,
 * so that the receiver reads (and its TCP window opens) smoothly rather than in the base class's 500 ms bursts that
 * let every sender fill the receiver's queue at once. A sender waiting when a round changes its rate waits the rest
 * at the new rate. Each round also learns, per sender, the bytes it delivered and whether its rate held it back
 * ({@link SenderUse}): the core gives the share a sender does not use to the others.
 *
 * <p>Senders do not wait on each other: a packet takes a lock only when its thread starts a new write.
 */
public final class SenderThrottler extends DataTransferThrottler {
  /**
   * Credit a sender keeps after a pause: 20 ms, about four 64 KiB packets at 100 Mbit/s, so that a reader that was
   * descheduled for a moment catches up instead of leaving its share of the link unused.
   */
  static final long BURST_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
  /** Without pacing: a sender that delivered at least this share of its rate in a period used its window. */
  static final double WINDOW_HELD_SHARE = 0.8;
  private static final long SLEEP_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
  /** One line per round at DEBUG: c_b, the rates granted and what each sender used (scripts/bench/incast.sh). */
  private static final Logger TRACE = LoggerFactory.getLogger(SenderThrottler.class.getName() + ".trace");

  private final Object lock = new Object();
  private final ReceiverRates rates; // guarded by lock
  private final Map<Thread, Sender> senders = new ConcurrentHashMap<>();
  private final ReceiveStats stats;
  private final long maxWaitNanos;
  private final boolean paces;
  private final LongSupplier nanoTime;
  private volatile List<RateAdjustment> lastAdjustments = List.of();
  private long lastRoundNanos = Long.MIN_VALUE; // guarded by lock

  /**
   * @param capacityBytesPerSecond c_b, &gt; 0
   * @param maxWaitMillis the longest one packet may be held back, &gt; 0 ({@link #maxWaitMillis(int)})
   * @param paces whether packets are spaced by bytes / rate ({@code pacing}); without, the rates only set the
   *     connections' receive windows ({@code window}, {@link ReceiveWindows}) and packets are counted, never held
   */
  public SenderThrottler(ReceiveRateController controller, long capacityBytesPerSecond, long maxWaitMillis,
      boolean paces, ReceiveStats stats) {
    this(controller, capacityBytesPerSecond, maxWaitMillis, paces, stats, System::nanoTime);
  }

  SenderThrottler(ReceiveRateController controller, long capacityBytesPerSecond, long maxWaitMillis,
      ReceiveStats stats, LongSupplier nanoTime) {
    this(controller, capacityBytesPerSecond, maxWaitMillis, true, stats, nanoTime);
  }

  private SenderThrottler(ReceiveRateController controller, long capacityBytesPerSecond, long maxWaitMillis,
      boolean paces, ReceiveStats stats, LongSupplier nanoTime) {
    super(capacityBytesPerSecond);
    this.paces = paces;
    if (maxWaitMillis <= 0) {
      throw new IllegalArgumentException("maxWaitMillis = " + maxWaitMillis + " is not allowed: expected > 0");
    }
    this.rates = new ReceiverRates(controller, capacityBytesPerSecond);
    this.maxWaitNanos = TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
    this.stats = stats;
    this.nanoTime = nanoTime;
    stats.capacity(capacityBytesPerSecond);
  }

  /**
   * The longest one packet may wait: half the socket timeout ({@code dfs.client.socket-timeout}, ms) with which the
   * sender waits for this DataNode's acknowledgement, so that pacing never makes a writer time out; a minute when
   * the timeout is off (0). Example: the default 60000 ms gives 30000 ms.
   */
  public static long maxWaitMillis(int socketTimeoutMillis) {
    return socketTimeoutMillis > 0 ? Math.max(1, socketTimeoutMillis / 2) : TimeUnit.MINUTES.toMillis(1);
  }

  @Override
  public void throttle(long numOfBytes) {
    throttle(numOfBytes, null);
  }

  @Override
  public void throttle(long numOfBytes, Canceler canceler) {
    if (numOfBytes <= 0) {
      return;
    }
    stats.received(numOfBytes);
    Sender sender = senderOfCurrentThread();
    if (!paces) {
      sender.periodBytes.addAndGet(numOfBytes);
      return;
    }
    long start = nanoTime.getAsLong();
    if (sender.pace(numOfBytes, start) > 0) {
      await(sender, canceler);
      stats.throttled(nanoTime.getAsLong() - start);
    }
  }

  /** c_b in bytes per second. */
  @Override
  public long getBandwidth() {
    synchronized (lock) {
      return (long) rates.capacity();
    }
  }

  /** Sets c_b; every sender's rate is capped to it at once. */
  @Override
  public void setBandwidth(long bytesPerSecond) {
    if (bytesPerSecond <= 0) {
      throw new IllegalArgumentException("bandwidth " + bytesPerSecond + " bytes/s is not allowed: expected > 0");
    }
    synchronized (lock) {
      rates.capacity(bytesPerSecond);
      publishRates();
    }
    stats.capacity(bytesPerSecond);
  }

  /**
   * One round of Alg. 2: what each sender delivered since the last round and whether its rate held it back, then
   * forgets senders whose write ended, asks the core for every remaining sender's adjustment and gives each sender its
   * new rate.
   */
  public void adjust() {
    long now = nanoTime.getAsLong();
    synchronized (lock) {
      Map<String, SenderUse> use = useSinceLastRound(now);
      forgetFinished();
      List<RateAdjustment> adjustments = rates.adjust(use);
      long down = 0;
      long up = 0;
      for (RateAdjustment adjustment : adjustments) {
        down += adjustment.direction() == RateDirection.DOWN ? 1 : 0;
        up += adjustment.direction() == RateDirection.UP ? 1 : 0;
      }
      stats.adjusted(down, up);
      publishRates();
      lastAdjustments = adjustments;
      stats.senders(rates.senders());
      trace(use);
    }
    stats.sample(now);
  }

  /** Per sender, bytes per second since the last round and whether pacing made it wait; resets the counts. */
  private Map<String, SenderUse> useSinceLastRound(long nowNanos) {
    double seconds = lastRoundNanos == Long.MIN_VALUE ? 0 : (nowNanos - lastRoundNanos) / 1e9;
    lastRoundNanos = nowNanos;
    Map<String, SenderUse> use = new LinkedHashMap<>();
    for (Sender sender : senders.values()) {
      long bytes = sender.periodBytes.getAndSet(0);
      // Held back: it waited in the period, or is waiting now (a packet larger than a period's worth at its rate).
      boolean heldBack = sender.heldBack.getAndSet(false) | sender.waitsAt(nowNanos);
      if (seconds > 0) {
        double bytesPerSecond = bytes / seconds;
        // Under a window, a sender its window holds back delivers about its rate; one that delivers much less is
        // limited elsewhere (its source, its own TCP).
        use.put(sender.id, new SenderUse(bytesPerSecond,
            paces ? heldBack : bytesPerSecond >= WINDOW_HELD_SHARE * sender.rate));
      }
    }
    return use;
  }

  /** At DEBUG, one line per round: c_b, the sum of the rates now allowed, and each sender's rate against its use. */
  private void trace(Map<String, SenderUse> use) {
    if (!TRACE.isDebugEnabled()) {
      return;
    }
    StringBuilder line = new StringBuilder();
    double used = 0;
    for (Map.Entry<String, SenderUse> sender : use.entrySet()) {
      SenderUse u = sender.getValue();
      used += u.bytesPerSecond();
      line.append(' ').append(sender.getKey()).append('=').append(Math.round(rates.rate(sender.getKey())))
          .append('/').append(Math.round(u.bytesPerSecond())).append(u.isHeldBack() ? "/held" : "/free");
    }
    TRACE.debug("round c_b={} allowed={} used={} senders={}{}", Math.round(rates.capacity()),
        Math.round(rates.granted()), Math.round(used), rates.senders(), line);
  }

  /** Sender to granted rate in bytes per second, oldest connection first. */
  public Map<String, Double> ratesOldestFirst() {
    synchronized (lock) {
      return rates.ratesOldestFirst();
    }
  }

  public ReceiveStats stats() {
    return stats;
  }

  /** The longest one packet waits, in milliseconds. */
  public long maxWaitMillis() {
    return TimeUnit.NANOSECONDS.toMillis(maxWaitNanos);
  }

  /** The core's decision in the last round, oldest connection first. */
  public List<RateAdjustment> lastAdjustments() {
    return lastAdjustments;
  }

  private Sender senderOfCurrentThread() {
    Thread thread = Thread.currentThread();
    String name = thread.getName();
    Sender sender = senders.get(thread);
    if (sender != null && sender.threadName.equals(name)) {
      return sender;
    }
    synchronized (lock) {
      if (sender != null) { // the same connection writes its next block: a new transfer
        rates.remove(sender.id);
        senders.remove(thread);
      }
      String peer = XceiverThreadName.peer(name);
      String id = unusedId(peer == null ? name : peer);
      sender = new Sender(id, name, rates.admit(id));
      senders.put(thread, sender);
      publishRates(); // admitting a sender splits the link again
      stats.senders(rates.senders());
      return sender;
    }
  }

  private String unusedId(String base) {
    String id = base;
    for (int n = 2; rates.rate(id) > 0; n++) {
      id = base + "#" + n;
    }
    return id;
  }

  /** A write has ended when its thread is gone or has moved on to another operation (renamed). */
  private void forgetFinished() {
    Iterator<Map.Entry<Thread, Sender>> it = senders.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<Thread, Sender> entry = it.next();
      Thread thread = entry.getKey();
      if (!thread.isAlive() || !thread.getName().equals(entry.getValue().threadName)) {
        rates.remove(entry.getValue().id);
        it.remove();
      }
    }
  }

  private void publishRates() {
    for (Sender sender : senders.values()) {
      sender.rate = rates.rate(sender.id);
    }
  }

  /**
   * Waits until the sender's clock allows its next read, in slices: when a round changes the sender's rate meanwhile
   * (e.g. an older connection ended and its share came to this one), the rest of the wait is rescaled to the new
   * rate, so a large packet booked at a small rate does not keep the link idle. No packet waits longer than
   * {@link #maxWaitMillis(int)}: the rest of its booking is then forgiven.
   */
  private void await(Sender sender, Canceler canceler) {
    long deadline = nanoTime.getAsLong() + maxWaitNanos;
    for (long now = nanoTime.getAsLong(), left = sender.left(now); left > 0; now = nanoTime.getAsLong(),
        left = sender.left(now)) {
      if (canceler != null && canceler.isCancelled()) {
        return;
      }
      if (now - deadline >= 0) { // the writer must hear from us before its socket timeout: let this packet in
        sender.forgive(now);
        stats.waitCapped();
        return;
      }
      left = Math.min(left, deadline - now);
      try {
        TimeUnit.NANOSECONDS.sleep(Math.min(left, SLEEP_SLICE_NANOS));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // as the base class: stop waiting, let the caller see the interrupt
        return;
      }
    }
  }

  /** One sending connection: its rate (set by the adjusting thread) and its pacing clock (its own thread only). */
  private static final class Sender {
    final String id;
    final String threadName;
    volatile double rate;
    /** Bytes since the last round, and whether pacing made this sender wait in it. */
    final AtomicLong periodBytes = new AtomicLong();
    final AtomicBoolean heldBack = new AtomicBoolean();
    private volatile long waitsUntilNanos = Long.MIN_VALUE;
    private long nextNanos = Long.MIN_VALUE;
    private double pacedRate;

    Sender(String id, String threadName, double rate) {
      this.id = id;
      this.threadName = threadName;
      this.rate = rate;
    }

    /** Whether this sender's thread is still waiting for its rate at {@code nowNanos}. */
    boolean waitsAt(long nowNanos) {
      long until = waitsUntilNanos;
      return until != Long.MIN_VALUE && until - nowNanos > 0;
    }

    /** Books {@code bytes} on this sender's clock; returns how long to wait before reading on, in nanoseconds. */
    long pace(long bytes, long nowNanos) {
      pacedRate = rate;
      long cost = (long) (bytes * 1e9 / pacedRate);
      long earliest = nowNanos - BURST_NANOS;
      nextNanos = (nextNanos == Long.MIN_VALUE ? earliest : Math.max(nextNanos, earliest)) + cost;
      periodBytes.addAndGet(bytes);
      long wait = nextNanos - nowNanos;
      if (wait > 0) {
        heldBack.set(true);
        waitsUntilNanos = nextNanos;
      }
      return wait;
    }

    /** Drops the wait still booked at {@code nowNanos}: the next packet is paced from now. */
    void forgive(long nowNanos) {
      nextNanos = nowNanos;
      waitsUntilNanos = Long.MIN_VALUE;
    }

    /** Nanoseconds still to wait at {@code nowNanos}, the rest rescaled first if the rate changed since pacing. */
    long left(long nowNanos) {
      long left = nextNanos - nowNanos;
      double current = rate;
      if (left > 0 && current != pacedRate) {
        left = (long) (left * pacedRate / current);
        nextNanos = nowNanos + left;
        waitsUntilNanos = nextNanos;
        pacedRate = current;
      }
      return left;
    }
  }

  @Override
  public String toString() {
    List<String> view = new ArrayList<>();
    ratesOldestFirst().forEach((id, rate) -> view.add(id + "=" + Math.round(rate)));
    return "SenderThrottler[c_b=" + getBandwidth() + ", " + view + "]";
  }
}
