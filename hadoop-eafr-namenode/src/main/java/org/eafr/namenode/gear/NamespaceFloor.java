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
 * <p>A block being written (under construction: its replicas are the pipeline's, reported as the write goes, not yet
 * in the block map's replica lists) is judged by its pipeline's DataNodes. The gear floor ({@link #firstUnavailable})
 * checks complete blocks only: a write under way does not refuse a shift. {@link #check} tells the two apart, so the
 * check before power-off can cancel for a complete block and wait for one being written only to leaving DataNodes
 * until it is complete (then judged like any other) or its pipeline moved to DataNodes that stay on.
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
    return check(staysOn).complete;
  }

  /**
   * One walk: the first complete block that {@code staysOn} would leave without a live replica, else the first block
   * under construction whose pipeline has no DataNode that stays on.
   */
  Gaps check(ActiveSet staysOn) {
    Predicate<String> kept = id -> staysOn.contains(id) && live.test(id);
    Gaps gaps = new Gaps();
    try {
      walk("/", kept, gaps);
    } catch (IOException e) {
      throw new UncheckedIOException("the availability check could not read the namespace", e);
    }
    return gaps;
  }

  /** What {@link #check} found: a complete block's gap, and (when there is none) one of a block being written. */
  static final class Gaps {
    Optional<UnavailableBlock> complete = Optional.empty();
    Optional<UnavailableBlock> beingWritten = Optional.empty();
  }

  private void walk(String dir, Predicate<String> kept, Gaps gaps) throws IOException {
    byte[] after = HdfsFileStatus.EMPTY_NAME;
    DirectoryListing listing;
    do {
      listing = nameNode.getRpcServer().getListing(dir, after, false);
      if (listing == null) {
        return;
      }
      for (HdfsFileStatus status : listing.getPartialListing()) {
        String path = status.getFullName(dir);
        if (status.isDirectory()) {
          walk(path, kept, gaps);
        } else {
          List<ReplicatedFile> complete = new ArrayList<>();
          List<ReplicatedFile> beingWritten = new ArrayList<>();
          blocksOf(path, complete, beingWritten);
          gaps.complete = AvailabilityCheck.firstUnavailable(complete, kept);
          if (gaps.beingWritten.isEmpty()) {
            gaps.beingWritten = AvailabilityCheck.firstUnavailable(beingWritten, kept);
          }
        }
        if (gaps.complete.isPresent()) {
          return;
        }
      }
      after = listing.getLastName();
    } while (listing.hasMore());
  }

  /**
   * Each block of the file at {@code path} with its holders, named for an operator: complete ones with the DataNodes
   * the block map lists, those being written with their pipeline's (and any that reported a finalized replica).
   */
  private void blocksOf(String path, List<ReplicatedFile> complete, List<ReplicatedFile> beingWritten) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    BlockManager blockManager = namesystem.getBlockManager();
    namesystem.readLock();
    try {
      INode inode = namesystem.getFSDirectory().getINode(path);
      if (inode == null || !inode.isFile()) {
        return;
      }
      for (BlockInfo block : inode.asFile().getBlocks()) {
        List<String> holders = new ArrayList<>();
        for (DatanodeStorageInfo storage : blockManager.getStorages(block)) {
          holders.add(ServerTranslator.idOf(storage.getDatanodeDescriptor()));
        }
        if (block.isComplete()) {
          complete.add(new ReplicatedFile(block.getBlockName() + " of file " + path, block.getNumBytes(), holders));
          continue;
        }
        for (DatanodeStorageInfo storage : block.getUnderConstructionFeature().getExpectedStorageLocations()) {
          String id = ServerTranslator.idOf(storage.getDatanodeDescriptor());
          if (!holders.contains(id)) {
            holders.add(id);
          }
        }
        beingWritten.add(new ReplicatedFile(block.getBlockName() + " (being written) of file " + path,
            block.getNumBytes(), holders));
      }
    } catch (IOException e) {
      complete.clear(); // the file went away during the walk: nothing of it to keep available
      beingWritten.clear();
    } finally {
      namesystem.readUnlock();
    }
  }
}
