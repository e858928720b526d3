package org.eafr.placement.popularity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The read counts of one interval in at most {@code capacity} entries, in the style of Misra-Gries and lossy counting
 * (Manku and Motwani, VLDB 2002). Not thread-safe: {@link ReadStatistics} guards each table (one per stripe) with a
 * lock.
 *
 * <p>Algorithm, per read of file f:
 * <ol>
 *   <li>If f has an entry, count the read in it.</li>
 *   <li>Otherwise, if the table is full, prune: find the cut t, the {@code d}-th smallest (count + error) where
 *       {@code d = size - floor(0.75 * capacity)}, drop every entry below t and as many at t as needed to drop d, and
 *       raise the floor to t (it never falls).</li>
 *   <li>Add an entry for f with count 1 and error = floor if f may have been dropped before ({@link DroppedFiles}),
 *       else error 0: a file never dropped has had all its reads counted.</li>
 * </ol>
 * Why the bounds hold: an untracked file had every read recorded until it was dropped with count + error &lt;= t &lt;=
 * floor, and no reads are recorded while it is out, so its true count is at most the floor; when it comes back its
 * error is that floor. An untracked file that was never dropped was never read. Pruning visits every entry once per {@code capacity / 4} new files: O(1) amortized per read.
 * See {@link ReadStatistics} for a worked example.
 */
final class ReadCountTable {
  private static final double KEPT_FRACTION = 0.75;

  private final int capacity;
  private final int keptAfterPrune;
  private final Map<String, ReadCounter> counters = new HashMap<>();
  private final DroppedFiles dropped;
  private long floor;
  private long[] upperBounds;

  ReadCountTable(int capacity) {
    this.capacity = capacity;
    this.keptAfterPrune = (int) (capacity * KEPT_FRACTION);
    this.dropped = new DroppedFiles(capacity);
  }

  void record(String fileId, String serverId) {
    ReadCounter counter = counters.get(fileId);
    if (counter == null) {
      if (counters.size() >= capacity) {
        prune();
      }
      counter = new ReadCounter(mayHaveBeenDropped(fileId) ? floor : 0);
      counters.put(fileId, counter);
    }
    counter.record(serverId);
  }

  int size() {
    return counters.size();
  }

  long floor() {
    return floor;
  }

  /** False only for a file this table never dropped: then its count is exact (0 when it is not tracked). */
  boolean mayHaveBeenDropped(String fileId) {
    return floor > 0 && dropped.mightContain(fileId);
  }

  /** The reads of every tracked file. */
  List<FileReads> fileReads() {
    List<FileReads> reads = new ArrayList<>(counters.size());
    for (Map.Entry<String, ReadCounter> entry : counters.entrySet()) {
      reads.add(entry.getValue().toFileReads(entry.getKey()));
    }
    return reads;
  }

  private void prune() {
    int toDrop = counters.size() - keptAfterPrune;
    long cut = cut(toDrop);
    int dropAtCut = toDrop - countBelow(cut);
    Iterator<Map.Entry<String, ReadCounter>> it = counters.entrySet().iterator();
    while (it.hasNext()) {
      Map.Entry<String, ReadCounter> entry = it.next();
      long upperBound = entry.getValue().upperBound();
      if (upperBound < cut || (upperBound == cut && dropAtCut-- > 0)) {
        dropped.add(entry.getKey());
        it.remove();
      }
    }
    floor = Math.max(floor, cut);
  }

  /** The toDrop-th smallest count + error; leaves every entry's count + error in {@code upperBounds}. */
  private long cut(int toDrop) {
    if (upperBounds == null) {
      upperBounds = new long[capacity];
    }
    int n = 0;
    for (ReadCounter counter : counters.values()) {
      upperBounds[n++] = counter.upperBound();
    }
    return LongSelection.kthSmallest(upperBounds, n, toDrop - 1);
  }

  private int countBelow(long cut) {
    int below = 0;
    for (int i = 0; i < counters.size(); i++) {
      if (upperBounds[i] < cut) {
        below++;
      }
    }
    return below;
  }
}
