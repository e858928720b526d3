package org.eafr.placement.gear.shift;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A block written while some of its homes slept (Rabbit Sec. 3.3 write offloading; SpringFS Sec. 4): its id, its
 * replication and the homes the layout gave it (chain server ids). Persisted by a {@link ShiftStore} until every home
 * holds the block, so a restart or failover forgets nothing owed. Immutable; {@link #encode()} gives e.g.
 * {@code blk_7;3;s0,s5,s9}.
 */
public final class OwedBlock {
  private final String blockId;
  private final int replication;
  private final List<String> homes;

  public OwedBlock(String blockId, int replication, List<String> homes) {
    this.blockId = Objects.requireNonNull(blockId, "blockId");
    if (blockId.isEmpty() || blockId.contains(";")) {
      throw new IllegalArgumentException("block id '" + blockId + "' is not allowed: expected a non-empty id"
          + " without ';'");
    }
    if (replication < 1 || homes.isEmpty()) {
      throw new IllegalArgumentException("block " + blockId + ": replication " + replication + " with homes "
          + homes + " is not allowed: expected replication >= 1 and at least one home");
    }
    this.replication = replication;
    this.homes = List.copyOf(homes);
  }

  public String blockId() {
    return blockId;
  }

  public int replication() {
    return replication;
  }

  /** The DataNodes the layout places the block's replicas on. */
  public List<String> homes() {
    return homes;
  }

  public String encode() {
    return blockId + ";" + replication + ";" + String.join(",", homes);
  }

  /** Parses what {@link #encode()} wrote; damaged text throws naming it. */
  public static OwedBlock decode(String text) {
    String[] fields = text.split(";", -1);
    try {
      if (fields.length != 3) {
        throw new IllegalArgumentException("expected 3 fields id;replication;homes, found " + fields.length);
      }
      return new OwedBlock(fields[0], Integer.parseInt(fields[1]), new ArrayList<>(List.of(fields[2].split(","))));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("owed block '" + text + "' is damaged: " + e.getMessage(), e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OwedBlock && ((OwedBlock) o).encode().equals(encode());
  }

  @Override
  public int hashCode() {
    return encode().hashCode();
  }

  @Override
  public String toString() {
    return encode();
  }
}
