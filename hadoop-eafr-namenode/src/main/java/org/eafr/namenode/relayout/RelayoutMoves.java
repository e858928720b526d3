package org.eafr.namenode.relayout;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.BlockMover;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.gear.ReflectionMove;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.relayout.MoveBudget;
import org.eafr.placement.gear.relayout.RelayoutSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Relayout's planned moves between planning and the block map: queued in plan order, started within the {@link
 * MoveBudget} one per block at a time ({@link BlockMover}, listed with the layout's moves in flight so the placement
 * policy drops the source's copy, never the new one), and settled once the target holds the block and the source no
 * longer does (or the move failed, or finished long ago). Owned by the relayout service's thread.
 */
final class RelayoutMoves implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RelayoutMoves.class);
  /** A finished move not yet seen in the block map this long after is counted settled. */
  private static final long SETTLE_MILLIS = 10_000;

  /** What a settled move did, told once per move. */
  interface Outcome {
    void moved(Block block);

    void failed(Block block);
  }

  private final NameNode nameNode;
  private final GearRuntime gears;
  private final BlockMover mover;
  private final MoveBudget budget;
  private final ExecutorService movers;
  private final Deque<Pending> queued = new ArrayDeque<>();
  private final List<Pending> inFlight = new ArrayList<>();
  private final Map<ReflectionMove, Integer> movesByKey = new HashMap<>();

  RelayoutMoves(NameNode nameNode, GearRuntime gears, RelayoutSettings settings) {
    this.nameNode = nameNode;
    this.gears = gears;
    this.mover = new BlockMover(nameNode.getNamesystem().getBlockManager());
    this.budget = MoveBudget.of(settings);
    this.movers = Executors.newFixedThreadPool(Math.min(settings.movesConcurrent(), 64),
        daemon("eafr-relayout-move"));
  }

  void queue(Block block, BlockMove move, String source, String target) {
    queued.add(new Pending(block, move, source, target));
  }

  int queuedCount() {
    return queued.size();
  }

  int inFlightCount() {
    return inFlight.size();
  }

  /** Whether every move in flight has finished on the DataNodes (settled or not yet). */
  boolean finished() {
    return inFlight.stream().allMatch(pending -> pending.future.isDone());
  }

  /** No move queued or in flight. */
  boolean idle() {
    return queued.isEmpty() && inFlight.isEmpty();
  }

  /** Drops the queued moves (those in flight finish and settle). */
  void clearQueued() {
    queued.clear();
  }

  /**
   * Starts the queued moves the budget has room for, in plan order, one per block at a time: the planner chose each
   * source so that HDFS drops it once its target holds the block, given the block's replicas as the moves before it
   * leave them.
   */
  void dispatch() {
    Set<Long> moving = new HashSet<>();
    inFlight.forEach(pending -> moving.add(pending.block.getBlockId()));
    for (Iterator<Pending> it = queued.iterator(); it.hasNext();) {
      Pending pending = it.next();
      if (!moving.contains(pending.block.getBlockId()) && budget.tryStart(pending.move)) {
        moving.add(pending.block.getBlockId());
        it.remove();
        start(pending);
      }
    }
  }

  private void start(Pending pending) {
    DatanodeDescriptor source = descriptor(pending.source);
    DatanodeDescriptor target = descriptor(pending.target);
    ReflectionMove key = new ReflectionMove(pending.source, pending.target);
    movesByKey.merge(key, 1, Integer::sum);
    gears.reflectionMoves().add(key);
    BlockInfo stored = storedBlock(pending.block);
    if (stored != null) {
      gears.relayoutDrops().add(stored, pending.source, pending.target);
    }
    pending.future = movers.submit(() -> {
      mover.move(pending.block, source, target);
      return null;
    });
    inFlight.add(pending);
  }

  /**
   * Forgets the moves in flight without their outcomes (this NameNode is no longer active: the one that is counts
   * them from the batch's persisted moves, {@link BatchMoves}); their copies on the DataNodes go on.
   */
  void forget() {
    queued.clear();
    for (Pending pending : inFlight) {
      budget.finish(pending.move);
    }
    inFlight.clear();
    movesByKey.keySet().forEach(gears.reflectionMoves()::remove);
    movesByKey.clear();
    gears.relayoutDrops().clear();
  }

  /** Retires moves whose target holds the block and whose source dropped it (or that failed, or settled long ago). */
  void settle(Outcome outcome) {
    long now = System.currentTimeMillis();
    for (Iterator<Pending> it = inFlight.iterator(); it.hasNext();) {
      Pending pending = it.next();
      if (!pending.future.isDone() || !settled(pending, now, outcome)) {
        continue;
      }
      it.remove();
      budget.finish(pending.move);
      gears.relayoutDrops().remove(pending.block.getBlockId());
      ReflectionMove key = new ReflectionMove(pending.source, pending.target);
      if (movesByKey.merge(key, -1, Integer::sum) <= 0) {
        movesByKey.remove(key);
        gears.reflectionMoves().remove(key);
      }
    }
  }

  private boolean settled(Pending pending, long now, Outcome outcome) {
    if (pending.finishedAt == 0) {
      pending.finishedAt = now;
      try {
        pending.future.get();
        outcome.moved(pending.block);
      } catch (Exception e) {
        pending.failed = true;
        outcome.failed(pending.block);
        LOG.warn("EAFR relayout: moving {} from {} to {} failed: {}", pending.block, pending.source, pending.target,
            e.getMessage());
      }
    }
    return pending.failed || now - pending.finishedAt > SETTLE_MILLIS
        || holds(pending.block, pending.target) && !holds(pending.block, pending.source);
  }

  /** Whether {@code id} holds the block; false once the NameNode is stopping (the move then stays in flight). */
  private boolean holds(Block block, String id) {
    return holds(nameNode, block, id);
  }

  /** The same on {@code nameNode}'s block map (a block is found by its id). */
  static boolean holds(NameNode nameNode, Block block, String id) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    namesystem.readLock();
    try {
      BlockInfo stored = running(nameNode) ? namesystem.getBlockManager().getStoredBlock(block) : null;
      return stored != null && ServerTranslator.holds(namesystem.getBlockManager(), stored, id);
    } finally {
      namesystem.readUnlock();
    }
  }

  /** The block with id {@code blockId} as the block map has it (a copy), or null when it is gone. */
  static Block stored(NameNode nameNode, long blockId) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    namesystem.readLock();
    try {
      BlockInfo stored = running(nameNode) ? namesystem.getBlockManager().getStoredBlock(new Block(blockId)) : null;
      return stored == null ? null : new Block(stored);
    } finally {
      namesystem.readUnlock();
    }
  }

  private BlockInfo storedBlock(Block block) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    namesystem.readLock();
    try {
      return running(nameNode) ? namesystem.getBlockManager().getStoredBlock(block) : null;
    } finally {
      namesystem.readUnlock();
    }
  }

  /**
   * Whether the NameNode's namesystem runs: a stopping NameNode closes it, block map included, before it stops its
   * plugins (and with them relayout), and the block map answers no lookup once closed. Read under the namesystem lock,
   * it stays true until the lock is released (closing takes the write lock).
   */
  static boolean running(NameNode nameNode) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    return namesystem != null && namesystem.isRunning();
  }

  private DatanodeDescriptor descriptor(String id) {
    return ServerTranslator.dataNodeOf(nameNode.getNamesystem().getBlockManager().getDatanodeManager(), id);
  }

  @Override
  public void close() {
    gears.relayoutDrops().clear();
    movers.shutdownNow();
  }

  /** Daemon threads named {@code name}: relayout never keeps a stopping NameNode's JVM up. */
  static ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** One planned move: the block, the chain move, its DataNodes, and once started its outcome. */
  private static final class Pending {
    final Block block;
    final BlockMove move;
    final String source;
    final String target;
    Future<?> future;
    long finishedAt;
    boolean failed;

    Pending(Block block, BlockMove move, String source, String target) {
      this.block = block;
      this.move = move;
      this.source = source;
      this.target = target;
    }
  }
}
