package org.eafr.placement.popularity;

import static org.assertj.core.api.Assertions.fail;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Exact read counts of one interval, kept beside a {@link ReadStatistics} to check the bounds it reports. */
final class TrueReads {
  private static final int TOTAL = 0;
  private static final int UNATTRIBUTED = 1;
  private static final int FIRST_SERVER = 2;

  private final List<String> serverIds;
  private final Map<String, Integer> serverIndex = new HashMap<>();
  /** Per file: total reads, unattributed reads, then the reads on each server of {@code serverIds}. */
  private final Map<String, long[]> counts = new HashMap<>();

  TrueReads(List<String> serverIds) {
    this.serverIds = serverIds;
    for (int i = 0; i < serverIds.size(); i++) {
      serverIndex.put(serverIds.get(i), FIRST_SERVER + i);
    }
  }

  void record(String fileId, String serverId) {
    long[] fileCounts = counts.computeIfAbsent(fileId, f -> new long[FIRST_SERVER + serverIds.size()]);
    fileCounts[TOTAL]++;
    fileCounts[serverId == null ? UNATTRIBUTED : serverIndex.get(serverId)]++;
  }

  long reads(String fileId) {
    return count(fileId, TOTAL);
  }

  long replicaReads(String fileId, String serverId) {
    return count(fileId, serverIndex.get(serverId));
  }

  int distinctFiles() {
    return counts.size();
  }

  private long count(String fileId, int index) {
    long[] fileCounts = counts.get(fileId);
    return fileCounts == null ? 0 : fileCounts[index];
  }

  /** Fails at the first bound of {@code interval} that misses a true count, over the given files and all servers. */
  void assertBoundsHold(IntervalReads interval, List<String> fileIds) {
    for (String fileId : fileIds) {
      FileReads reads = interval.reads(fileId);
      assertWithin(reads, "v_i", reads.readsLowerBound(), reads(fileId));
      assertWithin(reads, "unattributed", reads.unattributedReads(), count(fileId, UNATTRIBUTED));
      for (String serverId : serverIds) {
        assertWithin(reads, "v_ij on " + serverId, reads.replicaReadsLowerBound(serverId),
            replicaReads(fileId, serverId));
      }
      if (!interval.isTracked(fileId) && reads(fileId) > interval.floor()) {
        fail(fileId + ": untracked with " + reads(fileId) + " reads, above the floor " + interval.floor());
      }
    }
  }

  /** Every bound is [lower, lower + error]. */
  private static void assertWithin(FileReads reads, String what, long lower, long actual) {
    if (actual < lower || actual > lower + reads.error()) {
      fail(reads + ": true " + what + " = " + actual + " is outside [" + lower + ", " + (lower + reads.error()) + "]");
    }
  }
}
