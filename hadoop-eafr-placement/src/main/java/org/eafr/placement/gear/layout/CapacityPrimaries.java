package org.eafr.placement.gear.layout;

import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearedLayout;

/**
 * How many primaries the lowest gear needs to hold one whole copy of the data (Rabbit, Amur et al., Sec. 3.1: the p
 * primaries alone keep every block available, so together they store one copy). With the primaries' shares dealt by
 * capacity ({@link EqualWorkLayout}'s capacity-aware deal), p primaries hold one copy when their usable capacities (each
 * server's capacity less the storage reserve) add up to one copy's bytes times 1 + headroom:
 *
 * <pre>p = the fewest servers at the head of the chain with sum_{i &lt; p} (capacity_i - reserve) &gt;= bytes (1 + h)</pre>
 *
 * rounded up to a multiple of the gear group size g. On a chain ordered {@link ExpansionChain#largestFirst} these are
 * the largest servers, the fewest that can hold the copy (the servers the ideal keeps on); on a chain of mixed sizes in
 * any other order p grows towards one copy over the mean capacity.
 *
 * <p>Worked example (the `fill` scenario at 50%, docs/evaluation-fill.md): one copy is 25.06 TB, headroom 5%, so the
 * primaries must hold 26.313 TB; 300 servers of 750, 500 and 250 GB (100 of each) less 10 GB reserves, the 750 GB
 * servers first, give 740 GB each: 35 hold 25.9 TB, 36 hold 26.64 TB, so p = 36. At 75% (37.65 TB, 39.5325 TB with
 * headroom) p = 54. The same chain in rack-interleaved order (750, 500, 250 GB in turn, 490 GB usable on average)
 * needs p = 54 at 50% (53 hold 26.22 TB), 1.5 times as many.
 */
public final class CapacityPrimaries {
  private CapacityPrimaries() {
  }

  /**
   * The p that holds one copy of {@code oneCopyBytes} with {@code headroom} to spare on servers of {@code usable}
   * bytes each (chain order), a multiple of {@code groupSize}; a chain that cannot hold it throws naming the bytes.
   */
  public static int primaries(long oneCopyBytes, double headroom, long[] usable, int groupSize) {
    if (oneCopyBytes < 0 || !(headroom >= 0) || groupSize < 1) {
      throw new IllegalArgumentException("one copy of " + oneCopyBytes + " bytes, headroom " + headroom
          + " and gear groups of " + groupSize + " are not allowed: expected bytes >= 0, headroom >= 0, g >= 1");
    }
    double needed = oneCopyBytes * (1 + headroom);
    double held = 0;
    int p = 0;
    while (held < needed || p == 0 || p % groupSize != 0) {
      if (p == usable.length) {
        throw new IllegalArgumentException("one copy of " + oneCopyBytes + " bytes with " + headroom
            + " headroom needs more than the " + usable.length + " servers' " + (long) held + " usable bytes");
      }
      held += Math.max(0, usable[p++]);
    }
    return p;
  }

  /**
   * The p whose capacity-aware equal-work layout (the primaries and the gear groups both by room, {@link
   * EqualWorkLayout}'s seven-argument constructor, spread over the whole chain) holds one copy of {@code oneCopyBytes}
   * with every server at most 1 / (1 + headroom) full ({@link #copyHeld}): the p of the primaries' storage alone
   * ({@link #primaries(long, double, ExpansionChain, long, int)}), grown a gear group at a time while a server past the
   * primaries would overflow. Why it grows: the equal-work minimum puts B / n on the n-th server of the chain, so when
   * the servers just past the primaries are small, B / (p + 1) passes their room however the rest is shared; more
   * primaries move that minimum to a later, smaller share. A chain on which no p holds the copy throws, naming the
   * bytes and the most the layout holds: the cluster needs more servers or less data.
   *
   * <p>Worked example (the unit test checks it): 4 servers of 750 GB then 20 of 250 GB, 10 GB reserves, one copy of
   * 1.4 TB, no headroom, r = 3. Two 740 GB primaries hold the copy, but the third server would need B / 3 = 467 GB
   * of its 240 GB; p = 5 gives the sixth server B / 6 = 233 GB, and the layout holds 1.44 TB.
   */
  public static int primaries(long oneCopyBytes, double headroom, ExpansionChain chain, long reserveBytes,
      int groupSize, int replicas) {
    return primaries(oneCopyBytes, headroom, chain, reserveBytes, groupSize, replicas, true);
  }

  /**
   * The same for the equal-work layout dealt by capacity or not ({@code byCapacity}: eafr.gear.capacity-aware), as
   * the layout in force is: by block counts the primaries take equal shares, so the smallest fills first.
   */
  public static int primaries(long oneCopyBytes, double headroom, ExpansionChain chain, long reserveBytes,
      int groupSize, int replicas, boolean byCapacity) {
    long[] usable = usable(chain, reserveBytes);
    double most = 0;
    for (int p = primaries(oneCopyBytes, headroom, usable, groupSize); p < chain.size(); p += groupSize) {
      EqualWorkLayout layout;
      try {
        layout = new EqualWorkLayout(chain, p, groupSize, replicas, chain.size(), byCapacity, reserveBytes);
      } catch (IllegalArgumentException tooFewGroups) {
        break;
      }
      double held = copyHeld(layout, usable, headroom);
      if (held >= oneCopyBytes) {
        return p;
      }
      most = Math.max(most, held);
    }
    throw new IllegalArgumentException("one copy of " + oneCopyBytes + " bytes with " + headroom + " headroom does"
        + " not fit an equal-work layout of r = " + replicas + " on the " + chain.size() + " servers: the most any p"
        + " holds is " + (long) most + " bytes; add servers or store less");
  }

  /**
   * The most bytes of one copy {@code layout} holds with every server at most 1 / (1 + headroom) full: the least
   * over the servers that hold data of usable_i / (share_i (1 + headroom)), share_i = b_i / B its share of one copy
   * ({@link GearedLayout#share}). Dealt by bytes, each server holds its share within two
   * blocks.
   */
  public static double copyHeld(GearedLayout layout, long[] usable, double headroom) {
    double held = Double.MAX_VALUE;
    for (int i = 0; i < usable.length; i++) {
      double share = layout.share(i);
      if (share > 0) {
        held = Math.min(held, usable[i] / (share * (1 + headroom)));
      }
    }
    return held;
  }

  /** The same on {@code chain}'s capacities, each less {@code reserveBytes}. */
  public static int primaries(long oneCopyBytes, double headroom, ExpansionChain chain, long reserveBytes,
      int groupSize) {
    return primaries(oneCopyBytes, headroom, usable(chain, reserveBytes), groupSize);
  }

  /** The bytes each server of {@code chain} can hold past its reserve, in chain order. */
  public static long[] usable(ExpansionChain chain, long reserveBytes) {
    long[] usable = new long[chain.size()];
    for (int i = 0; i < usable.length; i++) {
      usable[i] = Math.max(0, chain.capacity(i) - reserveBytes);
    }
    return usable;
  }

  /** The share of one copy of {@code oneCopyBytes} that the first {@code primaries} servers hold: at most 1. */
  public static double heldShare(long oneCopyBytes, long[] usable, int primaries) {
    double held = 0;
    for (int i = 0; i < Math.min(primaries, usable.length); i++) {
      held += usable[i];
    }
    return oneCopyBytes <= 0 ? 1.0 : Math.min(1.0, held / oneCopyBytes);
  }
}
