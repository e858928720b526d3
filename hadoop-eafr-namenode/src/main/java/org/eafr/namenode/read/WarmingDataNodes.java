package org.eafr.namenode.read;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.eafr.namenode.gear.GearRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DataNodes the gears woke less than {@code eafr.reads.warm-up.ms} ago, which the reader ordering lists after every
 * warm live holder of a block. A woken DataNode is a JVM just started on a host just powered on: its first reads come
 * from cold code and cold caches while its start-up (volume scan, first block report) still runs. In the demo its
 * first reads took 66-370 ms against 5-40 ms a few seconds later, and by Alg. 3 it gets them all: its read queue is
 * empty while the warm holders' count the reads directed to them (a 10 s half-life: 41-80 at the peak's 11 reads/s,
 * above one round of 64 slots, so a woken DataNode counted one round longer still came first).
 *
 * <p>A DataNode is woken when the gear record in force ({@code GearRuntime.state()}) no longer has it asleep: the
 * gear service takes it out of maintenance in the same step, after it registered and reported. Each ordering hands
 * over the record it sees; only a record other than the last one seen is compared (a few per gear shift), so a read
 * costs two volatile reads while nothing warms. The first record seen is the baseline: nothing woke before it.
 * Times are the caller's clock in milliseconds (Hadoop's monotonic time). Thread-safe.
 *
 * <p>Worked example: warm-up 30,000 ms; the record seen at 1,000 ms has {dn3, dn4} asleep, the one seen at 5,000 ms
 * {dn4}: dn3 warms from 5,000 until 35,000 ms (warming at 34,999, not at 35,000), dn4 not at all.
 */
final class WarmingDataNodes {
  private static final Logger LOG = LoggerFactory.getLogger(WarmingDataNodes.class);

  /** eafr.reads.warm-up.ms as in force now: {@code hdfs eafr settings reload} changes it. */
  private final LongSupplier warmUpMillis;
  private final Map<String, Long> until = new ConcurrentHashMap<>();
  /** The gear record last compared; null before the first. */
  private volatile GearRecord seen;
  /** The latest end of any warm-up: no DataNode warms at or after it. */
  private volatile long latestEnd = Long.MIN_VALUE;

  /**
   * {@code warmUpMillis}: eafr.reads.warm-up.ms, read at each wake (a DataNode warming keeps the end it was given);
   * 0 warms nothing.
   */
  WarmingDataNodes(LongSupplier warmUpMillis) {
    this.warmUpMillis = warmUpMillis;
  }

  /** The gears have {@code record} in force at {@code nowMillis}: DataNodes it woke since the last one warm up. */
  void observe(GearRecord record, long nowMillis) {
    if (record == seen) {
      return;
    }
    long warmUp = warmUpMillis.getAsLong();
    Set<String> woken;
    synchronized (this) {
      GearRecord before = seen;
      if (record == before) {
        return;
      }
      seen = record;
      if (before == null) {
        return;
      }
      woken = new TreeSet<>(before.sleeping());
      woken.removeAll(record.sleeping());
      if (woken.isEmpty() || warmUp == 0) {
        return;
      }
      long end = nowMillis + warmUp;
      until.values().removeIf(oldEnd -> oldEnd <= nowMillis);
      woken.forEach(id -> until.put(id, end));
      latestEnd = Math.max(latestEnd, end);
    }
    LOG.info("EAFR reads: DataNodes {} woken by the gears; warm holders are listed before them for {} ms", woken,
        warmUp);
  }

  /** Whether any DataNode warms at {@code nowMillis}. */
  boolean any(long nowMillis) {
    return nowMillis < latestEnd;
  }

  /** Whether DataNode {@code id} (IP:transfer port) warms at {@code nowMillis}. */
  boolean warming(String id, long nowMillis) {
    Long end = until.get(id);
    return end != null && nowMillis < end;
  }
}
