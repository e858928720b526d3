package org.eafr.namenode.gear;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.shift.MovePort;
import org.eafr.placement.gear.shift.Reply;

/**
 * The core gear shift's {@link MovePort} on HDFS: each move is {@link BlockMover}'s replaceBlock (as the Balancer
 * moves a replica), run on one of two threads of its own, so {@link #start} never blocks. The target copies the block
 * from the source, with the source as the deletion hint: once the target reports it, the NameNode deletes the source's
 * copy as excess when the block has more replicas than its replication, and keeps it otherwise (a block written with
 * fewer replicas than homes), so a move that keeps its source ({@link BlockMove#dropSource()} false) is the same call.
 * While a move that drops its source is under way, and until its source's copy is gone (at most
 * {@value #SETTLE_MILLIS} ms after it finished), it is registered in {@link GearRuntime#reflectionMoves()}, so the
 * placement policy deletes that copy and no other. A reply is {@link Reply#DONE} once the target holds the block and,
 * for a move that drops its source, that copy is gone (or settled as above): the shift forgets a block only then, so
 * no extra copy is left behind. FAILED with the mover's reason, or at once FAILED naming the block or DataNode that is
 * gone; a reply is read once.
 */
final class HdfsMovePort implements MovePort, AutoCloseable {
  static final long SETTLE_MILLIS = 10_000;
  /** A finished move whose reply nobody read this long (the shift timed it out) is forgotten. */
  static final long ABANDONED_MILLIS = 3_600_000;

  private final NameNode nameNode;
  private final GearRuntime gears;
  private final GearDataNodes nodes;
  private final Supplier<ExpansionChain> chain;
  private final LongSupplier clock;
  private final BlockMover mover;
  private final ExecutorService movers;
  private final Map<Long, Move> moves = new HashMap<>();
  private long nextTicket = 1;

  /** @param chain the expansion chain the moves' positions are on */
  HdfsMovePort(NameNode nameNode, GearRuntime gears, GearDataNodes nodes, Supplier<ExpansionChain> chain,
      LongSupplier clock) {
    this.nameNode = nameNode;
    this.gears = gears;
    this.nodes = nodes;
    this.chain = chain;
    this.clock = clock;
    this.mover = new BlockMover(nameNode.getNamesystem().getBlockManager());
    this.movers = Executors.newFixedThreadPool(2, GearService.daemon("eafr-gear-moves"));
  }

  @Override
  public synchronized long start(BlockMove move) {
    sweep();
    long ticket = nextTicket++;
    String from = chain.get().id(move.from());
    String to = chain.get().id(move.to());
    Block block = stored(move.blockId());
    DatanodeDescriptor source = nodes.descriptor(from);
    DatanodeDescriptor target = nodes.descriptor(to);
    String gone = block == null ? "block " + move.blockId() + " no longer exists"
        : source == null || target == null ? "DataNode " + (source == null ? from : to) + " is not registered" : null;
    ReflectionMove key = gone == null && move.dropSource() ? new ReflectionMove(from, to) : null;
    if (key != null) {
      gears.reflectionMoves().add(key);
    }
    Future<?> outcome = gone != null ? null : movers.submit(() -> {
      mover.move(block, source, target);
      return null;
    });
    moves.put(ticket, new Move(move.blockId(), from, key, outcome, gone, clock.getAsLong()));
    return ticket;
  }

  @Override
  public synchronized Reply poll(long ticket) {
    sweep();
    Move move = moves.get(ticket);
    if (move == null) {
      return Reply.failed("move " + ticket + " is not known here (its reply was read, or it was never started)");
    }
    if (move.gone != null) {
      moves.remove(ticket);
      return Reply.failed(move.gone);
    }
    long now = clock.getAsLong();
    move.lastPolled = now;
    if (!move.outcome.isDone()) {
      return Reply.PENDING;
    }
    if (move.finishedAt == 0) {
      move.finishedAt = now;
      try {
        move.outcome.get();
      } catch (ExecutionException e) {
        moves.remove(ticket);
        retire(List.of(move));
        return Reply.failed(String.valueOf(e.getCause().getMessage()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        moves.remove(ticket);
        retire(List.of(move));
        return Reply.failed("interrupted");
      }
    }
    if (move.key != null && now - move.finishedAt <= SETTLE_MILLIS && holds(move.blockId, move.source)) {
      return Reply.PENDING; // the source's copy is the excess HDFS deletes next: the move ends once it is gone
    }
    moves.remove(ticket);
    retire(List.of(move));
    return Reply.DONE;
  }

  /** Takes back the registrations of abandoned moves. */
  private void sweep() {
    long now = clock.getAsLong();
    List<Move> ended = new ArrayList<>();
    moves.values().removeIf(move -> {
      boolean abandoned = move.outcome != null && move.outcome.isDone() && now - move.lastPolled > ABANDONED_MILLIS;
      if (abandoned) {
        ended.add(move);
      }
      return abandoned;
    });
    retire(ended);
  }

  /** Takes back the registrations of {@code ended}, but for a pair another move still has under way or settling. */
  private void retire(List<Move> ended) {
    Set<ReflectionMove> kept = new HashSet<>();
    moves.values().forEach(move -> kept.add(move.key));
    for (Move move : ended) {
      if (move.key != null && !kept.contains(move.key)) {
        gears.reflectionMoves().remove(move.key);
      }
    }
  }

  private Block stored(String blockId) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    namesystem.readLock();
    try {
      BlockInfo block = namesystem.getBlockManager().getStoredBlock(new Block(Block.getBlockId(blockId)));
      return block == null || block.isDeleted() ? null : new Block(block);
    } finally {
      namesystem.readUnlock();
    }
  }

  private boolean holds(String blockId, String id) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    namesystem.readLock();
    try {
      BlockInfo block = namesystem.getBlockManager().getStoredBlock(new Block(Block.getBlockId(blockId)));
      return block != null && ServerTranslator.holds(namesystem.getBlockManager(), block, id);
    } finally {
      namesystem.readUnlock();
    }
  }

  @Override
  public synchronized void close() {
    movers.shutdownNow();
    List<Move> all = new ArrayList<>(moves.values());
    moves.clear();
    retire(all);
  }

  /** A move started: its block and source, its registration (null when none), and its outcome or why it failed. */
  private static final class Move {
    final String blockId;
    final String source;
    final ReflectionMove key;
    final Future<?> outcome;
    final String gone;
    long lastPolled;
    long finishedAt;

    Move(String blockId, String source, ReflectionMove key, Future<?> outcome, String gone, long startedAt) {
      this.blockId = blockId;
      this.source = source;
      this.key = key;
      this.outcome = outcome;
      this.gone = gone;
      this.lastPolled = startedAt;
    }
  }
}
