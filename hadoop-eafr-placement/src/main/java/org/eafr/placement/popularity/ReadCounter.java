package org.eafr.placement.popularity;

import java.util.Arrays;

/**
 * The mutable counts of one tracked file in the current interval: v_i, the v_ij of each replica seen so far, and the
 * unattributed reads, plus the error inherited from the table's floor when the file entered it. Not thread-safe: the
 * owning {@link ReadCountTable} is guarded by one lock.
 */
final class ReadCounter {
  // Most files have 2 or 3 replicas; the arrays double in the rare case of more.
  private static final int INITIAL_REPLICAS = 3;

  private final long error;
  private long reads;
  private long unattributedReads;
  private String[] servers = new String[INITIAL_REPLICAS];
  private long[] replicaReads = new long[INITIAL_REPLICAS];
  private int replicas;

  ReadCounter(long error) {
    this.error = error;
  }

  /** One read, on {@code serverId}, or on an unknown replica when it is null. */
  void record(String serverId) {
    reads++;
    if (serverId == null) {
      unattributedReads++;
      return;
    }
    for (int i = 0; i < replicas; i++) {
      if (servers[i].equals(serverId)) {
        replicaReads[i]++;
        return;
      }
    }
    addReplica(serverId);
  }

  private void addReplica(String serverId) {
    if (replicas == servers.length) {
      servers = Arrays.copyOf(servers, replicas * 2);
      replicaReads = Arrays.copyOf(replicaReads, replicas * 2);
    }
    servers[replicas] = serverId;
    replicaReads[replicas++] = 1;
  }

  /** count + error: the most reads this file can have had, which decides who is dropped first. */
  long upperBound() {
    return reads + error;
  }

  FileReads toFileReads(String fileId) {
    FileReads.Builder builder = FileReads.builder(fileId).unattributedReads(unattributedReads).error(error);
    for (int i = 0; i < replicas; i++) {
      builder.replicaReads(servers[i], replicaReads[i]);
    }
    return builder.build();
  }
}
