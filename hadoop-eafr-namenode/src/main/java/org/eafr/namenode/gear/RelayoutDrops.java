package org.eafr.namenode.gear;

import java.util.Collection;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.eafr.namenode.cluster.ServerTranslator;

/**
 * Relayout's block moves in flight, keyed by block: the DataNode each copies from (the replica relayout moves off its
 * non-home, or off a home above its share) and the one it copies to. Once the target holds the block, the placement
 * policy deletes the source's replica as the excess copy ({@link #sourceAmong}) even where HDFS would not take the
 * move's deletion hint (the source alone on its rack). Memory: one entry per move in flight
 * ({@code eafr.relayout.moves.concurrent} at most); relayout removes an entry once its move settles, and clears them
 * all when it stops running on this NameNode.
 */
public final class RelayoutDrops {
  private final Map<Long, Drop> byBlock = new ConcurrentHashMap<>();

  /** One move: the block as the block map stores it, and its source and target DataNodes. */
  private static final class Drop {
    final BlockInfo block;
    final String source;
    final String target;

    Drop(BlockInfo block, String source, String target) {
      this.block = block;
      this.source = source;
      this.target = target;
    }
  }

  public void add(BlockInfo block, String source, String target) {
    byBlock.put(block.getBlockId(), new Drop(block, source, target));
  }

  public void remove(long blockId) {
    byBlock.remove(blockId);
  }

  public void clear() {
    byBlock.clear();
  }

  public int size() {
    return byBlock.size();
  }

  /**
   * Of {@code replicas} (one block's, as HDFS's excess choice sees them), the one on the source of that block's move
   * in flight, when its target holds the block too; else null. The block is the move's whose stored replicas include
   * every one of {@code replicas}. Cost: O(moves in flight x replicas); the caller holds the namesystem lock.
   */
  public DatanodeStorageInfo sourceAmong(Collection<DatanodeStorageInfo> replicas) {
    if (byBlock.isEmpty()) {
      return null;
    }
    for (Drop drop : byBlock.values()) {
      DatanodeStorageInfo source = null;
      boolean target = false;
      for (DatanodeStorageInfo replica : replicas) {
        String id = ServerTranslator.idOf(replica.getDatanodeDescriptor());
        source = id.equals(drop.source) ? replica : source;
        target |= id.equals(drop.target);
      }
      if (source != null && target && storesAll(drop.block, replicas)) {
        return source;
      }
    }
    return null;
  }

  private static boolean storesAll(BlockInfo block, Collection<DatanodeStorageInfo> replicas) {
    for (DatanodeStorageInfo replica : replicas) {
      boolean stored = false;
      for (Iterator<DatanodeStorageInfo> it = block.getStorageInfos(); it.hasNext() && !stored;) {
        stored = it.next() == replica;
      }
      if (!stored) {
        return false;
      }
    }
    return true;
  }
}
