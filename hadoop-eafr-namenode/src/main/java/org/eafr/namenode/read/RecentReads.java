package org.eafr.namenode.read;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.LongSupplier;

/**
 * Reads the NameNode recently directed to each DataNode, as an exponentially decaying counter per DataNode: the part
 * of a DataNode's read queue (EAFR Alg. 3) that its last heartbeat, up to seconds old, does not show yet. Each
 * directed read adds 1; the count halves every half-life.
 *
 * <p>Worked example, half-life 10 s: two reads at t = 0 s give 2.0; at t = 10 s the count is 1.0, and a read then
 * makes it 2.0; at t = 30 s it is 0.5.
 *
 * <p>Thread-safe: IPC handler threads record concurrently; one small lock per DataNode.
 */
public final class RecentReads {
  private final double halfLifeMillis;
  private final LongSupplier clockMillis;
  private final ConcurrentMap<String, Counter> counters = new ConcurrentHashMap<>();

  public RecentReads(long halfLifeMillis, LongSupplier clockMillis) {
    if (halfLifeMillis < 1) {
      throw new IllegalArgumentException("halfLifeMillis " + halfLifeMillis + " is not allowed: expected >= 1");
    }
    this.halfLifeMillis = halfLifeMillis;
    this.clockMillis = clockMillis;
  }

  /** Counts one read directed to {@code serverId}. */
  public void directed(String serverId) {
    counters.computeIfAbsent(serverId, id -> new Counter()).add(clockMillis.getAsLong());
  }

  /** The decayed count of reads recently directed to {@code serverId}. */
  public double count(String serverId) {
    Counter counter = counters.get(serverId);
    return counter == null ? 0 : counter.value(clockMillis.getAsLong());
  }

  private final class Counter {
    private double value;
    private long at;

    synchronized void add(long now) {
      value = value(now) + 1;
      at = now;
    }

    synchronized double value(long now) {
      return now <= at ? value : value * Math.pow(0.5, (now - at) / halfLifeMillis);
    }
  }
}
