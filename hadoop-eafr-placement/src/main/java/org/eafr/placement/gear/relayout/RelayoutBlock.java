package org.eafr.placement.gear.relayout;

import java.util.Objects;

/**
 * A block stored before its layout was chosen, as relayout sees it: its id, its length in bytes and the chain
 * positions of the servers holding it now (a holder outside the chain is left out). Immutable.
 */
public final class RelayoutBlock {
  private final String id;
  private final long bytes;
  private final int[] holders;

  public RelayoutBlock(String id, long bytes, int... holders) {
    Objects.requireNonNull(id, "id");
    if (bytes < 0) {
      throw new IllegalArgumentException("block " + id + ": " + bytes + " bytes is not allowed: expected >= 0");
    }
    for (int i = 0; i < holders.length; i++) {
      for (int j = 0; j <= i; j++) {
        if (holders[i] < 0 || (j < i && holders[i] == holders[j])) {
          throw new IllegalArgumentException("block " + id + ": holder " + holders[i] + " is not allowed: expected"
              + " distinct chain positions >= 0");
        }
      }
    }
    this.id = id;
    this.bytes = bytes;
    this.holders = holders.clone();
  }

  public String id() {
    return id;
  }

  public long bytes() {
    return bytes;
  }

  /** The holders' chain positions (a copy). */
  public int[] holders() {
    return holders.clone();
  }

  int holderCount() {
    return holders.length;
  }

  int holder(int index) {
    return holders[index];
  }
}
