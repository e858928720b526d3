package org.eafr.placement.popularity;

import java.util.Arrays;

/**
 * Finds the k-th smallest of n longs in O(n) expected time, so that {@link ReadCountTable} can find its cut without
 * sorting. Quickselect with a median-of-three pivot and a three-way partition (the counts of a long tail are mostly
 * equal, which would make a two-way partition quadratic); after 2 log2(n) rounds without converging it sorts the rest,
 * so no input costs more than O(n log n).
 *
 * <p>Worked example: in {5, 1, 4, 1, 3} the 0th smallest is 1, the 1st is 1, the 2nd is 3 and the 4th is 5.
 */
final class LongSelection {
  private LongSelection() {
  }

  /** The value that would sit at index {@code k} if {@code values[0, length)} were sorted; reorders that range. */
  static long kthSmallest(long[] values, int length, int k) {
    if (length < 1 || length > values.length) {
      throw new IllegalArgumentException("length " + length + " is not allowed: expected 1 to " + values.length);
    }
    if (k < 0 || k >= length) {
      throw new IllegalArgumentException("k " + k + " is not allowed: expected 0 to " + (length - 1));
    }
    int low = 0;
    int high = length - 1;
    int roundsLeft = 2 * (32 - Integer.numberOfLeadingZeros(length));
    while (low < high) {
      if (roundsLeft-- == 0) {
        Arrays.sort(values, low, high + 1);
        return values[k];
      }
      long pivot = medianOfThree(values[low], values[low + (high - low) / 2], values[high]);
      // Three-way partition: [low, less) < pivot, [less, i) == pivot, (greater, high] > pivot.
      int less = low;
      int greater = high;
      int i = low;
      while (i <= greater) {
        if (values[i] < pivot) {
          swap(values, less++, i++);
        } else if (values[i] > pivot) {
          swap(values, i, greater--);
        } else {
          i++;
        }
      }
      if (k < less) {
        high = less - 1;
      } else if (k > greater) {
        low = greater + 1;
      } else {
        return pivot;
      }
    }
    return values[k];
  }

  private static long medianOfThree(long a, long b, long c) {
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
  }

  private static void swap(long[] values, int i, int j) {
    long value = values[i];
    values[i] = values[j];
    values[j] = value;
  }
}
