package org.eafr.namenode.gear;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.INodeFile;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.OpenFiles;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.cluster.StorageBlockWalk;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.AvailabilityCheck;
import org.eafr.placement.gear.CleanupWork;
import org.eafr.placement.gear.GearFloor;
import org.eafr.placement.gear.UnavailableBlock;
import org.eafr.placement.gear.shift.ReplicaWalks;
import org.eafr.placement.gear.shift.ShiftFloor;

/**
 * The gear controller's floor from the NameNode's block map, counting a replica only on a DataNode that stays on and
 * is alive and in service. So a gear that would leave any block (a replication-1 file's, or one whose replicas all sit
 * in the groups that would sleep) without a live replica is found, named by block and file, before anything changes.
 *
 * <p>The check is the core's {@link ShiftFloor}, the one the simulator's shifts run: it walks the running DataNodes
 * that do not stay on, and judges the blocks being written only when no complete block is found. This class answers
 * its walks ({@link ReplicaWalks}) from HDFS: a DataNode's block list storage by storage ({@link StorageBlockWalk}: a
 * batch per hold of the namesystem read lock, nothing allocated per block), so its cost grows with the blocks on the
 * DataNodes that change state, never with the namespace; and the blocks being written (under construction: their
 * replicas are the pipeline's, reported as the write goes, not yet in the block map's replica lists) through the
 * NameNode's list of files open for writing. Every registered DataNode is walked when it runs and does not stay on,
 * those outside the expansion chain included.
 *
 * <p>Cleanup work is none: on HDFS, a DataNode only reaches IN_MAINTENANCE once every block it holds has
 * {@code dfs.namenode.maintenance.replication.min} live replicas elsewhere, so HDFS itself copies what must move.
 */
final class NamespaceFloor implements GearFloor, ReplicaWalks {
  private final NameNode nameNode;
  private final Predicate<String> live;
  private final AtomicLong visited = new AtomicLong();
  /** The registered DataNodes of the check under way, by id, and whether each stays on (decided once per check). */
  private Map<String, DatanodeDescriptor> byId = Map.of();
  private Map<DatanodeDescriptor, Boolean> keptByNode;
  private Predicate<String> keptFor;

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
    return check(staysOn).complete();
  }

  /** Blocks this floor has looked at so far (replicas on DataNodes that change state, and blocks being written). */
  long visited() {
    return visited.get();
  }

  /**
   * The first complete block that {@code staysOn} would leave without a live replica, else the first block under
   * construction whose pipeline has no DataNode that stays on. Throws IllegalStateException, naming the storage, when
   * a block list kept changing under the walk.
   */
  ShiftFloor.Gaps check(ActiveSet staysOn) {
    readRegistered();
    return ShiftFloor.check(this, byId.keySet(), id -> staysOn.contains(id) && live.test(id));
  }

  /** The registered DataNodes by id, read once per check (and again when a walk names one registered since). */
  private void readRegistered() {
    Map<String, DatanodeDescriptor> registered = new LinkedHashMap<>();
    for (DatanodeDescriptor dn : nameNode.getNamesystem().getBlockManager().getDatanodeManager()
        .getDatanodeListForReport(DatanodeReportType.ALL)) {
      registered.put(ServerTranslator.idOf(dn), dn);
    }
    byId = registered;
    keptFor = null;
  }

  @Override
  public boolean running(String id) {
    DatanodeDescriptor dn = byId.get(id);
    return dn != null && dn.isAlive();
  }

  @Override
  public Optional<UnavailableBlock> firstUnheldOn(String id, Predicate<String> kept) {
    if (!byId.containsKey(id)) {
      readRegistered(); // walked for the core's shift, whose checks do not start with check(...)
    }
    DatanodeDescriptor dn = byId.get(id);
    if (dn == null) {
      return Optional.empty();
    }
    Map<DatanodeDescriptor, Boolean> keptNow = keptByNode(kept);
    FSNamesystem namesystem = nameNode.getNamesystem();
    BlockManager blockManager = namesystem.getBlockManager();
    for (DatanodeStorageInfo storage : dn.getStorageInfos()) {
      UnavailableBlock[] gap = new UnavailableBlock[1];
      boolean whole = StorageBlockWalk.walk(namesystem, storage, new StorageBlockWalk.Visitor() {
        @Override
        public void visit(BlockInfo block) {
          visited.incrementAndGet();
          // A deleted file's block waits only for HDFS to remove it: no reader can need it.
          if (gap[0] == null && block.isComplete() && !block.isDeleted()
              && !heldOnKept(block, keptNow, kept)) {
            gap[0] = unavailable(namesystem, block, holders(blockManager, block));
          }
        }

        @Override
        public boolean proceed() {
          return gap[0] == null;
        }
      });
      if (gap[0] != null) {
        return Optional.of(gap[0]);
      }
      if (!whole) {
        throw new IllegalStateException("the availability check could not finish: the block list of " + storage
            + " on DataNode " + id + " changed under " + (StorageBlockWalk.MAX_RESTARTS + 1)
            + " walks in a row (block reports or new blocks); ask again");
      }
    }
    return Optional.empty();
  }

  /** Whether each registered DataNode stays on, decided once per check before any walk (no lookup by id per block). */
  private Map<DatanodeDescriptor, Boolean> keptByNode(Predicate<String> kept) {
    if (kept != keptFor) {
      keptByNode = new IdentityHashMap<>();
      byId.forEach((id, dn) -> keptByNode.put(dn, kept.test(id)));
      keptFor = kept;
    }
    return keptByNode;
  }

  @Override
  public Optional<UnavailableBlock> firstBeingWrittenUnheld(Predicate<String> kept) {
    try {
      return OpenFiles.first(nameNode, file -> AvailabilityCheck.firstUnavailable(blocksBeingWritten(file), kept));
    } catch (IOException e) {
      throw new UncheckedIOException("the availability check could not list the files being written", e);
    }
  }

  /**
   * Whether a DataNode that stays on holds {@code block}. Called for every block walked under the read lock, so it
   * allocates nothing: the decision per DataNode was taken before the walk ({@code kept} answers only for a DataNode
   * registered since).
   */
  private static boolean heldOnKept(BlockInfo block, Map<DatanodeDescriptor, Boolean> keptByNode,
      Predicate<String> kept) {
    for (int i = 0; i < block.numNodes(); i++) {
      DatanodeDescriptor holder = block.getDatanode(i);
      if (holder != null) {
        Boolean stays = keptByNode.get(holder);
        if (stays == null ? kept.test(ServerTranslator.idOf(holder)) : stays) {
          return true;
        }
      }
    }
    return false;
  }

  /** {@code block}, which no DataNode that stays on holds, named for an operator; null once deleted. Under the lock. */
  private static UnavailableBlock unavailable(FSNamesystem namesystem, BlockInfo block, List<String> holders) {
    INodeFile file = namesystem.getBlockCollection(block.getBlockCollectionId());
    if (file == null) {
      return null; // deleted since the walk took the block: HDFS removes it, no reader needs it
    }
    return new UnavailableBlock(block.getBlockName() + " of file " + file.getFullPathName(), holders);
  }

  /** The DataNodes HDFS records replicas of {@code block} on; under the namesystem lock. */
  static List<String> holders(BlockManager blockManager, BlockInfo block) {
    List<String> holders = new ArrayList<>();
    for (DatanodeStorageInfo storage : blockManager.getStorages(block)) {
      holders.add(ServerTranslator.idOf(storage.getDatanodeDescriptor()));
    }
    return holders;
  }

  /** Adds the DataNodes of the pipeline of {@code block}, not yet complete, to {@code holders}; under the lock. */
  static void addPipeline(BlockInfo block, List<String> holders) {
    for (DatanodeStorageInfo storage : block.getUnderConstructionFeature().getExpectedStorageLocations()) {
      String id = ServerTranslator.idOf(storage.getDatanodeDescriptor());
      if (!holders.contains(id)) {
        holders.add(id);
      }
    }
  }

  /**
   * The blocks not yet complete of an open file, with the DataNodes of their pipelines (and any that reported a
   * finalized replica), named for an operator.
   */
  List<ReplicatedFile> blocksBeingWritten(OpenFileEntry entry) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    List<ReplicatedFile> blocks = new ArrayList<>();
    namesystem.readLock();
    try {
      INode inode = namesystem.getFSDirectory().getInode(entry.getId());
      if (inode == null || !inode.isFile()) {
        return blocks;
      }
      String path = inode.getFullPathName();
      BlockInfo[] fileBlocks = inode.asFile().getBlocks();
      for (int i = fileBlocks.length - 1; i >= 0 && !fileBlocks[i].isComplete(); i--) {
        visited.incrementAndGet();
        List<String> holders = holders(namesystem.getBlockManager(), fileBlocks[i]);
        addPipeline(fileBlocks[i], holders);
        blocks.add(new ReplicatedFile(fileBlocks[i].getBlockName() + " (being written) of file " + path,
            fileBlocks[i].getNumBytes(), holders));
      }
    } finally {
      namesystem.readUnlock();
    }
    return blocks;
  }
}
