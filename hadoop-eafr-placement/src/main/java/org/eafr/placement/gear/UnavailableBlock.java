package org.eafr.placement.gear;

import java.util.List;
import java.util.Objects;

/**
 * The first block (or file) that a set of servers staying on would leave without a live replica: its id and the
 * servers that hold its replicas, none of which stays on. Immutable; {@link #message()} is what an operator reads when
 * a gear-down is refused.
 */
public final class UnavailableBlock {
  private final String blockId;
  private final List<String> holders;

  public UnavailableBlock(String blockId, List<String> holders) {
    this.blockId = Objects.requireNonNull(blockId, "blockId");
    this.holders = List.copyOf(holders);
  }

  public String blockId() {
    return blockId;
  }

  /** The servers holding its replicas (none of them stays on). */
  public List<String> holders() {
    return holders;
  }

  public String message() {
    return holders.isEmpty()
        ? "block " + blockId + " has no live replica at all"
        : "block " + blockId + " would have no live replica on a server that stays on: its replicas are on "
            + holders + ", none of which stays on";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof UnavailableBlock && ((UnavailableBlock) o).blockId.equals(blockId)
        && ((UnavailableBlock) o).holders.equals(holders);
  }

  @Override
  public int hashCode() {
    return Objects.hash(blockId, holders);
  }

  @Override
  public String toString() {
    return message();
  }
}
