package org.eafr.placement.gear.eafr;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.ExpansionChain;

/**
 * The cold migrations EAFR on gears owes (the caller's part of docs/core-gears.md, "EAFR on gears") and when each is made:
 * only between two servers of the gear running now, and at most one at a time per server, as background work. A
 * migration gives no server a reason to stay on (the layout already keeps every file in gear 0, and the controller,
 * not the data, decides which servers sleep), so it must never be the reason one does. Made as soon as both ends are
 * merely on, the migrations owed to a high gear all start during its short peak (2,532 of them, 443 GB, on FB-2010
 * after one hour at gear 203); when the gear drops, every server leaving it still has a queue of them, and the
 * layout's own moves wait behind them, so it stays on: eafr-geared spent 28% more machine-hours than rabbit on a
 * 4-hour slice of FB-2010 (312.7 against 244.7) and 0 more without the migrations (docs/evaluation-eafr-geared.md).
 *
 * <p>Worked example (gear 1 running: positions 0-9; 10-14 on but leaving, not in the gear): owed 3 -> 12, 3 -> 5,
 * 4 -> 5, 6 -> 7. {@link #due} gives 3 -> 5 (3 -> 12's target leaves the gear; it stays owed) and 6 -> 7; 4 -> 5
 * waits, 5 being busy. After 3 -> 5 lands ({@link #ended}), the next call gives 4 -> 5.
 *
 * <p>Not thread-safe; one per policy instance. O(owed) per {@link #due}.
 */
public final class OwedMigrations {
  private final Map<String, BlockMove> owed = new LinkedHashMap<>();
  private final Map<String, Long> bytes = new HashMap<>();
  private final Set<BlockMove> inFlight = new HashSet<>();

  /** Records {@code move} (a {@link GearedEafrPlan#owed()} move) of {@code bytes}, replacing one for the same block. */
  public void owe(BlockMove move, long bytes) {
    owed.put(move.blockId(), Objects.requireNonNull(move, "move"));
    this.bytes.put(move.blockId(), bytes);
  }

  /** Forgets what block {@code blockId} owed (a new version replaced its replicas). */
  public void forget(String blockId) {
    owed.remove(blockId);
    bytes.remove(blockId);
  }

  /** Whether block {@code blockId} has a migration owed or in flight: EAFR leaves it alone until it lands. */
  public boolean pending(String blockId) {
    if (owed.containsKey(blockId)) {
      return true;
    }
    for (BlockMove move : inFlight) {
      if (move.blockId().equals(blockId)) {
        return true;
      }
    }
    return false;
  }

  /** The bytes owed to each of {@code positions} positions, by target (they count as used on it). */
  public long[] bytesByTarget(int positions) {
    long[] byTarget = new long[positions];
    for (BlockMove move : owed.values()) {
      byTarget[move.to()] += bytes.get(move.blockId());
    }
    return byTarget;
  }

  /**
   * {@code view} with the bytes owed to each server of {@code chain} counted as used there, so the planner never
   * overfills a server with migrations owed to it; a server missing from the view is left out.
   */
  public ClusterView charged(ClusterView view, ExpansionChain chain) {
    long[] byTarget = bytesByTarget(chain.size());
    ClusterView charged = view;
    for (int p = 0; p < byTarget.length; p++) {
      Optional<Server> server = byTarget[p] > 0 ? view.find(chain.id(p)) : Optional.empty();
      if (server.isPresent()) {
        charged = charged.with(server.get().withStorageUsed(server.get().storageUsed() + byTarget[p]));
      }
    }
    return charged;
  }

  /**
   * The migrations to make now, each handed out once: those whose source and target are both in {@code running} (the
   * servers of the gear running now that are on), with no migration in flight from or to either end (counting the
   * ones handed out in this call).
   */
  public List<BlockMove> due(ActiveSet running) {
    BitSet busy = new BitSet();
    for (BlockMove move : inFlight) {
      busy.set(move.from());
      busy.set(move.to());
    }
    List<BlockMove> moves = new ArrayList<>();
    for (Iterator<BlockMove> it = owed.values().iterator(); it.hasNext(); ) {
      BlockMove move = it.next();
      if (running.contains(move.from()) && running.contains(move.to()) && !busy.get(move.from())
          && !busy.get(move.to())) {
        busy.set(move.from());
        busy.set(move.to());
        moves.add(move);
        inFlight.add(move);
        it.remove();
        bytes.remove(move.blockId());
      }
    }
    return moves;
  }

  /** {@code move} ended (landed or not); true when it was one of these migrations. */
  public boolean ended(BlockMove move) {
    return inFlight.remove(move);
  }

  /** Ends the migrations in flight whose copy is no longer under way ({@code copying} false): they were abandoned. */
  public void settle(Predicate<String> copying) {
    inFlight.removeIf(move -> !copying.test(move.blockId()));
  }

  /** How many migrations are owed and not yet handed out. */
  public int owedCount() {
    return owed.size();
  }
}
