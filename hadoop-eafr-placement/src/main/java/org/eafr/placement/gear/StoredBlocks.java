package org.eafr.placement.gear;

/**
 * How many blocks each server of the expansion chain stores now, as the file system counts them (the NameNode's
 * per-DataNode block count, the simulator's replica count), against the number of distinct blocks B. Geared layouts
 * deal shares; this is what the servers hold after offloading, migration and deletes, which is what Rabbit's read
 * balancer (Sec. 3.2: desired hit ratio from b_i, the blocks node i stores) and SpringFS's passive migration (Sec. 3:
 * a re-integrated server that already stores its share is owed nothing more) need.
 *
 * <p>Implementations answer in O(1) and may change between calls (counts move as blocks are written and moved).
 */
public interface StoredBlocks {
  /** Nothing counted: every answer is 0, so callers fall back to the layout's dealt shares. */
  StoredBlocks NONE = new StoredBlocks() {
    @Override
    public long held(int position) {
      return 0;
    }

    @Override
    public long blocks() {
      return 0;
    }
  };

  /** Blocks the server at chain position {@code position} stores. */
  long held(int position);

  /** B, the distinct blocks stored (each counted once however many replicas it has). */
  long blocks();

  /**
   * b_i / B, the fraction of all blocks the server at {@code position} stores, or {@code dealt} when nothing is counted
   * yet (B = 0).
   */
  default double fraction(int position, double dealt) {
    long total = blocks();
    return total == 0 ? dealt : (double) held(position) / total;
  }
}
