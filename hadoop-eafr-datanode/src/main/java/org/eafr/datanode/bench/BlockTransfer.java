package org.eafr.datanode.bench;

import java.util.Objects;

/** One block copied into a DataNode: which block, from which peer, when it started and ended (epoch ms), its size. */
public final class BlockTransfer {
  private final String block;
  private final String source;
  private final long startMillis;
  private final long endMillis;
  private final long bytes;

  public BlockTransfer(String block, String source, long startMillis, long endMillis, long bytes) {
    this.block = Objects.requireNonNull(block, "block");
    this.source = Objects.requireNonNull(source, "source");
    if (endMillis < startMillis) {
      throw new IllegalArgumentException("block " + block + " ends at " + endMillis + " before it starts at "
          + startMillis);
    }
    this.startMillis = startMillis;
    this.endMillis = endMillis;
    this.bytes = bytes;
  }

  public String block() {
    return block;
  }

  public String source() {
    return source;
  }

  public long startMillis() {
    return startMillis;
  }

  public long endMillis() {
    return endMillis;
  }

  public long durationMillis() {
    return endMillis - startMillis;
  }

  public long bytes() {
    return bytes;
  }

  @Override
  public String toString() {
    return block + " from " + source + " " + durationMillis() + " ms, " + bytes + " bytes";
  }
}
