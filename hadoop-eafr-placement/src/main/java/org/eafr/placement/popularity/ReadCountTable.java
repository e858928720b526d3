package org.eafr.placement.popularity;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The read counts of one interval in at most {@code capacity} entries, in the style of Misra-Gries and lossy counting
 * (Manku and Motwani, VLDB 2002). Not thread-safe: {@link ReadStatistics} guards each table (one per stripe) with a
 * lock.
 *
 * <p>Algorithm, per read of file f:
 * <ol>
 *   <li>If f has an entry, count the read in it.</li>
 *   <li>Otherwise, if the table is full, prune: find the cut t, the {@code d}-th smallest (count + error) where
 *       {@code d = size - floor(0.75 * capacity)}, drop every entry below t and as many at t as needed to drop d, and
 *       raise the floor to t (it never falls).</li>
 *   <li>Add an entry for f with count 1 and error = floor if f may have been dropped before ({@link DroppedFiles}),
 *       else error 0: a file never dropped has had all its reads counted.</li>
 * </ol>
 * Why the bounds hold: an untracked file had every read recorded until it was dropped with count + error &lt;= t &lt;=
 * floor, and no reads are recorded while it is out, so its true count is at most the floor; when it comes back its
 * error is that floor. An untracked file that was never dropped was never read. Pruning visits every entry once per
 * {@code capacity / 4} new files: O(1) amortized per read. See {@link ReadStatistics} for a worked example.
 *
 * <p><b>Layout.</b> An open-addressing table with linear probing over one int array, 10 ints per slot: the file's
 * 64-bit {@link FileIdHash} as two ints (0 = empty slot), unattributed reads, error, then three (server number + 1,
 * reads) pairs, server 0 meaning none yet. Key and counts share the slot, so a read costs one cache miss, not one in
 * a key array and another in a count array (a read of an untracked-in-cache file is a miss either way in a NameNode's
 * heap). A file read on a fourth server keeps the extra pairs in a small side map, the only allocation per file, and
 * only for such files. The array grows by half
 * while the table fills, up to 1.5 slots per entry (load at most 2/3), so a full table costs 1.5 x 40 = 60
 * bytes per entry, plus 1 byte of Bloom filter and 8 of prune scratch once it first prunes. A read of a tracked file
 * or the first read of a file allocates nothing (except when the arrays grow). Counts are ints that stop at
 * 2^31 - 1 reads of one file on one replica in one interval (over 5 hours of 100,000 opens per second of that one
 * file): a stopped count stays a lower bound.
 */
final class ReadCountTable {
  private static final double KEPT_FRACTION = 0.75;
  /** Ints per slot: the file's 64-bit hash (low, high), then its counts, in one array (one cache miss per read). */
  private static final int STRIDE = 10;
  private static final int KEY_LOW = 0;
  private static final int KEY_HIGH = 1;
  private static final int UNATTRIBUTED = 2;
  private static final int ERROR = 3;
  private static final int FIRST_REPLICA = 4;
  private static final int COUNTS = STRIDE - UNATTRIBUTED;
  private static final int INLINE_REPLICAS = 3;
  private static final int MIN_SLOTS = 16;

  private final int capacity;
  private final int keptAfterPrune;
  private final int maxSlots;
  /** STRIDE ints per slot: key (0 = empty slot), unattributed, error, three (server + 1, reads) pairs. */
  private int[] counts;
  private int slots;
  private int size;
  private int growAt;
  private long floor;
  /** Created by the first prune: before it nothing was dropped. */
  private DroppedFiles dropped;
  /** Pairs (server number + 1, reads) beyond the third, per file hash; null until a file needs them. */
  private Map<Long, int[]> extraReplicas;
  private long[] upperBounds;

  ReadCountTable(int capacity) {
    this.capacity = capacity;
    this.keptAfterPrune = (int) (capacity * KEPT_FRACTION);
    this.maxSlots = capacity + capacity / 2 + 1;
    allocate(Math.min(maxSlots, MIN_SLOTS));
  }

  /** One read of the file with hash {@code key} on server {@code server}, or on an unknown replica when -1. */
  void record(long key, int server) {
    int slot = slotOf(key);
    if (keyAt(slot) == 0) {
      slot = add(key);
    }
    int base = slot * STRIDE;
    if (server < 0) {
      increment(base + UNATTRIBUTED);
      return;
    }
    int tag = server + 1;
    for (int at = base + FIRST_REPLICA; at < base + STRIDE; at += 2) {
      if (counts[at] == tag) {
        increment(at + 1);
        return;
      }
      if (counts[at] == 0) {
        counts[at] = tag;
        counts[at + 1] = 1;
        return;
      }
    }
    recordExtra(key, tag);
  }

  int size() {
    return size;
  }

  long floor() {
    return floor;
  }

  /** False only for a file this table never dropped: then its count is exact (0 when it is not tracked). */
  boolean mayHaveBeenDropped(long key) {
    return floor > 0 && dropped != null && dropped.mightContain(key);
  }

  boolean isTracked(long key) {
    return keyAt(slotOf(key)) != 0;
  }

  /** The reads of the tracked file with hash {@code key}, named {@code fileId}; null when it is not tracked. */
  FileReads fileReads(long key, String fileId, ServerIds servers) {
    int slot = slotOf(key);
    if (keyAt(slot) == 0) {
      return null;
    }
    int base = slot * STRIDE;
    FileReads.Builder builder = FileReads.builder(fileId).unattributedReads(counts[base + UNATTRIBUTED])
        .error(counts[base + ERROR]);
    for (int at = base + FIRST_REPLICA; at < base + STRIDE && counts[at] != 0; at += 2) {
      builder.replicaReads(servers.idOf(counts[at] - 1), counts[at + 1]);
    }
    int[] extra = extraReplicas == null ? null : extraReplicas.get(key);
    for (int at = 1; extra != null && at < extra[0]; at += 2) {
      builder.replicaReads(servers.idOf(extra[at] - 1), extra[at + 1]);
    }
    return builder.build();
  }

  /** The first slot from the key's home that holds it or is empty; the table always has an empty slot. */
  private int slotOf(long key) {
    int low = (int) key;
    int high = (int) (key >>> 32);
    int slot = (int) (((key & 0xFFFF_FFFFL) * slots) >>> 32);
    while (true) {
      int base = slot * STRIDE;
      int heldLow = counts[base + KEY_LOW];
      int heldHigh = counts[base + KEY_HIGH];
      if (heldLow == low && heldHigh == high || heldLow == 0 && heldHigh == 0) {
        return slot;
      }
      if (++slot == slots) {
        slot = 0;
      }
    }
  }

  private long keyAt(int slot) {
    int base = slot * STRIDE;
    return (long) counts[base + KEY_HIGH] << 32 | counts[base + KEY_LOW] & 0xFFFF_FFFFL;
  }

  private void setKey(int slot, long key) {
    int base = slot * STRIDE;
    counts[base + KEY_LOW] = (int) key;
    counts[base + KEY_HIGH] = (int) (key >>> 32);
  }

  private int add(long key) {
    if (size >= capacity) {
      prune();
    } else if (size >= growAt) {
      rehash(Math.min(maxSlots, slots + slots / 2));
    }
    int slot = slotOf(key);
    setKey(slot, key);
    counts[slot * STRIDE + ERROR] = mayHaveBeenDropped(key) ? (int) Math.min(Integer.MAX_VALUE, floor) : 0;
    size++;
    return slot;
  }

  private void increment(int at) {
    if (counts[at] != Integer.MAX_VALUE) {
      counts[at]++;
    }
  }

  private void recordExtra(long key, int tag) {
    if (extraReplicas == null) {
      extraReplicas = new HashMap<>();
    }
    int[] extra = extraReplicas.get(key);
    if (extra == null) {
      extra = new int[] {1, 0, 0, 0, 0};
    }
    int at = 1;
    while (at < extra[0] && extra[at] != tag) {
      at += 2;
    }
    if (at < extra[0]) {
      extra[at + 1] = extra[at + 1] == Integer.MAX_VALUE ? Integer.MAX_VALUE : extra[at + 1] + 1;
      return;
    }
    if (at + 1 >= extra.length) {
      extra = Arrays.copyOf(extra, extra.length * 2 - 1);
    }
    extra[at] = tag;
    extra[at + 1] = 1;
    extra[0] = at + 2;
    extraReplicas.put(key, extra);
  }

  /** count + error: the most reads this file can have had, which decides who is dropped first. */
  private long upperBound(int slot) {
    int base = slot * STRIDE;
    long bound = (long) counts[base + UNATTRIBUTED] + counts[base + ERROR];
    for (int at = base + FIRST_REPLICA + 1; at < base + STRIDE; at += 2) {
      bound += counts[at];
    }
    int[] extra = extraReplicas == null ? null : extraReplicas.get(keyAt(slot));
    for (int at = 2; extra != null && at < extra[0]; at += 2) {
      bound += extra[at];
    }
    return bound;
  }

  private void prune() {
    if (upperBounds == null) {
      upperBounds = new long[capacity];
      dropped = new DroppedFiles(capacity);
    }
    int n = 0;
    for (int slot = 0; slot < slots; slot++) {
      if (keyAt(slot) != 0) {
        upperBounds[n++] = upperBound(slot);
      }
    }
    int toDrop = size - keptAfterPrune;
    long cut = LongSelection.kthSmallest(upperBounds, n, toDrop - 1);
    int dropAtCut = toDrop - countBelow(n, cut);
    int emptyBefore = firstEmptySlot();
    for (int slot = 0; slot < slots; slot++) {
      long key = keyAt(slot);
      if (key == 0) {
        continue;
      }
      long upperBound = upperBound(slot);
      if (upperBound < cut || (upperBound == cut && dropAtCut-- > 0)) {
        dropped.add(key);
        if (extraReplicas != null) {
          extraReplicas.remove(key);
        }
        clear(slot);
        size--;
      }
    }
    floor = Math.max(floor, cut);
    closeGaps(emptyBefore);
  }

  private int firstEmptySlot() {
    int slot = 0;
    while (keyAt(slot) != 0) {
      slot++;
    }
    return slot;
  }

  private int countBelow(int n, long cut) {
    int below = 0;
    for (int i = 0; i < n; i++) {
      if (upperBounds[i] < cut) {
        below++;
      }
    }
    return below;
  }

  /**
   * After slots were emptied, moves every entry to the first free slot from its home, so that a probe (which stops
   * at an empty slot) finds it again. Entries are visited in probe order starting after {@code emptyBefore}, a slot
   * that was empty before the drops: no probe sequence crosses it, so each entry is visited after every slot it could
   * move to, and visited once.
   */
  private void closeGaps(int emptyBefore) {
    for (int step = 1, slot = emptyBefore; step < slots; step++) {
      if (++slot == slots) {
        slot = 0;
      }
      long key = keyAt(slot);
      if (key == 0) {
        continue;
      }
      setKey(slot, 0);
      int target = slotOf(key);
      setKey(target, key);
      if (target != slot) {
        System.arraycopy(counts, slot * STRIDE + UNATTRIBUTED, counts, target * STRIDE + UNATTRIBUTED, COUNTS);
        Arrays.fill(counts, slot * STRIDE + UNATTRIBUTED, slot * STRIDE + STRIDE, 0);
      }
    }
  }

  private void clear(int slot) {
    Arrays.fill(counts, slot * STRIDE, slot * STRIDE + STRIDE, 0);
  }

  private void rehash(int newSlots) {
    int[] old = counts;
    int oldSlots = slots;
    allocate(newSlots);
    for (int from = 0; from < oldSlots; from++) {
      int base = from * STRIDE;
      if (old[base + KEY_LOW] != 0 || old[base + KEY_HIGH] != 0) {
        int slot = slotOf((long) old[base + KEY_HIGH] << 32 | old[base + KEY_LOW] & 0xFFFF_FFFFL);
        System.arraycopy(old, base, counts, slot * STRIDE, STRIDE);
      }
    }
  }

  /** Room for {@code slots}; the table grows again when two thirds are taken, until it has {@code maxSlots}. */
  private void allocate(int newSlots) {
    slots = newSlots;
    counts = new int[newSlots * STRIDE];
    growAt = newSlots == maxSlots ? Integer.MAX_VALUE : newSlots * 2 / 3;
  }
}
