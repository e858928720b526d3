package org.eafr.placement.gear.layout;

import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ExpansionChain;

/**
 * The shape {@link EqualWorkLayout} is built on, checked before it is: the gear-group weights of p, g and r over the
 * servers that hold data, each primary's share b / B (equal, or by capacity), and the servers on in each gear.
 */
final class EqualWorkShape {
  private EqualWorkShape() {
  }

  static EqualWorkShares shares(ExpansionChain chain, int primaries, int groupSize, int replicas,
      int spread) {
    return shares(chain, primaries, groupSize, replicas, spread, null);
  }

  /**
   * The same, with the gear groups' weights by room ({@link EqualWorkShares#byRoom}) when {@code usable} (each
   * position's usable bytes) is given.
   */
  static EqualWorkShares shares(ExpansionChain chain, int primaries, int groupSize, int replicas, int spread,
      long[] usable) {
    if (primaries < 1 || groupSize < 1 || primaries % groupSize != 0 || primaries >= chain.size()) {
      throw new IllegalArgumentException("p = " + primaries + " primaries and gear groups of g = " + groupSize
          + " are not allowed on " + chain.size() + " servers: expected 1 <= p < N and p a multiple of g (each"
          + " recovery group serves p / g primaries)");
    }
    if (spread <= primaries || spread > chain.size()) {
      throw new IllegalArgumentException("spread " + spread + " is not allowed: expected p = " + primaries
          + " < spread <= N = " + chain.size());
    }
    int groups = (spread - primaries) / groupSize;
    return usable == null ? EqualWorkShares.of(primaries, groupSize, replicas, groups)
        : EqualWorkShares.byRoom(primaries, groupSize, replicas, groupRooms(usable, primaries, groupSize, groups));
  }

  /** Each gear group's room: the least usable bytes among its g servers. */
  private static double[] groupRooms(long[] usable, int primaries, int groupSize, int groups) {
    double[] rooms = new double[groups];
    for (int i = 0; i < groups; i++) {
      long least = Long.MAX_VALUE;
      for (int c = 0; c < groupSize; c++) {
        least = Math.min(least, usable[primaries + i * groupSize + c]);
      }
      rooms[i] = least;
    }
    return rooms;
  }

  static boolean capacitiesKnown(ExpansionChain chain, int primaries) {
    for (int q = 0; q < Math.min(primaries, chain.size()); q++) {
      if (chain.capacity(q) <= 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * b / B of each primary: 1 / p, or by capacity ({@code usable} not null) its recovery group's 1 / g times its share
   * of the group's usable bytes.
   */
  static double[] primaryShares(int primaries, int groupSize, long[] usable) {
    double[] shares = new double[primaries];
    double[] groupCapacity = new double[groupSize];
    for (int q = 0; q < primaries && usable != null; q++) {
      groupCapacity[q % groupSize] += usable[q];
    }
    for (int q = 0; q < primaries; q++) {
      shares[q] = usable != null ? usable[q] / groupCapacity[q % groupSize] / groupSize : 1.0 / primaries;
    }
    return shares;
  }

  /** Gear 0 is the primaries, gear k adds gear groups 1..k, and a last gear adds the servers past the last group. */
  static ActiveSet[] gearSets(ExpansionChain chain, int primaries, int groupSize, EqualWorkShares shares) {
    int gridEnd = primaries + shares.gearGroups() * groupSize;
    boolean spares = gridEnd < chain.size();
    ActiveSet[] gears = new ActiveSet[shares.gearGroups() + 1 + (spares ? 1 : 0)];
    for (int gear = 0; gear <= shares.gearGroups(); gear++) {
      gears[gear] = ActiveSet.firstN(chain, primaries + gear * groupSize);
    }
    if (spares) {
      gears[gears.length - 1] = ActiveSet.all(chain);
    }
    return gears;
  }
}
