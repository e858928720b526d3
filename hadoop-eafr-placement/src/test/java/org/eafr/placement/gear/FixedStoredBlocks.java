package org.eafr.placement.gear;

/** Block counts for tests: B and the blocks each position stores, set by hand. */
public final class FixedStoredBlocks implements StoredBlocks {
  private final long[] held;
  private long blocks;

  public FixedStoredBlocks(int servers) {
    held = new long[servers];
  }

  public FixedStoredBlocks with(int position, long count) {
    held[position] = count;
    return this;
  }

  public FixedStoredBlocks total(long count) {
    blocks = count;
    return this;
  }

  /** Counts every holder of every placement, B = the number of placements. */
  public FixedStoredBlocks count(Iterable<int[]> placements) {
    for (int[] holders : placements) {
      for (int holder : holders) {
        held[holder]++;
      }
      blocks++;
    }
    return this;
  }

  @Override
  public long held(int position) {
    return held[position];
  }

  @Override
  public long blocks() {
    return blocks;
  }
}
