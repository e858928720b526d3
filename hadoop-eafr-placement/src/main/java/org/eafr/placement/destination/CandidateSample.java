package org.eafr.placement.destination;

import java.util.Arrays;
import java.util.Objects;
import java.util.Random;
import java.util.function.IntPredicate;
import org.eafr.placement.settings.EafrSettings;

/**
 * A uniform random sample of d eligible members of a large pool, so that a destination choice ranks d servers by
 * Eq. 10-12 (EAFR Sec. 3.3) instead of all of them. EAFR ranks every candidate, which costs O(servers) per block; a
 * NameNode choosing destinations for thousands of blocks a second on a 1,000-DataNode cluster cannot afford that on
 * its RPC threads. Ranking a random sample of d keeps the rule's preference (within the sample the fastest and least
 * loaded are likeliest) and, as in "the power of d choices" (Mitzenmacher, 2001), a small d already steers most
 * choices away from slow and loaded servers. d = {@link #ALL} keeps the paper's literal rule.
 *
 * <p>Drawing: random members of the pool are tried ({@code random.nextInt(poolSize)}), keeping each that is
 * eligible and not yet drawn, until d are drawn; this is uniform without replacement over the eligible members and
 * looks at about d / (eligible fraction) members. When the pool has at most d members, or 4d tries did not fill the
 * sample (few eligible members), every member is examined instead and d of the eligible ones are drawn by a partial
 * Fisher-Yates shuffle, or all of them when there are at most d. So a sample is never smaller than
 * min(d, eligible members), and never holds an ineligible or repeated member.
 *
 * <p>Worked example: a pool of 10 whose even members are eligible, d = 3, and draws nextInt(10) = 3, 4, 4, 8, 0:
 * 3 is not eligible, 4 is drawn, 4 again is skipped, 8 and 0 are drawn; the sample is 0, 4, 8 (five tries of at most
 * twelve).
 *
 * <p>Thread-safe when {@code random} is ({@link Random} is); holds no other state.
 */
public final class CandidateSample {
  /** The sample size that means "every eligible member". */
  public static final int ALL = 0;
  private static final int TRIES_PER_MEMBER = 4;

  private final int size;
  private final Random random;

  /**
   * @param size d, at least 0; {@link #ALL} (0) samples every eligible member
   * @param random the source of every draw (seed it for reproducible runs)
   */
  public CandidateSample(int size, Random random) {
    if (size < 0) {
      throw new IllegalArgumentException("sample size d = " + size + " is not allowed: expected 0 (all) or more");
    }
    this.size = size;
    this.random = Objects.requireNonNull(random, "random");
  }

  /** d from {@code eafr.destination.sample-size}. */
  public static CandidateSample from(EafrSettings settings, Random random) {
    return new CandidateSample(settings.destinationSampleSize(), random);
  }

  /** d; {@link #ALL} when every eligible member is taken. */
  public int size() {
    return size;
  }

  /**
   * Up to d distinct members of {@code [0, poolSize)} for which {@code eligible} holds, in ascending order; exactly
   * min(d, eligible members) of them.
   */
  public int[] draw(int poolSize, IntPredicate eligible) {
    if (poolSize < 0) {
      throw new IllegalArgumentException("poolSize = " + poolSize + " is not allowed: expected at least 0");
    }
    Objects.requireNonNull(eligible, "eligible");
    if (size == ALL || poolSize <= size) {
      return examineAll(poolSize, eligible);
    }
    int[] drawn = new int[size];
    int count = 0;
    for (int tries = 0; tries < TRIES_PER_MEMBER * size && count < size; tries++) {
      int member = random.nextInt(poolSize);
      if (!contains(drawn, count, member) && eligible.test(member)) {
        drawn[count++] = member;
      }
    }
    if (count < size) {
      return examineAll(poolSize, eligible);
    }
    Arrays.sort(drawn);
    return drawn;
  }

  private int[] examineAll(int poolSize, IntPredicate eligible) {
    int[] members = new int[poolSize];
    int count = 0;
    for (int member = 0; member < poolSize; member++) {
      if (eligible.test(member)) {
        members[count++] = member;
      }
    }
    if (size == ALL || count <= size) {
      return Arrays.copyOf(members, count);
    }
    for (int i = 0; i < size; i++) { // partial Fisher-Yates: members[0..size) become a uniform sample
      int j = i + random.nextInt(count - i);
      int swap = members[i];
      members[i] = members[j];
      members[j] = swap;
    }
    int[] drawn = Arrays.copyOf(members, size);
    Arrays.sort(drawn);
    return drawn;
  }

  private static boolean contains(int[] drawn, int count, int member) {
    for (int i = 0; i < count; i++) {
      if (drawn[i] == member) {
        return true;
      }
    }
    return false;
  }
}
