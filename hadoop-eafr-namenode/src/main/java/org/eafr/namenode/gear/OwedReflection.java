package org.eafr.namenode.gear;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongConsumer;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.ReplicaMap;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.shift.MoveSource;
import org.eafr.placement.gear.springfs.PassiveMigration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SpringFS's passive migration on a NameNode ({@link PassiveMigrations}; Xu et al., Sec. 3): what was written while
 * some homes slept is recorded per file in the namespace ({@link GearStore}'s owed records, carried to the standby by
 * the edit log) and moved home by {@link BlockMover} (replaceBlock, as the Balancer does) from the source the core's
 * {@link MoveSource} picks, each file read under a short namesystem read lock. Reflection at a gear-up is the core
 * gear shift's ({@link GearService}); the homes of a file are planned alike for both ({@link #homesOf}).
 */
final class OwedReflection implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GearService.class);
  /** A move not confirmed by the block map this long after it finished is tried again. */
  private static final long MOVE_SETTLE_MILLIS = 10_000;

  private final NameNode nameNode;
  private final GearRuntime gears;
  private final GearStore store;
  private final ReplicaMap replicaMap;
  private final GearDataNodes nodes;
  private final BlockMover mover;
  private final ExecutorService movers;
  private final Map<Long, Move> moves = new HashMap<>();
  /** Told the bytes of each move once it has finished. */
  private final LongConsumer movedBytes;

  /** Over the owed records of {@code store}, telling {@code movedBytes} the bytes of each finished move. */
  OwedReflection(NameNode nameNode, GearRuntime gears, GearStore store, ReplicaMap replicaMap, GearDataNodes nodes,
      LongConsumer movedBytes) {
    this.movedBytes = movedBytes;
    this.nameNode = nameNode;
    this.gears = gears;
    this.store = store;
    this.replicaMap = replicaMap;
    this.nodes = nodes;
    this.mover = new BlockMover(nameNode.getNamesystem().getBlockManager());
    this.movers = Executors.newFixedThreadPool(2, GearService.daemon("eafr-passive-moves"));
  }

  @Override
  public void close() {
    movers.shutdownNow();
    retire(new HashSet<>(moves.values()));
  }

  /** Records that {@code paths} owe moves; true when a record was added. */
  boolean record(List<String> paths) throws IOException {
    boolean added = false;
    for (String path : paths) {
      LOG.debug("EAFR gears: recording that {} owes moves", path);
      added |= store.recordOwed(path);
    }
    return added;
  }

  /**
   * One resizing interval of SpringFS's passive migration (Xu et al., Sec. 3) over the owed records: every record is
   * read (O(owed files), each under a short read lock), the moves of replicas to their homes that are on are gathered,
   * and the core's {@link PassiveMigration} plan of them is started: 1/T of the moves, none to a DataNode that already
   * holds its equal-work share, at most {@code eafr.gear.reflection.blocks-per-step}. A record is forgotten once every
   * home holds its blocks and no move of them is in flight (the gear shift's rule: a move ends once its source's copy
   * is gone, or {@value #MOVE_SETTLE_MILLIS} ms after it finished); or when each move it still owes goes to a DataNode
   * holding its share (SpringFS drops that work). Returns the moves started.
   */
  int migrate(GearedLayout layout, PassiveMigration migration, PassiveMigration.ServerFullness full)
      throws IOException {
    settleMoves();
    if (!replicaMap.settled()) {
      return 0; // holders would be stale until every DataNode has reported
    }
    Owed owed = new Owed(layout, full);
    long cursor = -1;
    for (List<GearStore.OwedFile> page = store.owedAfter(cursor, 256); !page.isEmpty();
        page = store.owedAfter(cursor, 256)) {
      for (GearStore.OwedFile file : page) {
        cursor = file.inodeId();
        owed.visit(file);
      }
      if (page.size() < 256) {
        break;
      }
    }
    int started = 0;
    int budget = gears.settings().reflectionBlocksPerStep() - moves.size();
    for (BlockMove move : migration.plan(owed.needed, full).moves()) {
      BlockHolders block = owed.blocks.get(Long.parseLong(move.blockId()));
      if (started < budget && !moves.containsKey(block.id)) {
        startMove(block, layout.chain().id(move.from()), layout.chain().id(move.to()));
        started++;
      }
    }
    if (started > 0) {
      LOG.info("EAFR gears: passive migration started {} of {} block moves owed to DataNodes that are on; {} in"
          + " flight", started, owed.needed.size(), moves.size());
    }
    return started;
  }

  /** What one passive migration interval finds owed: the moves to homes that are on, and their blocks. */
  private final class Owed {
    final GearedLayout layout;
    final PassiveMigration.ServerFullness full;
    final ActiveSet on;
    final List<BlockMove> needed = new ArrayList<>();
    final Map<Long, BlockHolders> blocks = new HashMap<>();

    Owed(GearedLayout layout, PassiveMigration.ServerFullness full) {
      this.layout = layout;
      this.full = full;
      this.on = GearRuntime.serversOn(layout, nodes::isLive);
    }

    /**
     * Gathers the moves {@code file} owes to homes that are on; forgets it when it owes none (every home holds its
     * blocks, no move of them in flight) or when each of them goes to a DataNode holding its share (dropped).
     */
    void visit(GearStore.OwedFile file) throws IOException {
      List<BlockHolders> held = file.path() == null ? List.of() : blocksOf(file.path());
      if (held == null) {
        return; // still being written: migrated once it is closed
      }
      if (!held.isEmpty() && (file.homes().isEmpty() || !file.homes().keySet().containsAll(ids(held)))) {
        file = file.withHomes(planHomes(layout, on, file.path(), held));
        store.writeOwed(file);
      }
      boolean settled = true;
      int owes = 0;
      int dropped = 0;
      List<BlockMove> moving = new ArrayList<>();
      for (BlockHolders block : held) {
        List<String> homes = file.homes().getOrDefault(block.id, block.holders);
        settled &= !moves.containsKey(block.id); // a move ends once its source's copy is gone (or settled)
        for (String home : homes) {
          if (block.holders.contains(home)) {
            continue;
          }
          owes++;
          Optional<String> source = nodes.isLive(home) && !moves.containsKey(block.id)
              ? MoveSource.pick(layout.chain(), block.holders, homes, home, nodes::isLive) : Optional.empty();
          if (source.isPresent()) {
            BlockMove move = new BlockMove(Long.toString(block.id), layout.chain().requirePosition(source.get()),
                layout.chain().requirePosition(home), true);
            dropped += full.holdsItsShare(move.to()) ? 1 : 0;
            moving.add(move);
            blocks.put(block.id, block);
          }
        }
      }
      if (owes > 0 && dropped == owes) {
        gears.counters().passiveMigrationsDropped.incrementAndGet();
      } else if (owes > 0 || !settled) {
        needed.addAll(moving);
        return;
      }
      store.forgetOwed(file.inodeId());
    }
  }

  /**
   * The target placement of each block, from the layout with the servers on now and the block's holders (blocks keep
   * r replicas): the equal-work layout places the block anew, Accordion keeps its lowest-group copies where they are
   * so that only the copies owed to the woken groups move (the core's {@code placeExisting}).
   */
  private Map<Long, List<String>> planHomes(GearedLayout layout, ActiveSet on, String path,
      List<BlockHolders> blocks) {
    Map<Long, List<String>> homes = new HashMap<>();
    for (BlockHolders block : blocks) {
      homes.put(block.id, homesOf(layout, on, path, block.id, block.replication, block.holders));
    }
    return homes;
  }

  /**
   * The homes (DataNode ids) {@code layout} gives block {@code blockId} of the file at {@code path} with the servers
   * {@code on} and its replicas on {@code holders}: the core's {@code placeExisting}.
   */
  static List<String> homesOf(GearedLayout layout, ActiveSet on, String path, long blockId, int replication,
      List<String> holders) {
    int[] held = holders.stream().mapToInt(layout.chain()::position).filter(p -> p >= 0).toArray();
    BlockPlacement placement = layout.placeExisting(BlockRequest.of("blk_" + blockId, replication).withPath(path),
        on, held);
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < placement.size(); i++) {
      ids.add(layout.chain().id(placement.home(i)));
    }
    return ids;
  }

  private void startMove(BlockHolders block, String from, String to) {
    DatanodeDescriptor source = nodes.descriptor(from);
    DatanodeDescriptor target = nodes.descriptor(to);
    Move move = new Move(from, to, block.block.getNumBytes(), movers.submit(() -> {
      mover.move(block.block, source, target);
      return null;
    }));
    moves.put(block.id, move);
    gears.reflectionMoves().add(new ReflectionMove(from, to));
  }

  /** Forgets moves whose block left the source (done) or that failed; failed ones are tried again next step. */
  private void settleMoves() {
    long now = System.currentTimeMillis();
    Set<Move> ended = new HashSet<>();
    moves.entrySet().removeIf(entry -> {
      Move move = entry.getValue();
      if (!move.future.isDone()) {
        return false;
      }
      ended.add(move);
      try {
        move.future.get();
      } catch (Exception e) {
        gears.counters().moveFailed(Long.toString(entry.getKey()), e.getMessage());
        LOG.warn("EAFR gears: reflection move of block {} from {} failed: {}", entry.getKey(), move.source,
            e.getMessage());
        return true;
      }
      if (move.finishedAt == 0) {
        move.finishedAt = now;
        movedBytes.accept(move.bytes);
      }
      return now - move.finishedAt > MOVE_SETTLE_MILLIS || !holds(entry.getKey(), move.source);
    });
    ended.removeAll(moves.values());
    retire(ended);
  }

  /**
   * Takes the registrations of {@code ended} moves back, but for a source and target pair another of this walk's moves
   * still has in flight; those of other movers (relayout, passive migration) are theirs to take back.
   */
  private void retire(Set<Move> ended) {
    Set<ReflectionMove> inFlight = new HashSet<>();
    moves.values().forEach(move -> {
      if (!ended.contains(move)) {
        inFlight.add(new ReflectionMove(move.source, move.target));
      }
    });
    for (Move move : ended) {
      ReflectionMove key = new ReflectionMove(move.source, move.target);
      if (!inFlight.contains(key)) {
        gears.reflectionMoves().remove(key);
      }
    }
  }

  private boolean holds(long blockId, String server) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    namesystem.readLock();
    try {
      BlockInfo block = namesystem.getBlockManager().getStoredBlock(new Block(blockId));
      return block != null && ServerTranslator.holds(namesystem.getBlockManager(), block, server);
    } finally {
      namesystem.readUnlock();
    }
  }

  /** The blocks of a closed file with their holders; null while it is being written. */
  private List<BlockHolders> blocksOf(String path) {
    return HdfsShiftStore.closedFileBlocks(nameNode.getNamesystem(), dir -> dir.getINode(path), (file, block) ->
        new BlockHolders(new Block(block), file.getFileReplication(),
            NamespaceFloor.holders(nameNode.getNamesystem().getBlockManager(), block)));
  }

  private static Set<Long> ids(List<BlockHolders> blocks) {
    Set<Long> ids = new HashSet<>();
    blocks.forEach(block -> ids.add(block.id));
    return ids;
  }

  /** A block of a closed file: its id, the file's replication and the DataNodes holding it. */
  private static final class BlockHolders {
    final Block block;
    final long id;
    final int replication;
    final List<String> holders;

    BlockHolders(Block block, int replication, List<String> holders) {
      this.block = block;
      this.id = block.getBlockId();
      this.replication = replication;
      this.holders = holders;
    }
  }

  /** A reflection move started: its source (whose copy is the excess to delete after) and its outcome. */
  private static final class Move {
    final String source;
    final String target;
    final long bytes;
    final Future<?> future;
    long finishedAt;

    Move(String source, String target, long bytes, Future<?> future) {
      this.source = source;
      this.target = target;
      this.bytes = bytes;
      this.future = future;
    }
  }
}
