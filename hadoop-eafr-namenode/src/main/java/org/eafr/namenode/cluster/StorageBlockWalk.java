package org.eafr.namenode.cluster;

import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.EafrStorageBlocks;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;

/**
 * A walk along one DataNode storage's block list, {@value #BATCH} blocks per hold of the namesystem read lock, so its
 * cost is the storage's blocks (never the namespace) and no hold is long. Between two batches the list may change:
 * the walk resumes from its last block while that block is still in the list and the storage has had no full block
 * report meanwhile (a report reorders the list); otherwise it starts the storage again, as it does when blocks were
 * added at the list's head during the walk (new replicas go there). After {@value #MAX_RESTARTS} restarts in a row it
 * gives up: the caller refuses what it was checking. A block may be visited more than once across restarts.
 *
 * <p>Why {@value #BATCH} a hold: a batch costs about 0.6 ms of CPU (0.5-0.6 us a block for the gear-down check,
 * {@code docs/namenode-bench.md}), so a hold stays far under 50 ms even when its thread loses the core once while
 * holding (a busy host's scheduler slice is a few to about 25 ms), and fewer holds get preempted at all. HDFS's own
 * decommission monitor releases its lock after as many blocks
 * ({@code dfs.namenode.decommission.backoff.monitor.pending.blocks.per.lock} = 1000). A hold more costs one lock
 * acquisition, microseconds.
 */
public final class StorageBlockWalk {
  public static final int BATCH = 1_000;
  public static final int MAX_RESTARTS = 5;

  private StorageBlockWalk() {
  }

  /** What a walk does with the blocks it visits. */
  public interface Visitor {
    /** One block of the list, under the namesystem read lock: keep it quick. */
    void visit(BlockInfo block);

    /** After each batch, the lock released: whether to go on (false ends the walk, counted as whole). */
    boolean proceed();
  }

  /**
   * Visits every block of {@code storage}'s list; true when a walk saw the whole list unchanged (or the visitor ended
   * it), false when the list changed under {@value #MAX_RESTARTS} + 1 walks in a row.
   */
  public static boolean walk(FSNamesystem namesystem, DatanodeStorageInfo storage, Visitor visitor) {
    return walk(namesystem, storage, visitor, BATCH);
  }

  /** The same, {@code batch} blocks per hold ({@link #BATCH}; tests take fewer). */
  static boolean walk(FSNamesystem namesystem, DatanodeStorageInfo storage, Visitor visitor, int batch) {
    for (int attempt = 0; attempt <= MAX_RESTARTS; attempt++) {
      Walk walk = new Walk(namesystem, storage, batch);
      boolean going = true;
      while (going && !walk.finished) {
        walk.batch(visitor);
        going = visitor.proceed();
      }
      if (!going || walk.whole) {
        return true;
      }
    }
    return false;
  }

  /** One walk along the list, a batch per lock hold. */
  private static final class Walk {
    final FSNamesystem namesystem;
    final DatanodeStorageInfo storage;
    final int batch;
    BlockInfo head;
    BlockInfo last;
    int reports;
    boolean started;
    /** The walk ended: {@link #whole} tells whether it saw the whole list, else it must start again. */
    boolean finished;
    boolean whole;

    Walk(FSNamesystem namesystem, DatanodeStorageInfo storage, int batch) {
      this.namesystem = namesystem;
      this.storage = storage;
      this.batch = batch;
    }

    void batch(Visitor visitor) {
      namesystem.readLock();
      try {
        BlockInfo next;
        if (!started) {
          started = true;
          reports = storage.getBlockReportCount();
          head = EafrStorageBlocks.head(storage);
          next = head;
        } else if (storage.getBlockReportCount() != reports || !EafrStorageBlocks.holds(storage, last)) {
          finished = true; // reordered by a full block report, or the last block left the list: start again
          return;
        } else {
          next = EafrStorageBlocks.next(storage, last);
        }
        for (int n = 0; n < batch && next != null; n++) {
          visitor.visit(next);
          last = next;
          next = EafrStorageBlocks.next(storage, next);
        }
        if (next == null) {
          finished = true; // new blocks go to the head of the list: the walk saw them all unless the head moved
          whole = EafrStorageBlocks.head(storage) == head && storage.getBlockReportCount() == reports;
        }
      } finally {
        namesystem.readUnlock();
      }
    }
  }
}
