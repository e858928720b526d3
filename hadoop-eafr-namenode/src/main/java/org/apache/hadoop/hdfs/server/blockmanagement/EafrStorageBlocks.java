package org.apache.hadoop.hdfs.server.blockmanagement;

import java.util.Iterator;

/**
 * The walk along one storage's block list that HDFS's own maintenance and decommission checks make
 * ({@code DatanodeAdminManager}), whose steps HDFS keeps package-private: this class lives in HDFS's package (a split
 * package; the jar is not sealed) and only reads. Callers hold the namesystem lock for each step.
 */
public final class EafrStorageBlocks {
  private EafrStorageBlocks() {
  }

  /** The first block of {@code storage}'s list, or null when it holds none. */
  public static BlockInfo head(DatanodeStorageInfo storage) {
    Iterator<BlockInfo> blocks = storage.getBlockIterator();
    return blocks.hasNext() ? blocks.next() : null;
  }

  /** Whether {@code block} is still in {@code storage}'s list (so its link to the next one is valid). */
  public static boolean holds(DatanodeStorageInfo storage, BlockInfo block) {
    return block.findStorageInfo(storage) >= 0;
  }

  /** The block after {@code block} in {@code storage}'s list, or null at its end; {@code block} must be in it. */
  public static BlockInfo next(DatanodeStorageInfo storage, BlockInfo block) {
    return block.getNext(block.findStorageInfo(storage));
  }
}
