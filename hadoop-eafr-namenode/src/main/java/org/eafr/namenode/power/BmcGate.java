package org.eafr.namenode.power;

import java.util.HashMap;
import java.util.Map;

/**
 * Keeps at least {@code eafr.power.min-command-interval.ms} between two calls to one BMC endpoint, whichever nodes
 * and actions they come from (several nodes may share a chassis BMC): each call reserves the next free slot.
 */
final class BmcGate {
  private final long intervalMillis;
  private final Map<String, Long> lastSlot = new HashMap<>();

  BmcGate(long intervalMillis) {
    this.intervalMillis = intervalMillis;
  }

  /** Reserves a slot for a call to {@code endpoint} no earlier than {@code earliest}; returns the slot's time. */
  synchronized long reserve(String endpoint, long earliest) {
    Long last = lastSlot.get(endpoint);
    long slot = last == null ? earliest : Math.max(earliest, last + intervalMillis);
    lastSlot.put(endpoint, slot);
    return slot;
  }

  /**
   * Reserves {@code now} for a call to {@code endpoint} only if the endpoint is idle: no slot reserved after
   * {@code now} and none within the interval before it. A call that must not wait or delay others (a background poll)
   * asks this; false means it is not made now.
   */
  synchronized boolean reserveIfIdle(String endpoint, long now) {
    Long last = lastSlot.get(endpoint);
    if (last != null && last + intervalMillis > now) {
      return false;
    }
    lastSlot.put(endpoint, now);
    return true;
  }
}
