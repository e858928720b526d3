package org.eafr.namenode.transfer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.eafr.namenode.cluster.ServerTranslator;

/**
 * The {@link BlockLocations} of a running NameNode: a file's blocks and holders read under the namesystem read lock,
 * briefly and per file; a DataNode's last heartbeat (the NameNode's monotonic clock) and its queue of copies not yet
 * handed out from its descriptor.
 */
public final class NameNodeBlockLocations implements BlockLocations {
  private final FSNamesystem namesystem;

  public NameNodeBlockLocations(FSNamesystem namesystem) {
    this.namesystem = namesystem;
  }

  @Override
  public List<StoredBlock> blocksOf(String path) {
    BlockManager blockManager = namesystem.getBlockManager();
    List<StoredBlock> blocks = new ArrayList<>();
    namesystem.readLock();
    try {
      INode inode = namesystem.getFSDirectory().getINode(path);
      if (inode == null || !inode.isFile() || inode.asFile().isUnderConstruction()) {
        return blocks; // a file being written is left alone until it is closed
      }
      for (BlockInfo block : inode.asFile().getBlocks()) {
        List<String> holders = new ArrayList<>();
        for (DatanodeStorageInfo storage : blockManager.getStorages(block)) {
          holders.add(ServerTranslator.idOf(storage.getDatanodeDescriptor()));
        }
        blocks.add(new StoredBlock(block.getBlockId(), block.getNumBytes(), holders));
      }
    } catch (IOException e) { // an unresolvable path: the file is gone for our purpose
      blocks.clear();
    } finally {
      namesystem.readUnlock();
    }
    return blocks;
  }

  @Override
  public long lastHeartbeatMillis(String nodeId) {
    DatanodeDescriptor node = ServerTranslator.dataNodeOf(namesystem.getBlockManager().getDatanodeManager(), nodeId);
    return node == null ? Long.MIN_VALUE : node.getLastUpdateMonotonic();
  }

  @Override
  public int queuedCopies(String nodeId) {
    DatanodeDescriptor node = ServerTranslator.dataNodeOf(namesystem.getBlockManager().getDatanodeManager(), nodeId);
    return node == null ? 0 : node.getNumberOfReplicateBlocks();
  }
}
