package org.eafr.namenode.cluster;

import java.util.concurrent.atomic.LongAdder;
import org.eafr.placement.popularity.ReadStatistics;

/**
 * Joins the two halves of one read that the NameNode sees in different places: the audit logger sees the file
 * ({@code open}), the reader ordering sees the replicas and puts one first, which is the one the client reads. Both
 * run on the same IPC handler thread within one getBlockLocations call, the audit event first, so the file waits in
 * a thread-local slot until the ordering of its first block claims it; the read is then counted once, as v_ij of the
 * replica listed first (EAFR Eq. 1). Every ordering also counts towards that DataNode's recently directed reads.
 *
 * <p>Without the reader ordering installed, reads are counted as v_i only (replica unknown). An open with no block
 * to order (an empty file) is counted unattributed when the thread's next open arrives. Both paths are O(1).
 */
public final class ReadAttribution {
  private final ReadStatistics reads;
  private final RecentReads recentReads;
  /**
   * The file each IPC handler thread opened last and no ordering has claimed yet. One mutable slot per thread, read and
   * written in place: a handler thread's ThreadLocalMap is crowded (Hadoop keeps many), and a JFR profile of repeat
   * opens put 3.7% of the handlers' samples in a ThreadLocal's get, set and remove, so each open and each ordering
   * does one get.
   */
  private final ThreadLocal<Pending> pending = ThreadLocal.withInitial(Pending::new);
  /** Every successful open since the NameNode started: the gear autopilot's read signal (a LongAdder: no contention). */
  private final LongAdder opens = new LongAdder();
  private volatile boolean orderingInstalled;

  public ReadAttribution(ReadStatistics reads, RecentReads recentReads) {
    this.reads = reads;
    this.recentReads = recentReads;
  }

  /** Called once by the reader ordering when the NameNode builds it. */
  public void orderingInstalled() {
    orderingInstalled = true;
  }

  /** The audit logger saw a successful {@code open} of {@code file} on this thread. */
  public void opened(String file) {
    opens.increment();
    if (!orderingInstalled) {
      reads.recordRead(file, null);
      return;
    }
    Pending slot = pending.get();
    if (slot.file != null) {
      reads.recordRead(slot.file, null);
    }
    slot.file = file;
  }

  /** Successful opens audited since the NameNode started. */
  public long opens() {
    return opens.sum();
  }

  /** The reader ordering put {@code serverId} first for a block on this thread. */
  public void listedFirst(String serverId) {
    recentReads.directed(serverId);
    claim(serverId);
  }

  /**
   * {@link #listedFirst(String)} with the DataNode's recent-reads counter kept by the caller and the clock read at
   * {@code now} ({@link RecentReads#now}): no lookup by id.
   */
  public void listedFirst(String serverId, RecentReads.Counter directedReads, long now) {
    directedReads.add(now);
    claim(serverId);
  }

  /** Counts this thread's unclaimed open, if any, as a read of the replica on {@code serverId}. */
  private void claim(String serverId) {
    Pending slot = pending.get();
    String file = slot.file;
    if (file != null) {
      slot.file = null;
      reads.recordRead(file, serverId);
    }
  }

  /** One thread's unclaimed open (only that thread reads or writes it). */
  private static final class Pending {
    private String file;
  }
}
