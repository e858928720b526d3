package org.eafr.namenode.relayout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.namenode.FSDirectory;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.cluster.StorageBlockWalk;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.relayout.RelayoutBlock;
import org.eafr.placement.gear.relayout.RelayoutPlanner;

/**
 * What relayout plans from: the complete blocks of closed files, each with its live, in-service holders' chain
 * positions; and the bytes the planner's shares are of. Both the relayout service's batches and its dry run
 * ({@link RelayoutDryRun}) read them here.
 *
 * <p>Lock: a batch's files are read under holds of the namesystem read lock of whole files up to
 * {@link StorageBlockWalk#BATCH} blocks (one file a hold when a file has more). Under a hold the reader looks a file up
 * by its inode id and copies each block's id, length, generation stamp and holders into arrays made before the hold,
 * allocating nothing per block (a young-generation collection triggered by the walk then falls between holds, not
 * inside one); the blocks' objects are made after the hold ends. A hold starts at the start of a CPU slice of its
 * thread ({@link FreshSlice}), so a busy host's scheduler rarely takes its core while it holds the lock.
 */
final class RelayoutBlocks {
  private RelayoutBlocks() {
  }

  /** The complete blocks of {@code files} (closed files only; a file gone meanwhile has none), in file order. */
  static List<StoredBlock> of(NameNode nameNode, List<NamespaceWalk.WalkedFile> files, GearedLayout layout) {
    Positions positions = Positions.of(nameNode, layout);
    Copied copied = new Copied(files.size());
    List<StoredBlock> blocks = new ArrayList<>(files.size());
    FSNamesystem namesystem = nameNode.getNamesystem();
    int file = 0;
    while (file < files.size()) {
      copied.clear();
      FreshSlice.beforeHold();
      namesystem.readLock();
      try {
        FSDirectory directory = namesystem.getFSDirectory();
        do {
          copied.file(directory.getInode(files.get(file).id), positions);
          file++;
        } while (file < files.size() && copied.count < StorageBlockWalk.BATCH);
      } finally {
        namesystem.readUnlock();
      }
      copied.addTo(blocks);
    }
    return blocks;
  }

  /**
   * The bytes of the namespace's blocks, one copy each, as the DataNodes of the layout report them: their block pool
   * use over {@code dfs.replication}. So the planner's shares are of the whole namespace from the first batch on.
   */
  static long expectedBytes(NameNode nameNode, GearedLayout layout) {
    long used = 0;
    for (long held : expectedHeld(nameNode, layout)) {
      used += held;
    }
    return used / Math.max(1, nameNode.getConf().getInt(DFSConfigKeys.DFS_REPLICATION_KEY,
        DFSConfigKeys.DFS_REPLICATION_DEFAULT));
  }

  /**
   * Per chain position, the bytes its DataNode holds, as what a relayout's first walk will find on it (so a move's
   * target keeps room for its own replicas in batches not read yet): the block map's count of its replicas times the
   * mean replica the DataNodes report (their block pool use over all their replicas). The count is exact; a DataNode's
   * own use lags the Balancer's and HDFS's moves (RelayoutClusterTest saw 1.5 MB reported by a DataNode holding 4).
   * Cost: one pass over the layout's DataNodes.
   */
  static long[] expectedHeld(NameNode nameNode, GearedLayout layout) {
    long[] replicas = new long[layout.chain().size()];
    long used = 0;
    long all = 0;
    for (String id : layout.chain().ids(ActiveSet.all(layout.chain()).positions())) {
      DatanodeDescriptor dn = ServerTranslator.dataNodeOf(
          nameNode.getNamesystem().getBlockManager().getDatanodeManager(), id);
      if (dn != null) {
        replicas[layout.chain().position(id)] = dn.numBlocks();
        used += dn.getBlockPoolUsed();
        all += dn.numBlocks();
      }
    }
    long[] held = new long[replicas.length];
    for (int p = 0; p < held.length; p++) {
      held[p] = all == 0 ? 0 : Math.round((double) used * replicas[p] / all);
    }
    return held;
  }

  /** The chain position of each registered DataNode of the layout, looked up before the hold. */
  private static final class Positions {
    final Map<DatanodeDescriptor, Integer> byDataNode = new IdentityHashMap<>();

    static Positions of(NameNode nameNode, GearedLayout layout) {
      DatanodeManager dataNodes = nameNode.getNamesystem().getBlockManager().getDatanodeManager();
      Positions positions = new Positions();
      for (String id : layout.chain().ids(ActiveSet.all(layout.chain()).positions())) {
        DatanodeDescriptor dn = ServerTranslator.dataNodeOf(dataNodes, id);
        if (dn != null) {
          positions.byDataNode.put(dn, layout.chain().position(id));
        }
      }
      return positions;
    }

    /** The chain position of a live, in-service DataNode of the layout; -1 for any other. */
    int of(DatanodeDescriptor dn) {
      Integer position = dn == null || !dn.isAlive() || !dn.isInService() ? null : byDataNode.get(dn);
      return position == null ? -1 : position;
    }
  }

  /**
   * Blocks copied under one hold: primitives in arrays reused from hold to hold, grown only when a hold needs more;
   * block {@code b}'s holders are {@code holders[firsts[b]]} up to {@code holders[firsts[b + 1]]}.
   */
  private static final class Copied {
    long[] ids;
    long[] lengths;
    long[] stamps;
    int[] firsts;
    int[] holders;
    int count;

    Copied(int blocks) {
      int capacity = Math.min(StorageBlockWalk.BATCH, Math.max(1, blocks));
      ids = new long[capacity];
      lengths = new long[capacity];
      stamps = new long[capacity];
      firsts = new int[capacity + 1];
      holders = new int[4 * capacity];
    }

    void clear() {
      count = 0;
    }

    /** Copies the complete blocks of a closed file; a gone or open file has none. Under the read lock. */
    void file(INode inode, Positions positions) {
      if (inode == null || !inode.isFile() || inode.asFile().isUnderConstruction()) {
        return;
      }
      for (BlockInfo block : inode.asFile().getBlocks()) {
        if (block.isComplete()) {
          block(block, positions);
        }
      }
    }

    private void block(BlockInfo block, Positions positions) {
      if (count == ids.length) {
        ids = Arrays.copyOf(ids, 2 * count);
        lengths = Arrays.copyOf(lengths, 2 * count);
        stamps = Arrays.copyOf(stamps, 2 * count);
        firsts = Arrays.copyOf(firsts, 2 * count + 1);
      }
      ids[count] = block.getBlockId();
      lengths[count] = block.getNumBytes();
      stamps[count] = block.getGenerationStamp();
      int first = firsts[count];
      int end = first;
      for (int i = 0; i < block.getCapacity(); i++) {
        int position = positions.of(block.getDatanode(i));
        if (position >= 0 && !contains(first, end, position)) {
          if (end == holders.length) {
            holders = Arrays.copyOf(holders, 2 * end);
          }
          holders[end++] = position;
        }
      }
      firsts[++count] = end;
    }

    private boolean contains(int from, int to, int position) {
      for (int h = from; h < to; h++) {
        if (holders[h] == position) {
          return true;
        }
      }
      return false;
    }

    /** The copied blocks as objects, made after the hold. */
    void addTo(List<StoredBlock> blocks) {
      for (int b = 0; b < count; b++) {
        blocks.add(new StoredBlock(new Block(ids[b], lengths[b], stamps[b]),
            Arrays.copyOfRange(holders, firsts[b], firsts[b + 1])));
      }
    }
  }

  /** A complete block of a closed file and its live holders' chain positions. */
  static final class StoredBlock {
    final Block block;
    final int[] holders;

    StoredBlock(Block block, int[] holders) {
      this.block = block;
      this.holders = holders;
    }

    /** The block as the core's {@link RelayoutPlanner} plans it. */
    RelayoutBlock planned() {
      return new RelayoutBlock(block.getBlockName(), block.getNumBytes(), holders);
    }
  }
}
