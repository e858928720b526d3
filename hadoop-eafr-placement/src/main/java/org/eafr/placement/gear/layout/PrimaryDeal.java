package org.eafr.placement.gear.layout;

import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * Deals a recovery group's blocks to its primaries so that every primary gets the same mix of blocks (Rabbit, Amur et
 * al., Sec. 3.5: "to share work equally each gear group should contain approximately the same amount of data from each
 * primary").
 *
 * <p>Why it matters: with gear k on, a primary must itself serve every block of its own whose non-primaries are all
 * off. A block's class is the gear group (0-based index in the recovery group) of its lowest non-primary, G for a
 * block without one; the block needs its primary at every gear k &lt;= class. So the blocks only primary j can serve at
 * gear k are S_j(k), its blocks of class &gt;= k. Equal work needs S_j(k) equal for the primaries of a group at every
 * k: the primary with the most serves at least that many reads of a full read, however the reads are balanced.
 *
 * <p>Algorithm: a block of class c goes to the primary that minimises sum_{k=0..c} S_j(k) (equivalently, the sum over
 * its blocks of min(class, c) + 1): the choice that least increases the squared spread of the counts S_j(k) at the
 * gears the block counts in, k = 0..c (k = 0 is the primary's total). Ties go to the next primary in turn. A caller
 * may restrict the choice to preferred primaries (another rack than the block's non-primaries); when none is
 * preferred, all are candidates.
 *
 * <p>Measured, not proven: on one rack, 1,000 random layouts (g 1-4, 1-8 primaries per group, r 2-4, up to 3,000
 * blocks) keep every S_j(k) of a group within 7 blocks of each other and every total within 3
 * (PrimaryDealPropertyTest). Dealing primaries in plain turn instead, as before, tied a block's primary to its
 * position in the non-primaries' periodic deal: with g = 1, p = 40, r = 3 and 15,000 blocks on 300 servers, the blocks
 * only a primary could serve at 70 servers on ranged from 100 to 288 per primary (B / n = 214), which capped the degree
 * of power proportionality at 0.74 for any read balancer (max-flow; docs/evaluation-gears.md). Rounds (each primary once per
 * p / g blocks, totals within one) were tried too: the last blocks of a round have no choice, and S_j(k) drifted
 * apart by up to 572 blocks.
 *
 * <p>Worked example (primaries A, B of one group; blocks of class 2, 0, 2, 0): block 1 to A (tie, A's turn); block 2
 * (class 0, the sum counts totals: A 1, B 0) to B; block 3 (class 2: A's sum min(2, 2) + 1 = 3, B's min(0, 2) + 1 = 1)
 * to B; block 4 (A 1, B 2) to A. Each primary holds one block of each class, where plain turn gives A both blocks of
 * class 2 (S_A(1) = 2, S_B(1) = 0).
 *
 * <p>Cost O(P log G) per block for P primaries (two Fenwick trees over the classes, each node holding every
 * primary's count side by side, so a choice reads log G rows of P longs in order rather than 2P trees scattered in
 * memory: at 10,000 servers a recovery group has 135 primaries and 866 classes). Not thread-safe: the recovery
 * group's lock guards it.
 */
final class PrimaryDeal {
  private final int classes;
  /** Fenwick node i (1..classes) of the per-primary block counts: counts[i][j] for primary j. */
  private final long[][] counts;
  /** The same for the summed classes of the blocks. */
  private final long[][] classSums;
  private final long[] totals;
  /** Each primary's weight (its capacity) for a deal by bytes; null deals equal shares. */
  private final double[] weights;
  /** Scratch of one choice: each primary's count and summed class of its blocks of class below the block's. */
  private final long[] countsBelow;
  private final long[] sumsBelow;
  private final double weightSum;
  /** Bytes each primary took, bytes dealt in all, the largest block: the deal by bytes (all 0 when dealt by count). */
  private final long[] bytesTaken;
  private double bytesDealt;
  private long largestBlock;
  private int turn;

  /**
   * @param primaries P, the primaries of the recovery group
   * @param classes the classes a block can have, 0..classes-1
   */
  PrimaryDeal(int primaries, int classes) {
    this(primaries, classes, null);
  }

  /**
   * A deal whose primaries take blocks in proportion to {@code weights} (their capacities): a block goes to the primary
   * whose load after taking it, over its weight, is least, so each S_j(k) grows as w_j.
   */
  PrimaryDeal(int primaries, int classes, double[] weights) {
    this.weights = weights;
    this.classes = Math.max(1, classes);
    this.counts = new long[this.classes + 1][primaries];
    this.classSums = new long[this.classes + 1][primaries];
    this.totals = new long[primaries];
    this.countsBelow = new long[primaries];
    this.sumsBelow = new long[primaries];
    this.bytesTaken = new long[primaries];
    this.weightSum = weights == null ? primaries : Arrays.stream(weights).sum();
  }

  /**
   * The primary (index 0..P-1) for a block of class {@code blockClass}, among the preferred ones when any is. Dealt
   * by bytes ({@link #take(int, int, long)} given sizes), a primary whose bytes are ahead of its share of the bytes
   * dealt so far by more than the largest block yet is passed over while another preferred one is not.
   */
  int choose(int blockClass, IntPredicate preferred) {
    int c = clamp(blockClass);
    sumBelow(c);
    int best = best(c, j -> preferred.test(j) && !bytesAhead(j));
    best = best >= 0 ? best : best(c, preferred);
    return best >= 0 ? best : best(c, j -> true);
  }

  /** The candidate with the least gear load after taking a block of class {@code blockClass}; -1 when none is. */
  private int best(int blockClass, IntPredicate candidate) {
    int best = -1;
    double bestLoad = Double.MAX_VALUE;
    for (int step = 0; step < totals.length; step++) {
      int j = (turn + step) % totals.length;
      if (!candidate.test(j)) {
        continue;
      }
      double load = weights == null ? gearLoad(j, blockClass)
          : (gearLoad(j, blockClass) + blockClass + 1) / weights[j];
      if (load < bestLoad) {
        best = j;
        bestLoad = load;
      }
    }
    return best;
  }

  /** Records that primary {@code primary} took a block of class {@code blockClass}; its successor is next in turn. */
  void take(int primary, int blockClass) {
    take(primary, blockClass, 0);
  }

  /** The same for a block of {@code bytes} (0: dealt by count only). */
  void take(int primary, int blockClass, long bytes) {
    bytesTaken[primary] += bytes;
    bytesDealt += bytes;
    largestBlock = Math.max(largestBlock, bytes);
    int c = clamp(blockClass);
    for (int i = c + 1; i <= classes; i += i & -i) {
      counts[i][primary]++;
      classSums[i][primary] += c;
    }
    totals[primary]++;
    turn = (primary + 1) % totals.length;
  }

  /** Whether primary j took more bytes than its share (w_j / sum w, or 1 / P) of those dealt, by over the largest block. */
  private boolean bytesAhead(int j) {
    double share = weights == null ? 1.0 / totals.length : weights[j] / weightSum;
    return largestBlock > 0 && bytesTaken[j] > share * bytesDealt + largestBlock;
  }

  /** S_j(k): primary j's blocks of class &gt;= k, the blocks only it can serve with gear k on. */
  long onlyPrimary(int j, int gear) {
    long below = 0;
    for (int i = clamp(gear); i > 0; i -= i & -i) {
      below += counts[i][j];
    }
    return totals[j] - below;
  }

  /** sum_{k=0..c} S_j(k) = sum over j's blocks of min(class, c) + 1, from the prefixes {@link #sumBelow} took. */
  private long gearLoad(int j, int c) {
    long below = countsBelow[j];
    return sumsBelow[j] + below + (long) (c + 1) * (totals[j] - below);
  }

  /** Every primary's Fenwick prefixes over classes 0..c-1, row by row. */
  private void sumBelow(int c) {
    Arrays.fill(countsBelow, 0);
    Arrays.fill(sumsBelow, 0);
    for (int i = c; i > 0; i -= i & -i) {
      long[] countRow = counts[i];
      long[] sumRow = classSums[i];
      for (int j = 0; j < totals.length; j++) {
        countsBelow[j] += countRow[j];
        sumsBelow[j] += sumRow[j];
      }
    }
  }

  private int clamp(int blockClass) {
    return Math.min(Math.max(blockClass, 0), classes - 1);
  }
}
