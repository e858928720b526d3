package org.eafr.namenode.gear;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The DataNodes a gear-up took out of maintenance less than {@code eafr.gear.warm-up.ms} ago. A woken DataNode serves
 * its first reads from a cold JVM and cold caches: in the demo its first two reads took 250-330 ms against 5-40 ms a
 * second later. While it warms, the reader ordering counts its read queue one round of read slots longer, so a warm
 * holder of the block is listed first unless every warm one has a round queued (then the woken one takes the read, as
 * the extra capacity it was woken for).
 *
 * <p>Times are the caller's clock in milliseconds (the reader ordering's, Hadoop's monotonic time). Checking costs
 * one volatile read per block while nothing warms. Thread-safe.
 */
public final class WarmingDataNodes {
  private final Map<String, Long> until = new ConcurrentHashMap<>();
  /** The latest end of any warm-up: no DataNode warms at or after it. */
  private volatile long latestEnd = Long.MIN_VALUE;

  /** DataNodes {@code ids} came back into service at {@code atMillis}; each warms for {@code warmUpMillis}. */
  public void returned(Set<String> ids, long atMillis, long warmUpMillis) {
    if (warmUpMillis <= 0 || ids.isEmpty()) {
      return;
    }
    long end = atMillis + warmUpMillis;
    until.values().removeIf(oldEnd -> oldEnd <= atMillis);
    ids.forEach(id -> until.put(id, end));
    latestEnd = Math.max(latestEnd, end);
  }

  /** Whether any DataNode warms at {@code nowMillis}. */
  public boolean any(long nowMillis) {
    return nowMillis < latestEnd;
  }

  /** Whether DataNode {@code id} warms at {@code nowMillis}. */
  public boolean warming(String id, long nowMillis) {
    Long end = until.get(id);
    return end != null && nowMillis < end;
  }
}
