package org.eafr.namenode.gear;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.AvailabilityCheck;
import org.eafr.placement.gear.CleanupWork;
import org.eafr.placement.gear.GearFloor;
import org.eafr.placement.gear.UnavailableBlock;

/**
 * The gear controller's floor from the NameNode's block map: walks the namespace a listing page at a time and runs the
 * core's {@link AvailabilityCheck} on each file's blocks, counting a replica only on a DataNode that stays on and is
 * alive and in service. So a gear that would leave any block (a replication-1 file's, or one whose replicas all sit in
 * the groups that would sleep) without a live replica is found, named by block and file, before anything changes.
 *
 * <p>Cleanup work is none: on HDFS, a DataNode only reaches IN_MAINTENANCE once every block it holds has
 * {@code dfs.namenode.maintenance.replication.min} live replicas elsewhere, so HDFS itself copies what must move.
 * The walk costs one listing entry and one short read-locked block lookup per file, as a replication round does.
 */
final class NamespaceFloor implements GearFloor {
  private final NameNode nameNode;
  private final Predicate<String> live;

  /** @param live whether a DataNode id is alive and in service now (not sleeping, not decommissioned) */
  NamespaceFloor(NameNode nameNode, Predicate<String> live) {
    this.nameNode = nameNode;
    this.live = live;
  }

  @Override
  public CleanupWork cleanupFor(ActiveSet staysOn) {
    return CleanupWork.none();
  }

  @Override
  public Optional<UnavailableBlock> firstUnavailable(ActiveSet staysOn) {
    Predicate<String> kept = id -> staysOn.contains(id) && live.test(id);
    try {
      return walk("/", kept);
    } catch (IOException e) {
      throw new UncheckedIOException("the availability check could not read the namespace", e);
    }
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
            : AvailabilityCheck.firstUnavailable(blocksOf(path), kept);
        if (gap.isPresent()) {
          return gap;
        }
      }
      after = listing.getLastName();
    } while (listing.hasMore());
    return Optional.empty();
  }

  /** Each block of the file at {@code path} (closed or being written) with its holders, named for an operator. */
  private List<ReplicatedFile> blocksOf(String path) {
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
        List<String> holders = new ArrayList<>();
        for (DatanodeStorageInfo storage : blockManager.getStorages(block)) {
          DatanodeDescriptor holder = storage.getDatanodeDescriptor();
          holders.add(ServerTranslator.idOf(holder));
        }
        blocks.add(new ReplicatedFile(block.getBlockName() + " of file " + path, block.getNumBytes(), holders));
      }
    } catch (IOException e) {
      blocks.clear(); // the file went away during the walk: nothing of it to keep available
    } finally {
      namesystem.readUnlock();
    }
    return blocks;
  }
}
