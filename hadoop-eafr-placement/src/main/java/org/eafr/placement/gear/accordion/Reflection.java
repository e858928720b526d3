package org.eafr.placement.gear.accordion;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.settings.EafrSettings;

/**
 * Accordion's reflection of data written in a low gear (Le, Hikida and Yokota, Sec. 3.4, steps 4-5): after a gear-up,
 * each server sends the blocks it owes to each woken server in batches over one connection (the batch transfer
 * method), not one connection per block. The moves come from the layout's ledger
 * ({@link org.eafr.placement.gear.OffloadLedger#reflectionFor}); a batch holds the moves of one source and one
 * destination, at most {@code batchBlocks} of them, sources and destinations in chain order, moves in the order owed.
 *
 * <p>Worked example (batches of 4): five moves from server 0 to 2 and two from 0 to 3 make batches 0 -&gt; 2 (4
 * blocks), 0 -&gt; 2 (1 block), 0 -&gt; 3 (2 blocks).
 *
 * <p>Stateless; the caller rate-limits by sending a number of batches per heartbeat.
 */
public final class Reflection {
  private final int batchBlocks;

  public Reflection(int batchBlocks) {
    if (batchBlocks < 1) {
      throw new IllegalArgumentException("batch of " + batchBlocks + " blocks is not allowed: expected at least 1");
    }
    this.batchBlocks = batchBlocks;
  }

  /** Batches of eafr.gear.reflection.batch-blocks from {@code settings}. */
  public static Reflection from(EafrSettings settings) {
    return new Reflection(settings.get(EafrSettings.GEAR_REFLECTION_BATCH_BLOCKS));
  }

  /** The batches that carry {@code moves}. */
  public List<Batch> batches(List<BlockMove> moves) {
    Map<Long, List<BlockMove>> byPair = new LinkedHashMap<>();
    List<BlockMove> sorted = new ArrayList<>(moves);
    sorted.sort(Comparator.comparingInt(BlockMove::from).thenComparingInt(BlockMove::to));
    for (BlockMove move : sorted) {
      byPair.computeIfAbsent(((long) move.from() << 32) | move.to(), key -> new ArrayList<>()).add(move);
    }
    List<Batch> batches = new ArrayList<>();
    for (List<BlockMove> pair : byPair.values()) {
      for (int start = 0; start < pair.size(); start += batchBlocks) {
        batches.add(new Batch(pair.subList(start, Math.min(pair.size(), start + batchBlocks))));
      }
    }
    return batches;
  }

  /** Block moves from one server to one server, sent over one connection. Immutable. */
  public static final class Batch {
    private final List<BlockMove> moves;

    Batch(List<BlockMove> moves) {
      this.moves = List.copyOf(moves);
    }

    public int from() {
      return moves.get(0).from();
    }

    public int to() {
      return moves.get(0).to();
    }

    public List<BlockMove> moves() {
      return moves;
    }

    @Override
    public String toString() {
      return from() + " -> " + to() + " (" + moves.size() + " blocks)";
    }
  }
}
