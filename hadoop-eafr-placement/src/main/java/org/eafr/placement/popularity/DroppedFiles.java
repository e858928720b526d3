package org.eafr.placement.popularity;

/**
 * A Bloom filter of the files (by {@link FileIdHash}) a {@link ReadCountTable} dropped in this interval. It lets the
 * table tell "never read" from "read, then dropped": a file the filter has not seen has had every read counted (none
 * if untracked), so its bounds stay exact. False positives only fall back to the floor, the bound the table would use
 * without the filter.
 *
 * <p>Sized at 8 bits per table entry with 4 probes: about 2.4% false positives when as many files were dropped as the
 * table holds, rising gently beyond. Not thread-safe; guarded with its table.
 */
final class DroppedFiles {
  private static final int BITS_PER_ENTRY = 8;
  private static final int PROBES = 4;

  private final long[] words;
  private final int bitMask;

  DroppedFiles(int tableCapacity) {
    int bits = Integer.highestOneBit(Math.max(64, tableCapacity * BITS_PER_ENTRY - 1) << 1);
    this.words = new long[bits >>> 6];
    this.bitMask = bits - 1;
  }

  void add(long fileHash) {
    long mixed = remix(fileHash);
    int h1 = (int) (mixed >>> 32);
    int h2 = (int) mixed | 1;
    for (int i = 0; i < PROBES; i++) {
      int bit = (h1 + i * h2) & bitMask;
      words[bit >>> 6] |= 1L << bit;
    }
  }

  boolean mightContain(long fileHash) {
    long mixed = remix(fileHash);
    int h1 = (int) (mixed >>> 32);
    int h2 = (int) mixed | 1;
    for (int i = 0; i < PROBES; i++) {
      int bit = (h1 + i * h2) & bitMask;
      if ((words[bit >>> 6] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * The table's slot and stripe already use the hash's low and high bits; a multiply by an odd constant (a
   * bijection) gives the filter bits of its own. h2 is odd, so the probes visit distinct bits.
   */
  private static long remix(long fileHash) {
    return Long.rotateLeft(fileHash * 0x9E3779B97F4A7C15L, 29);
  }
}
