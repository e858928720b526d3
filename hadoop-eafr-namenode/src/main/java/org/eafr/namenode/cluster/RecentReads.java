package org.eafr.namenode.cluster;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Reads the NameNode recently directed to each DataNode, as an exponentially decaying counter per DataNode: the part
 * of a DataNode's read queue (EAFR Alg. 3) that its last heartbeat, up to seconds old, does not show yet. Each
 * directed read adds 1; the count halves every half-life.
 *
 * <p>Worked example, half-life 10 s: two reads at t = 0 s give 2.0; at t = 10 s the count is 1.0, and a read then
 * makes it 2.0; at t = 30 s it is 0.5.
 *
 * <p>Thread-safe and lock-free: every read of a block consults the counters of its replicas' DataNodes, so IPC
 * handlers would all queue on a few DataNodes' locks (getBlockLocations over RPC measures it).
 * Each counter is one immutable (value, time) pair swapped by compare-and-set; a read only loads it.
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
    long now = clockMillis.getAsLong();
    Counter counter = counters.get(serverId);
    if (counter == null) {
      counter = counters.computeIfAbsent(serverId, id -> new Counter(now));
    }
    counter.add(now);
  }

  /** The decayed count of reads recently directed to {@code serverId}. */
  public double count(String serverId) {
    Counter counter = counters.get(serverId);
    return counter == null ? 0 : counter.value(clockMillis.getAsLong());
  }

  /** The decayed count as of {@code at}. */
  private static final class Decayed {
    final double value;
    final long at;

    Decayed(double value, long at) {
      this.value = value;
      this.at = at;
    }
  }

  private final class Counter {
    private final AtomicReference<Decayed> state;

    Counter(long now) {
      state = new AtomicReference<>(new Decayed(0, now));
    }

    void add(long now) {
      while (true) {
        Decayed current = state.get();
        // A racing thread may have stored a later time: this read then counts as of that time.
        long at = Math.max(now, current.at);
        if (state.compareAndSet(current, new Decayed(valueAt(current, at) + 1, at))) {
          return;
        }
      }
    }

    double value(long now) {
      return valueAt(state.get(), now);
    }

    private double valueAt(Decayed decayed, long now) {
      return now <= decayed.at ? decayed.value : decayed.value * Math.pow(0.5, (now - decayed.at) / halfLifeMillis);
    }
  }
}
