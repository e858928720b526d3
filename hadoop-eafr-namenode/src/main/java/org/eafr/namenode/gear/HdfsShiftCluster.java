package org.eafr.namenode.gear;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.BlocksWithoutLiveReplica;
import org.eafr.namenode.cluster.OpenFiles;
import org.eafr.namenode.cluster.ReplicaMap;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.cluster.StorageBlockWalk;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.UnavailableBlock;
import org.eafr.placement.gear.shift.AdminState;
import org.eafr.placement.gear.shift.DataNodeView;
import org.eafr.placement.gear.shift.ShiftCluster;

/**
 * The core gear shift's view of HDFS ({@link ShiftCluster}), answered from this NameNode's DataNode manager and block
 * map; blocks are named as HDFS names them ({@code blk_<id>}) and DataNodes by their chain id (IP:transfer port).
 * Every answer costs what the DataNodes that change state hold, never the namespace:
 * <ul>
 *   <li>{@link #dataNode}: one map read ({@link GearDataNodes#view}), stale after
 *       {@code dfs.namenode.stale.datanode.interval} without a heartbeat; a DataNode the gears retired (HDFS
 *       decommissioned it) shows DECOMMISSIONED even once HDFS forgot it, so no shift waits for it.
 *       {@link #maintenanceBlocksLeft}: the count HDFS's admin monitor keeps for it.</li>
 *   <li>The availability floor's walks ({@link #running}, {@link #firstUnheldOn}, {@link #firstBeingWrittenUnheld})
 *       are {@link NamespaceFloor}'s: a DataNode's block list a batch per hold of the namesystem read lock, nothing
 *       allocated per block. {@link #blocksOn} walks the same list the same way and lists each complete block with
 *       its holders (what the power-off guard reads when the power manager does not run it itself).</li>
 *   <li>{@link #pipelines}: the blocks not yet complete of the files open for writing (the open-file listing), with
 *       their pipelines' DataNodes.</li>
 *   <li>{@link #settled}: false in safe mode and until {@link ReplicaMap} finds every live storage reported since this
 *       NameNode started or became active (it asks the stale ones for a full block report).</li>
 *   <li>{@link #notAlive} and {@link #stale}: one pass over HDFS's live DataNode list, no view built per DataNode.</li>
 *   <li>{@link #activeSinceMillis}: when the gear service first stepped with this NameNode active (started, or a
 *       standby made active; at most one {@code eafr.gear.step.ms} after it became so, which only gives running
 *       DataNodes longer to register); {@link #deadIntervalMillis}: HDFS's heartbeat expiry as its DataNode manager
 *       computes it now from its (reconfigurable) intervals.</li>
 *   <li>{@link #blocksWithoutLiveReplica}: HDFS's queue of low-redundancy blocks, at most
 *       {@value #MAX_BLOCKS_SCANNED} queued blocks a scan ({@link BlocksWithoutLiveReplica}: a batch per read-lock
 *       hold), and only while HDFS has such blocks: at once after {@link #readFoundNoReplica}, else once every
 *       {@code scanIntervalMillis}.</li>
 * </ul>
 */
final class HdfsShiftCluster implements ShiftCluster {
  static final int MAX_BLOCKS_SCANNED = 10_000;
  static final long SCAN_INTERVAL_MILLIS = 10_000;
  private static final String BLOCK_PREFIX = "blk_";

  private final NameNode nameNode;
  private final GearRuntime gears;
  private final GearDataNodes nodes;
  private final ReplicaMap replicaMap;
  private final NamespaceFloor floor;
  private final long staleMillis;
  private final long scanIntervalMillis;
  private final LongSupplier clock;
  private long lastScan = Long.MIN_VALUE / 2;
  private volatile boolean readAsked;
  /** When this NameNode became active; never until the gear service has seen it so. */
  private volatile long activeSince = Long.MAX_VALUE;

  HdfsShiftCluster(NameNode nameNode, GearRuntime gears, GearDataNodes nodes, ReplicaMap replicaMap) {
    this(nameNode, gears, nodes, replicaMap, SCAN_INTERVAL_MILLIS, System::currentTimeMillis);
  }

  /** The same, scanning HDFS's low-redundancy queue at most once every {@code scanIntervalMillis} of {@code clock}. */
  HdfsShiftCluster(NameNode nameNode, GearRuntime gears, GearDataNodes nodes, ReplicaMap replicaMap,
      long scanIntervalMillis, LongSupplier clock) {
    this.nameNode = nameNode;
    this.gears = gears;
    this.nodes = nodes;
    this.replicaMap = replicaMap;
    this.floor = new NamespaceFloor(nameNode, nodes::isLive);
    this.staleMillis = nameNode.getConf().getLong(DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_KEY,
        DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_DEFAULT);
    this.scanIntervalMillis = scanIntervalMillis;
    this.clock = clock;
  }

  @Override
  public DataNodeView dataNode(String id) {
    DatanodeDescriptor dn = nodes.descriptor(id);
    boolean retired = gears.state().retired().contains(id);
    if (dn == null) {
      return retired ? new DataNodeView(false, false, false, false, AdminState.DECOMMISSIONED, false) : DataNodeView.UNREGISTERED;
    }
    return new DataNodeView(true, dn.isAlive(), dn.isStale(staleMillis), dn.checkBlockReportReceived(),
        retired ? AdminState.DECOMMISSIONED : GearDataNodes.admin(dn.getAdminState()),
        false);
  }

  /**
   * The DataNode's blocks HDFS's admin monitor found without enough live replicas for maintenance at its last check
   * ({@code LeavingServiceStatus}); 0 before its first check, and when the DataNode is not ENTERING_MAINTENANCE.
   */
  @Override
  public long maintenanceBlocksLeft(String id) {
    DatanodeDescriptor dn = nodes.descriptor(id);
    return dn == null || !dn.isEnteringMaintenance() ? 0 : dn.getLeavingServiceStatus().getUnderReplicatedBlocks();
  }

  @Override
  public boolean running(String id) {
    return nodes.isAlive(id);
  }

  @Override
  public Optional<UnavailableBlock> firstUnheldOn(String id, Predicate<String> kept) {
    return floor.firstUnheldOn(id, kept);
  }

  @Override
  public Optional<UnavailableBlock> firstBeingWrittenUnheld(Predicate<String> kept) {
    return floor.firstBeingWrittenUnheld(kept);
  }

  /** Blocks the walks have looked at so far (the floor's walks and {@link #blocksOn}). */
  long visited() {
    return floor.visited();
  }

  /**
   * The complete blocks with a replica on DataNode {@code id}, each once, with every DataNode HDFS records a replica
   * on; walked storage by storage, a batch per hold of the read lock. Empty for a DataNode not registered. Throws
   * IllegalStateException, naming the storage, when its list kept changing under the walk.
   */
  @Override
  public Iterable<ReplicatedFile> blocksOn(String id) {
    DatanodeDescriptor dn = nodes.descriptor(id);
    if (dn == null) {
      return List.of();
    }
    FSNamesystem namesystem = nameNode.getNamesystem();
    BlockManager blockManager = namesystem.getBlockManager();
    Map<BlockInfo, ReplicatedFile> blocks = new IdentityHashMap<>(); // a restarted walk may visit a block again
    for (DatanodeStorageInfo storage : dn.getStorageInfos()) {
      boolean whole = StorageBlockWalk.walk(namesystem, storage, new StorageBlockWalk.Visitor() {
        @Override
        public void visit(BlockInfo block) {
          if (block.isComplete() && !block.isDeleted() && !blocks.containsKey(block)) {
            blocks.put(block, new ReplicatedFile(block.getBlockName(), block.getNumBytes(),
                NamespaceFloor.holders(blockManager, block)));
          }
        }

        @Override
        public boolean proceed() {
          return true;
        }
      });
      if (!whole) {
        throw new IllegalStateException("the block list of " + storage + " on DataNode " + id + " changed under "
            + (StorageBlockWalk.MAX_RESTARTS + 1) + " walks in a row (block reports or new blocks); ask again");
      }
    }
    return new ArrayList<>(blocks.values());
  }

  @Override
  public Iterable<ReplicatedFile> pipelines() {
    List<ReplicatedFile> blocks = new ArrayList<>();
    try {
      OpenFiles.first(nameNode, file -> {
        blocks.addAll(floor.blocksBeingWritten(file));
        return Optional.empty();
      });
    } catch (IOException e) {
      throw new UncheckedIOException("the gear shift could not list the files being written", e);
    }
    return blocks;
  }

  /**
   * Block {@code blockId} ({@code blk_<id>}) with the DataNodes HDFS records replicas on (and, while it is being
   * written, its pipeline's); empty when it no longer exists or its file was deleted, or the id is not HDFS's.
   */
  @Override
  public Optional<ReplicatedFile> block(String blockId) {
    long id;
    try {
      id = Long.parseLong(blockId.startsWith(BLOCK_PREFIX) ? blockId.substring(BLOCK_PREFIX.length()) : "x");
    } catch (NumberFormatException notHdfs) {
      return Optional.empty();
    }
    FSNamesystem namesystem = nameNode.getNamesystem();
    namesystem.readLock();
    try {
      BlockInfo block = namesystem.getBlockManager().getStoredBlock(new Block(id));
      if (block == null || block.isDeleted() || namesystem.getBlockCollection(block.getBlockCollectionId()) == null) {
        return Optional.empty();
      }
      List<String> holders = NamespaceFloor.holders(namesystem.getBlockManager(), block);
      if (!block.isComplete()) {
        NamespaceFloor.addPipeline(block, holders);
      }
      return Optional.of(new ReplicatedFile(block.getBlockName(), block.getNumBytes(), holders));
    } finally {
      namesystem.readUnlock();
    }
  }

  @Override
  public boolean settled() {
    return !nameNode.getNamesystem().isInSafeMode() && replicaMap.settled();
  }

  @Override
  public ActiveSet notAlive(ExpansionChain chain) {
    BitSet down = new BitSet(chain.size());
    down.set(0, chain.size());
    for (DatanodeDescriptor dn : nodes.dataNodes().getDatanodeListForReport(DatanodeReportType.LIVE)) {
      int position = chain.position(ServerTranslator.idOf(dn));
      if (position >= 0) {
        down.clear(position);
      }
    }
    return ActiveSet.of(chain, down);
  }

  @Override
  public ActiveSet stale(ExpansionChain chain) {
    BitSet stale = new BitSet(chain.size());
    for (DatanodeDescriptor dn : nodes.dataNodes().getDatanodeListForReport(DatanodeReportType.LIVE)) {
      int position = chain.position(ServerTranslator.idOf(dn));
      if (position >= 0 && dn.isStale(staleMillis)) {
        stale.set(position);
      }
    }
    return ActiveSet.of(chain, stale);
  }

  /** This NameNode became active at {@code now} (ms): started, or a standby made active. */
  void becameActive(long now) {
    activeSince = now;
  }

  @Override
  public long activeSinceMillis() {
    return activeSince;
  }

  /**
   * HDFS's heartbeat expiry, after which it declares a registered DataNode dead: 2 x
   * {@code dfs.namenode.heartbeat.recheck-interval} + 10 x {@code dfs.heartbeat.interval}, as {@code DatanodeManager}
   * computes it, from the intervals it holds now (both reconfigurable at run time).
   */
  @Override
  public long deadIntervalMillis() {
    DatanodeManager manager = nodes.dataNodes();
    return 2 * manager.getHeartbeatRecheckInterval() + 10 * 1000 * manager.getHeartbeatInterval();
  }

  /** A reader got a block with no location (any thread): the next {@link #blocksWithoutLiveReplica} scans at once. */
  void readFoundNoReplica() {
    readAsked = true;
  }

  /**
   * The queued low-redundancy blocks with no live replica, each with the DataNodes HDFS records replicas on; empty
   * (nothing scanned) while HDFS queues none, or before the scan interval has passed since the last scan and no read
   * found a block without a replica since.
   */
  @Override
  public Iterable<ReplicatedFile> blocksWithoutLiveReplica() {
    long now = clock.getAsLong();
    BlockManager blockManager = nameNode.getNamesystem().getBlockManager();
    boolean due = readAsked || now - lastScan >= scanIntervalMillis;
    if (!due || blockManager.getLowRedundancyBlocksCount() == 0) {
      return List.of();
    }
    readAsked = false;
    lastScan = now;
    List<ReplicatedFile> blocks = new ArrayList<>();
    BlocksWithoutLiveReplica.scan(nameNode.getNamesystem(), MAX_BLOCKS_SCANNED, (block, holders) -> {
      blocks.add(new ReplicatedFile(block.getBlockName(), block.getNumBytes(), holders));
      return true;
    });
    return blocks;
  }
}
