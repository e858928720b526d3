package org.eafr.namenode.relayout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.relayout.RelayoutBlock;
import org.eafr.placement.gear.relayout.RelayoutPlanner;

/**
 * What relayout plans from: the complete blocks of closed files, each with its live, in-service holders' chain
 * positions, read a file per hold of the namesystem read lock; and the bytes the planner's shares are of. Both the
 * relayout service's batches and its dry run ({@link RelayoutDryRun}) read them here.
 */
final class RelayoutBlocks {
  private RelayoutBlocks() {
  }

  /** The complete blocks of {@code files} (closed files only; a file gone meanwhile has none), in file order. */
  static List<StoredBlock> of(NameNode nameNode, List<String> files, GearedLayout layout) {
    List<StoredBlock> blocks = new ArrayList<>();
    for (String path : files) {
      blocks.addAll(of(nameNode, path, layout));
    }
    return blocks;
  }

  /** The complete blocks of a closed file with their live, in-service holders' chain positions. */
  private static List<StoredBlock> of(NameNode nameNode, String path, GearedLayout layout) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    BlockManager blockManager = namesystem.getBlockManager();
    List<StoredBlock> blocks = new ArrayList<>();
    namesystem.readLock();
    try {
      INode inode = namesystem.getFSDirectory().getINode(path);
      if (inode == null || !inode.isFile() || inode.asFile().isUnderConstruction()) {
        return blocks;
      }
      for (BlockInfo block : inode.asFile().getBlocks()) {
        if (!block.isComplete()) {
          continue;
        }
        List<Integer> holders = new ArrayList<>();
        for (DatanodeStorageInfo storage : blockManager.getStorages(block)) {
          DatanodeDescriptor dn = storage.getDatanodeDescriptor();
          int position = layout.chain().position(ServerTranslator.idOf(dn));
          if (position >= 0 && dn.isAlive() && dn.isInService() && !holders.contains(position)) {
            holders.add(position);
          }
        }
        blocks.add(new StoredBlock(new Block(block.getBlockId(), block.getNumBytes(), block.getGenerationStamp()),
            holders.stream().mapToInt(Integer::intValue).toArray()));
      }
    } catch (IOException e) {
      blocks.clear(); // the file went away during the walk: nothing of it to move
    } finally {
      namesystem.readUnlock();
    }
    return blocks;
  }

  /**
   * The bytes of the namespace's blocks, one copy each, as the DataNodes of the layout report them: their block pool
   * use over {@code dfs.replication}. So the planner's shares are of the whole namespace from the first batch on.
   */
  static long expectedBytes(NameNode nameNode, GearedLayout layout) {
    long used = 0;
    for (String id : layout.chain().ids(ActiveSet.all(layout.chain()).positions())) {
      DatanodeDescriptor dn = ServerTranslator.dataNodeOf(
          nameNode.getNamesystem().getBlockManager().getDatanodeManager(), id);
      used += dn == null ? 0 : dn.getBlockPoolUsed();
    }
    return used / Math.max(1, nameNode.getConf().getInt(DFSConfigKeys.DFS_REPLICATION_KEY,
        DFSConfigKeys.DFS_REPLICATION_DEFAULT));
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
