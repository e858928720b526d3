package org.eafr.placement.gear;

import java.util.Objects;

/**
 * One block copy a geared layout asks for: copy block {@code blockId} from the server at {@code from} to the server at
 * {@code to} (chain positions), then drop the copy on {@code from} when {@code dropSource} (a move; the offloaded
 * copy is extra once it is home). Cleanup before a server sleeps, reflection after a gear-up and passive migration
 * are all lists of these. Immutable.
 */
public final class BlockMove {
  private final String blockId;
  private final int from;
  private final int to;
  private final boolean dropSource;

  public BlockMove(String blockId, int from, int to, boolean dropSource) {
    this.blockId = Objects.requireNonNull(blockId, "blockId");
    if (from == to) {
      throw new IllegalArgumentException("block " + blockId + ": a move from server " + from + " to itself is not"
          + " allowed");
    }
    this.from = from;
    this.to = to;
    this.dropSource = dropSource;
  }

  public String blockId() {
    return blockId;
  }

  public int from() {
    return from;
  }

  public int to() {
    return to;
  }

  /** Whether the copy on {@code from} is deleted once {@code to} holds the block. */
  public boolean dropSource() {
    return dropSource;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof BlockMove)) {
      return false;
    }
    BlockMove m = (BlockMove) o;
    return blockId.equals(m.blockId) && from == m.from && to == m.to && dropSource == m.dropSource;
  }

  @Override
  public int hashCode() {
    return Objects.hash(blockId, from, to, dropSource);
  }

  @Override
  public String toString() {
    return blockId + ": " + from + " -> " + to + (dropSource ? " (move)" : " (copy)");
  }
}
