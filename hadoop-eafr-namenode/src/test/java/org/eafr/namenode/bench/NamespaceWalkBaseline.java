package org.eafr.namenode.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.AvailabilityCheck;
import org.eafr.placement.gear.UnavailableBlock;

/**
 * The baseline the scale benchmark compares the gear-down check with: the same question answered by walking the
 * whole namespace, a listing page at a time, with one read-locked block lookup per file (how the check worked before
 * it walked the leaving DataNodes' block lists). Complete blocks only.
 */
final class NamespaceWalkBaseline {
  private final NameNode nameNode;
  private final Predicate<String> live;

  NamespaceWalkBaseline(NameNode nameNode, Predicate<String> live) {
    this.nameNode = nameNode;
    this.live = live;
  }

  /** The first complete block {@code staysOn} would leave without a live replica, in namespace order. */
  Optional<UnavailableBlock> firstUnavailable(ActiveSet staysOn) throws IOException {
    return walk("/", id -> staysOn.contains(id) && live.test(id));
  }

  private Optional<UnavailableBlock> walk(String dir, Predicate<String> kept) throws IOException {
    byte[] after = HdfsFileStatus.EMPTY_NAME;
    DirectoryListing listing;
    do {
      listing = nameNode.getRpcServer().getListing(dir, after, false);
      if (listing == null) {
        return Optional.empty();
      }
      for (HdfsFileStatus status : listing.getPartialListing()) {
        String path = status.getFullName(dir);
        Optional<UnavailableBlock> gap = status.isDirectory() ? walk(path, kept)
            : AvailabilityCheck.firstUnavailable(completeBlocks(path), kept);
        if (gap.isPresent()) {
          return gap;
        }
      }
      after = listing.getLastName();
    } while (listing.hasMore());
    return Optional.empty();
  }

  private List<ReplicatedFile> completeBlocks(String path) throws IOException {
    FSNamesystem namesystem = nameNode.getNamesystem();
    BlockManager blockManager = namesystem.getBlockManager();
    List<ReplicatedFile> blocks = new ArrayList<>();
    namesystem.readLock();
    try {
      INode inode = namesystem.getFSDirectory().getINode(path);
      if (inode == null || !inode.isFile()) {
        return blocks;
      }
      for (BlockInfo block : inode.asFile().getBlocks()) {
        if (block.isComplete()) {
          List<String> holders = new ArrayList<>();
          for (DatanodeStorageInfo storage : blockManager.getStorages(block)) {
            holders.add(ServerTranslator.idOf(storage.getDatanodeDescriptor()));
          }
          blocks.add(new ReplicatedFile(block.getBlockName() + " of file " + path, block.getNumBytes(), holders));
        }
      }
    } finally {
      namesystem.readUnlock();
    }
    return blocks;
  }
}
