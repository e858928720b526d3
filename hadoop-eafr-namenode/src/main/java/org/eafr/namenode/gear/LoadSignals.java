package org.eafr.namenode.gear;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.placement.gear.LoadSample;

/**
 * The NameNode's own load, sampled for the {@link GearAutopilot} as the core's {@link LoadSample}, each sample over
 * the time since the previous one:
 * <ul>
 *   <li>reads: successful opens per second, counted by the read-counting audit logger (one LongAdder increment per
 *       open, {@code ReadAttribution.opens()});</li>
 *   <li>bytes written per second, every replica counted: the growth of each live DataNode's used space (its
 *       heartbeat's dfsUsed), summed over the DataNodes seen in both samples; a DataNode whose space shrank (deletes)
 *       counts 0, and one that (re)registered since the last sample counts from its next sample, so a waking gear
 *       group does not look like a write burst;</li>
 *   <li>transfers in progress: the live DataNodes' xceiver counts as of their last heartbeat, summed.</li>
 * </ul>
 * Used from one thread (the autopilot's).
 */
final class LoadSignals {
  private final LongSupplier opens;
  private final Supplier<Collection<DatanodeDescriptor>> liveDataNodes;
  private final LongSupplier monotonicMillis;
  private Map<String, Long> lastUsed;
  private long lastOpens;
  private long lastMillis;

  /**
   * @param opens successful opens since the NameNode started
   * @param liveDataNodes the DataNodes alive now
   * @param monotonicMillis a monotonic clock in milliseconds
   */
  LoadSignals(LongSupplier opens, Supplier<Collection<DatanodeDescriptor>> liveDataNodes,
      LongSupplier monotonicMillis) {
    this.opens = opens;
    this.liveDataNodes = liveDataNodes;
    this.monotonicMillis = monotonicMillis;
  }

  /** The load since the previous sample; empty for the first sample (or the first after {@link #forget()}). */
  Optional<LoadSample> sample() {
    long now = monotonicMillis.getAsLong();
    long opened = opens.getAsLong();
    Map<String, Long> used = new HashMap<>();
    long written = 0;
    int xceivers = 0;
    for (DatanodeDescriptor dn : liveDataNodes.get()) {
      String id = ServerTranslator.idOf(dn);
      used.put(id, dn.getDfsUsed());
      xceivers += dn.getXceiverCount();
      Long before = lastUsed == null ? null : lastUsed.get(id);
      if (before != null) {
        written += Math.max(0, dn.getDfsUsed() - before);
      }
    }
    Map<String, Long> previous = lastUsed;
    long elapsedMillis = Math.max(1, now - lastMillis);
    long openedSince = opened - lastOpens;
    lastUsed = used;
    lastOpens = opened;
    lastMillis = now;
    if (previous == null) {
      return Optional.empty();
    }
    double perSecond = 1000.0 / elapsedMillis;
    return Optional.of(new LoadSample(Math.max(0, openedSince) * perSecond, 0, 0, written * perSecond, xceivers));
  }

  /** Drops the previous sample (e.g. on a standby NameNode), so the next sample only starts a new window. */
  void forget() {
    lastUsed = null;
  }
}
