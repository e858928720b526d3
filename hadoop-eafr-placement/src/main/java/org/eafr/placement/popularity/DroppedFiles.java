package org.eafr.placement.popularity;

/**
 * A Bloom filter of the files a {@link ReadCountTable} dropped in this interval. It lets the table tell "never read"
 * from "read, then dropped": a file the filter has not seen has had every read counted (none if untracked), so its
 * bounds stay exact. False positives only fall back to the floor, the bound the table would use without the filter.
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

  void add(String fileId) {
    int h1 = fileId.hashCode();
    int h2 = secondHash(h1);
    for (int i = 0; i < PROBES; i++) {
      int bit = (h1 + i * h2) & bitMask;
      words[bit >>> 6] |= 1L << bit;
    }
  }

  boolean mightContain(String fileId) {
    int h1 = fileId.hashCode();
    int h2 = secondHash(h1);
    for (int i = 0; i < PROBES; i++) {
      int bit = (h1 + i * h2) & bitMask;
      if ((words[bit >>> 6] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  /** An odd second hash, so the probe sequence visits distinct bits. */
  private static int secondHash(int h) {
    int mixed = h * 0x9E3779B9;
    return (mixed ^ (mixed >>> 16)) | 1;
  }
}
