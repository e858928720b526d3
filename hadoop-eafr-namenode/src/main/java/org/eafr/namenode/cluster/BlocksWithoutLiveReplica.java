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
 * recovery has no source, unless a sleeping holder wakes. Visits HDFS's queue of low-redundancy blocks under the
 * namesystem read lock, at most a given number of blocks (blocks with no live replica sit in its highest-priority
 * queue, which the iteration visits first), so a scan is bounded however many blocks are low on replicas.
 */
public final class BlocksWithoutLiveReplica {
  private BlocksWithoutLiveReplica() {
  }

  /**
   * Hands each contiguous block with no live replica among the first {@code maxScanned} queued blocks to
   * {@code visitor}, with the ids (IP:transfer port) of the DataNodes HDFS records replicas on; stops early when the
   * visitor answers false. Runs under the namesystem read lock: the visitor must be quick.
   */
  public static void scan(FSNamesystem namesystem, int maxScanned, BiPredicate<BlockInfo, List<String>> visitor) {
    BlockManager blocks = namesystem.getBlockManager();
    namesystem.readLock();
    try {
      Iterable<BlockInfo> queue = blocks.neededReconstruction; // its class is package-private, Iterable is not
      Iterator<BlockInfo> it = queue.iterator();
      for (int seen = 0; it.hasNext() && seen < maxScanned; seen++) {
        BlockInfo block = it.next();
        if (block.isStriped() || blocks.countNodes(block).liveReplicas() > 0) {
          continue;
        }
        List<String> holders = new ArrayList<>();
        for (DatanodeStorageInfo storage : blocks.getStorages(block)) {
          holders.add(ServerTranslator.idOf(storage.getDatanodeDescriptor()));
        }
        if (!visitor.test(block, holders)) {
          return;
        }
      }
    } finally {
      namesystem.readUnlock();
    }
  }
}
