package org.eafr.placement.popularity;

/**
 * The 64-bit hash by which {@link ReadStatistics} knows a file instead of keeping a copy of its path. Four UTF-16
 * chars at a time go through an XXH64-style round (multiply, rotate, multiply), the length is mixed in, and
 * MurmurHash3's fmix64 finalizer spreads every input bit over the result; no allocation, no lookup tables. 0 never
 * comes out (it marks an empty slot): it is mapped to 1.
 *
 * <p><b>Collisions.</b> Two different files share a counter only when their hashes are equal. For paths that are not
 * crafted against this hash, a pair collides with probability about 2^-64, so among n files tracked in one interval
 * the chance that any two share a counter is about n^2 / 2^65: 2.7e-8 at the default 1,000,000 files. A file looked
 * up in a snapshot (the monitor asks for every file of the namespace) takes another tracked file's counts with
 * probability n / 2^64 per lookup: about 5.4e-6 per interval for a namespace of 100 million files. A collision can
 * only add another file's reads to a file (make it look hotter), never lose a read. It is not a keyed hash: someone
 * who can create files could search for paths that collide, which at worst makes one file look read.
 *
 * <p>Worked example: {@code of("")} and {@code of("/a")} differ, and {@code of("/data/part-1")} and
 * {@code of("/data/part-2")} differ in about half their 64 bits (the test checks the avalanche over 10,000 paths).
 */
final class FileIdHash {
  private static final long PRIME_1 = 0x9E3779B185EBCA87L;
  private static final long PRIME_2 = 0xC2B2AE3D27D4EB4FL;
  private static final long PRIME_5 = 0x27D4EB2F165667C5L;

  private FileIdHash() {
  }

  static long of(String fileId) {
    int length = fileId.length();
    long hash = PRIME_5 + length * PRIME_1;
    int i = 0;
    for (; i + 4 <= length; i += 4) {
      long word = fileId.charAt(i) | (long) fileId.charAt(i + 1) << 16 | (long) fileId.charAt(i + 2) << 32
          | (long) fileId.charAt(i + 3) << 48;
      hash = Long.rotateLeft(hash ^ round(word), 27) * PRIME_1 + PRIME_2;
    }
    for (; i < length; i++) {
      hash = Long.rotateLeft(hash ^ fileId.charAt(i) * PRIME_5, 11) * PRIME_1;
    }
    long mixed = fmix64(hash);
    return mixed == 0 ? 1 : mixed;
  }

  private static long round(long word) {
    return Long.rotateLeft(word * PRIME_2, 31) * PRIME_1;
  }

  /** MurmurHash3's 64-bit finalizer: each input bit flips each output bit with probability close to 1/2. */
  static long fmix64(long value) {
    long h = value;
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    h ^= h >>> 33;
    return h;
  }
}
