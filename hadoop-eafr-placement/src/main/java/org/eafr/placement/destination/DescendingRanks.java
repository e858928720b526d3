package org.eafr.placement.destination;

/**
 * 1-based ranks of candidates by a descending int key, ties kept in candidate order (a stable ranking), computed
 * without boxing, comparators or comparison sorts: a least-significant-digit radix sort of the candidates' positions
 * by each key's distance below the largest key. Each pass is stable, so equal keys keep candidate order. Digits of at
 * most 11 bits are sized to the keys' range, so few passes do: remaining capacities (a range of tens) take one pass,
 * float speed keys (2^23 values per doubling of speed) three, all-equal keys none. Cost: O(m + 2^digit) per pass,
 * against O(m log m) comparisons for a sort.
 *
 * <p>Worked example: keys (5, 9, 5, 7) rank as (3, 1, 4, 2): 9 first, then 7, then the two 5s in candidate order.
 */
final class DescendingRanks {
  private static final int MAX_DIGIT_BITS = 11;

  private DescendingRanks() {
  }

  /** ranks[i] is the 1-based rank of {@code keys[i]}; larger keys rank first. */
  static int[] of(int[] keys) {
    int[] order = new int[keys.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    if (keys.length > 1) {
      order = sortedByDistanceFromMax(keys, order);
    }
    int[] ranks = new int[keys.length];
    for (int rank = 0; rank < order.length; rank++) {
      ranks[order[rank]] = rank + 1;
    }
    return ranks;
  }

  private static int[] sortedByDistanceFromMax(int[] keys, int[] order) {
    int max = Integer.MIN_VALUE;
    int min = Integer.MAX_VALUE;
    for (int key : keys) {
      max = Math.max(max, key);
      min = Math.min(min, key);
    }
    if (max == min) {
      return order; // all tied (e.g. no speed measured yet): candidate order is the ranking
    }
    int[] distances = new int[keys.length];
    for (int i = 0; i < keys.length; i++) {
      distances[i] = max - keys[i]; // up to 2^32 - 1: read as unsigned below
    }
    int bits = Integer.SIZE - Integer.numberOfLeadingZeros(max - min);
    int passes = (bits + MAX_DIGIT_BITS - 1) / MAX_DIGIT_BITS;
    int digitBits = (bits + passes - 1) / passes; // balanced digits, so fewer buckets to sweep
    int[] buffer = new int[keys.length];
    for (int pass = 0; pass < passes; pass++) {
      scatter(distances, pass * digitBits, digitBits, order, buffer);
      int[] sorted = buffer;
      buffer = order;
      order = sorted;
    }
    return order;
  }

  /** One stable counting-sort pass of {@code order} into {@code target} by the digit at {@code shift}. */
  private static void scatter(int[] distances, int shift, int digitBits, int[] order, int[] target) {
    int mask = (1 << digitBits) - 1;
    int[] next = new int[mask + 1];
    for (int distance : distances) {
      next[(distance >>> shift) & mask]++;
    }
    int start = 0;
    for (int bucket = 0; bucket <= mask; bucket++) {
      int count = next[bucket];
      next[bucket] = start; // from now on: where the bucket's next position goes
      start += count;
    }
    for (int position : order) {
      target[next[(distances[position] >>> shift) & mask]++] = position;
    }
  }
}
