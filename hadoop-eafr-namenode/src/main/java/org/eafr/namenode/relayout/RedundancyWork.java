package org.eafr.namenode.relayout;

import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.NumberReplicas;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;

/**
 * Whether HDFS's own redundancy work is under way on blocks relayout is about to plan: a replica marked excess and not
 * yet deleted, more live replicas than the file asks (an excess HDFS has yet to mark: a restarted NameNode marks it
 * only in its scan of the blocks after safe mode, and a moved replica's source stays until the target's report), or
 * fewer (a copy HDFS will make, e.g. for the blocks a restarted NameNode counted short before every DataNode had
 * reported). Planning then would keep a replica HDFS is about to delete, or miss the one it is about to make, and the
 * block would leave its homes again once HDFS is done. Cost: one block map lookup per block, under one short
 * namesystem read lock for the batch.
 */
final class RedundancyWork {
  /** Longest a batch waits for HDFS's work on its blocks before it is planned as it stands. */
  static final long WAIT_MILLIS = 30_000;

  private RedundancyWork() {
  }

  /** The first of {@code blocks} with HDFS's work under way, described; empty when none has. */
  static Optional<String> on(FSNamesystem namesystem, List<Block> blocks) {
    BlockManager blockManager = namesystem.getBlockManager();
    namesystem.readLock();
    try {
      for (Block block : blocks) {
        BlockInfo stored = blockManager.getStoredBlock(block);
        if (stored == null) {
          continue; // deleted since the walk read it
        }
        NumberReplicas replicas = blockManager.countNodes(stored);
        int expected = blockManager.getExpectedRedundancyNum(stored);
        if (replicas.excessReplicas() > 0 || replicas.liveReplicas() != expected) {
          return Optional.of("HDFS's redundancy work on " + block.getBlockName() + " (" + replicas.liveReplicas()
              + " live replicas of " + expected + ", " + replicas.excessReplicas() + " excess)");
        }
      }
      return Optional.empty();
    } finally {
      namesystem.readUnlock();
    }
  }
}
