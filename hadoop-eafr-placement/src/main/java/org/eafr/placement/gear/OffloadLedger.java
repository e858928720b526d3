package org.eafr.placement.gear;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a geared layout owes: every block with a replica away from its home (offloaded by Rabbit Sec. 3.3, SpringFS's
 * bounded write offloading or availability offloading, or written in a low gear, Accordion Sec. 3.4), with all its
 * holders. From it come the cleanup work before servers sleep (SpringFS) and the reflection after servers wake
 * (Accordion), and it answers the gear controller's floor for these blocks.
 *
 * <p>A block at home needs no entry: every layout puts one home replica of every block in gear 0 (the primaries, or
 * Accordion's lowest group), so the servers of any gear hold it. That invariant is each layout's, checked by its tests,
 * while gear 0 has room; a replica displaced out of a full gear 0 owes nothing, so the ledger answers only for the
 * blocks it holds (a NameNode's floor reads its block map; the simulator's adds the blocks a full gear 0 left).
 *
 * <p>Cleanup (SpringFS): a block none of whose holders stays on must move before its holders sleep: its offloaded
 * replica goes home when the home stays on, else to the first server staying on that does not hold it.
 *
 * <p>Worked example (chain A, B, C, D; gear 0 = {A}): block x written with its primary offloaded to C (home A) and a
 * secondary at home on D. Shrinking to {A, B}: neither C nor D stays on, so the cleanup is one move x: C -> A. Waking
 * with A on: the reflection is the same move.
 *
 * <p>Thread-safe (a concurrent map of immutable placements): IPC threads record placements while the controller's
 * thread asks for cleanup. Memory is O(offloaded blocks).
 */
public final class OffloadLedger implements GearFloor {
  private final Map<String, BlockPlacement> owed = new ConcurrentHashMap<>();

  /**
   * Records a new block's placement; only placements that owe a move are kept (a placement with no replica at all is
   * a failed write, not a debt).
   */
  public void record(String blockId, BlockPlacement placement) {
    if (placement.owesMoves() && placement.size() > 0) {
      owed.put(blockId, placement);
    } else {
      owed.remove(blockId);
    }
  }

  /** Applies a finished move: the replica on {@code move.from()} is now on {@code move.to()}. */
  public void moved(BlockMove move) {
    owed.computeIfPresent(move.blockId(), (id, placement) -> {
      BlockPlacement after = afterMove(placement, move);
      return after.owesMoves() ? after : null;
    });
  }

  /** Forgets a block (deleted, or its layout restored by other means). */
  public void forget(String blockId) {
    owed.remove(blockId);
  }

  /** The number of blocks with a replica away from home. */
  public int blocks() {
    return owed.size();
  }

  public Optional<BlockPlacement> placement(String blockId) {
    return Optional.ofNullable(owed.get(blockId));
  }

  /** Every replica away from home, block by block in no particular order. */
  public List<OffloadedReplica> owed() {
    List<OffloadedReplica> all = new ArrayList<>();
    owed.forEach((id, placement) -> all.addAll(placement.offloaded(id)));
    return all;
  }

  @Override
  public CleanupWork cleanupFor(ActiveSet staysOn) {
    List<BlockMove> moves = new ArrayList<>();
    owed.forEach((id, placement) -> {
      if (!anyHolderIn(placement, staysOn)) {
        destination(placement, staysOn).ifPresent(to -> moves.add(
            new BlockMove(id, placement.holder(firstOffloaded(placement)), to, true)));
      }
    });
    return new CleanupWork(moves);
  }

  /** After cleanup every recorded block has a holder that stays on, unless no server staying on can take it. */
  @Override
  public Optional<UnavailableBlock> firstUnavailable(ActiveSet staysOn) {
    for (Map.Entry<String, BlockPlacement> entry : owed.entrySet()) {
      BlockPlacement placement = entry.getValue();
      if (!anyHolderIn(placement, staysOn) && destination(placement, staysOn).isEmpty()) {
        return Optional.of(new UnavailableBlock(entry.getKey(), placement.holderIds()));
      }
    }
    return Optional.empty();
  }

  /**
   * The moves that bring offloaded replicas home to servers of {@code on}, and copy missing replicas to their homes
   * that are on (reflection, passive migration). A missing replica is copied from the block's first holder.
   */
  public List<BlockMove> reflectionFor(ActiveSet on) {
    List<BlockMove> moves = new ArrayList<>();
    owed.forEach((id, placement) -> {
      for (int i = 0; i < placement.size(); i++) {
        if (placement.isOffloaded(i) && on.contains(placement.home(i)) && !placement.holds(placement.home(i))) {
          moves.add(new BlockMove(id, placement.holder(i), placement.home(i), true));
        }
      }
      for (int home : placement.missingHomes()) {
        if (on.contains(home) && placement.size() > 0) {
          moves.add(new BlockMove(id, placement.holder(0), home, false));
        }
      }
    });
    return moves;
  }

  private static boolean anyHolderIn(BlockPlacement placement, ActiveSet staysOn) {
    for (int i = 0; i < placement.size(); i++) {
      if (staysOn.contains(placement.holder(i))) {
        return true;
      }
    }
    return false;
  }

  private static int firstOffloaded(BlockPlacement placement) {
    for (int i = 0; i < placement.size(); i++) {
      if (placement.isOffloaded(i)) {
        return i;
      }
    }
    return 0; // a block owed only missing replicas: move its first holder
  }

  /** The offloaded replica's home when it stays on, else the first server staying on that does not hold the block. */
  private static Optional<Integer> destination(BlockPlacement placement, ActiveSet staysOn) {
    for (int i = 0; i < placement.size(); i++) {
      if (placement.isOffloaded(i) && staysOn.contains(placement.home(i)) && !placement.holds(placement.home(i))) {
        return Optional.of(placement.home(i));
      }
    }
    for (int p = staysOn.next(0); p >= 0; p = staysOn.next(p + 1)) {
      if (!placement.holds(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  private static BlockPlacement afterMove(BlockPlacement placement, BlockMove move) {
    int[] missing = placement.missingHomes();
    int filled = -1;
    for (int k = 0; k < missing.length; k++) {
      filled = missing[k] == move.to() && !move.dropSource() ? k : filled;
    }
    int size = placement.size() + (filled >= 0 ? 1 : 0);
    int[] holders = Arrays.copyOf(placement.holders(), size);
    int[] homes = new int[size];
    for (int i = 0; i < placement.size(); i++) {
      homes[i] = placement.home(i);
      if (holders[i] == move.from() && move.dropSource()) {
        holders[i] = move.to();
      }
    }
    if (filled >= 0) {
      holders[size - 1] = move.to();
      homes[size - 1] = move.to();
      missing[filled] = missing[missing.length - 1];
      missing = Arrays.copyOf(missing, missing.length - 1);
    }
    return new BlockPlacement(placement.chain(), holders, homes, missing);
  }
}
