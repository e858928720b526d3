package org.eafr.namenode.cluster;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.BiPredicate;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;

/**
 * The blocks HDFS has queued for re-replication that have no live replica: a read of one gets no location, and a
 * recovery has no source, unless a sleeping holder wakes. Visits HDFS's queue of low-redundancy blocks in its own
 * order (highest priority first: a block whose only replicas sleep in maintenance is there), at most a given number
 * of blocks a scan, so a scan is bounded however many blocks are low on replicas.
 *
 * <p>Lock holds: the scan examines {@value #BATCH} queued blocks per hold of the namesystem read lock (about 1 us a
 * block, HDFS's {@code countNodes}), so a hold stays far under 50 ms even when its thread loses the core once while
 * holding; HDFS's own decommission monitor releases its lock after as many blocks
 * ({@code dfs.namenode.decommission.backoff.monitor.pending.blocks.per.lock} = 1000). HDFS's queue cannot hand out an
 * iterator that outlives a hold: its sets' iterators fail on any change made meanwhile (the redundancy monitor and
 * every block report change the queue), and the only positioned one, the queue's bookmark, belongs to the redundancy
 * monitor. So each hold starts a new iterator at the queue's head and steps to the last block examined (pointer
 * steps, no per-block work, at most the blocks passed so far plus the scan's limit), then goes on after it. Blocks
 * are added at the tail of their priority, so the order before that block holds across holds; if the block left the
 * queue meanwhile (re-replicated, deleted) the scan goes back to the head, where the highest priority is, and a block
 * may then be visited twice. The blocks examined count against the limit either way.
 */
public final class BlocksWithoutLiveReplica {
  /** Queued blocks examined per hold of the namesystem read lock. */
  public static final int BATCH = 1_000;

  private BlocksWithoutLiveReplica() {
  }

  /**
   * Hands each contiguous block with no live replica among the first {@code maxScanned} queued blocks to
   * {@code visitor}, with the ids (IP:transfer port) of the DataNodes HDFS records replicas on; stops early when the
   * visitor answers false. The visitor runs under the namesystem read lock (keep it quick) and must accept a block it
   * was handed before (see the class comment). Returns the queued blocks examined.
   */
  public static int scan(FSNamesystem namesystem, int maxScanned, BiPredicate<BlockInfo, List<String>> visitor) {
    Scan scan = new Scan(namesystem, maxScanned, BATCH);
    while (scan.step(visitor)) {
      // one hold of the read lock a step
    }
    return scan.examined();
  }

  /** One scan of the queue, a hold of the read lock per {@link #step}. */
  static final class Scan {
    private final FSNamesystem namesystem;
    private final BlockManager blocks;
    private final int maxScanned;
    private final int batch;
    /** The last block examined, and how many blocks from the queue's head it ended (counting it). */
    private BlockInfo last;
    private int passed;
    private int examined;
    private int restarts;

    /** A scan of at most {@code maxScanned} blocks, {@code batch} a hold ({@link #BATCH}; tests take fewer). */
    Scan(FSNamesystem namesystem, int maxScanned, int batch) {
      this.namesystem = namesystem;
      this.blocks = namesystem.getBlockManager();
      this.maxScanned = maxScanned;
      this.batch = batch;
    }

    /** Examines up to a batch more queued blocks under one read-lock hold; false once the scan is over. */
    boolean step(BiPredicate<BlockInfo, List<String>> visitor) {
      namesystem.readLock();
      try {
        Iterator<BlockInfo> it = resume();
        for (int n = 0; n < batch && examined < maxScanned && it.hasNext(); n++) {
          BlockInfo block = it.next();
          last = block;
          passed++;
          examined++;
          if (!block.isStriped() && blocks.countNodes(block).liveReplicas() == 0
              && !visitor.test(block, holders(block))) {
            return false;
          }
        }
        return examined < maxScanned && it.hasNext();
      } finally {
        namesystem.readUnlock();
      }
    }

    /** Blocks examined so far. */
    int examined() {
      return examined;
    }

    /** Times the scan went back to the queue's head because its last block had left the queue. */
    int restarts() {
      return restarts;
    }

    /** An iterator of the queue placed just after {@link #last}; at the head when the scan starts or it left. */
    private Iterator<BlockInfo> resume() {
      Iterator<BlockInfo> it = queue().iterator();
      if (last == null) {
        return it;
      }
      long bound = (long) passed + maxScanned;
      for (int steps = 1; steps <= bound && it.hasNext(); steps++) {
        if (it.next() == last) {
          passed = steps;
          return it;
        }
      }
      restarts++;
      passed = 0;
      last = null;
      return queue().iterator();
    }

    private Iterable<BlockInfo> queue() {
      return blocks.neededReconstruction; // its class is package-private, Iterable is not
    }

    private List<String> holders(BlockInfo block) {
      List<String> holders = new ArrayList<>();
      for (DatanodeStorageInfo storage : blocks.getStorages(block)) {
        holders.add(ServerTranslator.idOf(storage.getDatanodeDescriptor()));
      }
      return holders;
    }
  }
}
