package org.eafr.placement.gear;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The blocks that must move before some servers may sleep (SpringFS Sec. 3, "cleanup work"): each move takes a block
 * whose every live replica would otherwise sleep to a server that stays on. A server may sleep once every move from it
 * is done. Immutable.
 */
public final class CleanupWork {
  private static final CleanupWork NONE = new CleanupWork(List.of());

  private final List<BlockMove> moves;

  public CleanupWork(List<BlockMove> moves) {
    this.moves = Collections.unmodifiableList(new ArrayList<>(moves));
  }

  public static CleanupWork none() {
    return NONE;
  }

  public List<BlockMove> moves() {
    return moves;
  }

  /** The number of block moves. */
  public int blocks() {
    return moves.size();
  }

  public boolean isEmpty() {
    return moves.isEmpty();
  }

  /** The moves that must finish before the server at {@code position} may sleep. */
  public List<BlockMove> before(int position) {
    List<BlockMove> from = new ArrayList<>();
    for (BlockMove move : moves) {
      if (move.from() == position) {
        from.add(move);
      }
    }
    return from;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CleanupWork && ((CleanupWork) o).moves.equals(moves);
  }

  @Override
  public int hashCode() {
    return moves.hashCode();
  }

  @Override
  public String toString() {
    return moves.size() + " block moves " + moves;
  }
}
