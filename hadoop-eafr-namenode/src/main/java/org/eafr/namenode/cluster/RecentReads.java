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
 * Each counter is one immutable (value, time) pair swapped by compare-and-set; a read only loads it. The reader
 * ordering keeps each DataNode's {@link Counter} ({@link #counter}) and reads the clock once per block, so a block's
 * replicas cost no lookup by id; the decay of the last second is a table of the same {@code Math.pow} values.
 */
public final class RecentReads {
  /** Decay factors 0.5^(dt / half-life) for dt below this many milliseconds come from a table. */
  private static final int TABLED_MILLIS = 1024;
  private final double halfLifeMillis;
  private final LongSupplier clockMillis;
  private final ConcurrentMap<String, Counter> counters = new ConcurrentHashMap<>();
  private final double[] decayByMillis = new double[TABLED_MILLIS];

  public RecentReads(long halfLifeMillis, LongSupplier clockMillis) {
    if (halfLifeMillis < 1) {
      throw new IllegalArgumentException("halfLifeMillis " + halfLifeMillis + " is not allowed: expected >= 1");
    }
    this.halfLifeMillis = halfLifeMillis;
    this.clockMillis = clockMillis;
    for (int dt = 0; dt < TABLED_MILLIS; dt++) {
      decayByMillis[dt] = decay(dt);
    }
  }

  /** Counts one read directed to {@code serverId}. */
  public void directed(String serverId) {
    counter(serverId).add(now());
  }

  /** The decayed count of reads recently directed to {@code serverId}. */
  public double count(String serverId) {
    Counter counter = counters.get(serverId);
    return counter == null ? 0 : counter.value(now());
  }

  /**
   * The counter of {@code serverId}, made at 0 on first use: a caller that keeps it counts and reads it without a
   * lookup by id ({@link Counter#add}, {@link Counter#value}).
   */
  public Counter counter(String serverId) {
    Counter counter = counters.get(serverId);
    return counter != null ? counter : counters.computeIfAbsent(serverId, id -> new Counter(now()));
  }

  /** The time the counters decay by, in milliseconds: read once for all the counters a caller looks at together. */
  public long now() {
    return clockMillis.getAsLong();
  }

  /** 0.5^(dt / half-life), the same value whether tabled or not. */
  private double decay(long dt) {
    return Math.pow(0.5, dt / halfLifeMillis);
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

  /** The recent reads of one DataNode. */
  public final class Counter {
    private final AtomicReference<Decayed> state;

    Counter(long now) {
      state = new AtomicReference<>(new Decayed(0, now));
    }

    /** Counts one read directed to this DataNode at {@code now} ({@link #now}). */
    public void add(long now) {
      while (true) {
        Decayed current = state.get();
        // A racing thread may have stored a later time: this read then counts as of that time.
        long at = Math.max(now, current.at);
        if (state.compareAndSet(current, new Decayed(valueAt(current, at) + 1, at))) {
          return;
        }
      }
    }

    /** The decayed count as of {@code now} ({@link #now}). */
    public double value(long now) {
      return valueAt(state.get(), now);
    }

    private double valueAt(Decayed decayed, long now) {
      if (now <= decayed.at) {
        return decayed.value;
      }
      long dt = now - decayed.at;
      return decayed.value * (dt < TABLED_MILLIS ? decayByMillis[(int) dt] : decay(dt));
    }
  }
}
