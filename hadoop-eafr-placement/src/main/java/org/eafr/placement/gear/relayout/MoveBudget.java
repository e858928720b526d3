package org.eafr.placement.gear.relayout;

import java.util.HashMap;
import java.util.Map;
import org.eafr.placement.gear.BlockMove;

/**
 * The throttle on relayout's block moves: at most {@code perServer} moves in flight on any server (as source or
 * target) and at most {@code total} in all, so a relayout never takes more of a DataNode's disks and network than a
 * Balancer run would. Deterministic: a move starts when {@link #tryStart} says so and frees its slots at
 * {@link #finish}. Not thread-safe; one relayout step owns it.
 *
 * <p>Worked example ({@code MoveBudgetTest}): with 1 per server and 2 in all, moves 0 -> 4, 0 -> 5 and 1 -> 6 start
 * as: the first yes, the second no (server 0 busy), the third yes, and a fourth 2 -> 7 no (2 in flight) until the
 * first finishes.
 */
public final class MoveBudget {
  private final int perServer;
  private final int total;
  private final Map<Integer, Integer> busy = new HashMap<>();
  private int inFlight;

  public MoveBudget(int perServer, int total) {
    if (perServer < 1 || total < 1) {
      throw new IllegalArgumentException("a move budget of " + perServer + " per server and " + total + " in all is"
          + " not allowed: expected at least 1 of each");
    }
    this.perServer = perServer;
    this.total = total;
  }

  public static MoveBudget of(RelayoutSettings settings) {
    return new MoveBudget(settings.movesPerDataNode(), settings.movesConcurrent());
  }

  /** Starts {@code move} and takes its slots when both servers and the total have room; otherwise changes nothing. */
  public boolean tryStart(BlockMove move) {
    if (inFlight >= total || load(move.from()) >= perServer || load(move.to()) >= perServer) {
      return false;
    }
    busy.merge(move.from(), 1, Integer::sum);
    busy.merge(move.to(), 1, Integer::sum);
    inFlight++;
    return true;
  }

  /** Frees the slots of a move {@link #tryStart} started. */
  public void finish(BlockMove move) {
    release(move.from());
    release(move.to());
    inFlight--;
  }

  public int inFlight() {
    return inFlight;
  }

  private int load(int server) {
    return busy.getOrDefault(server, 0);
  }

  private void release(int server) {
    busy.computeIfPresent(server, (s, n) -> n > 1 ? n - 1 : null);
  }
}
