package org.eafr.placement.gear;

/**
 * The contract of a power-proportional layout (Rabbit's equal-work layout with gear and recovery groups, SpringFS's
 * bounded offloading, Accordion, EAFR on gears): which servers each gear keeps on, where a new block's replicas go
 * given the servers that are on, and which servers a failed one makes wake.
 *
 * <p>Gears are numbered 0 .. {@link #maximumGear()}; gear 0 is the minimum power setting (for the equal-work layout,
 * the p primaries) and the sets are nested: every server gear k keeps on is also on in gear k + 1.
 *
 * <p>Cost: {@link #place} is O(r log N) and allocates a few ints, so a simulator can place 500,000 files' blocks on
 * 3,000 servers and a NameNode can call it from chooseTarget; {@link #serversOn} returns a precomputed set. A layout is
 * safe to call from many threads: its structure is immutable, and the little state a deterministic placement keeps
 * (which server is owed the next replica) is guarded inside it.
 */
public interface GearedLayout {
  /** A short name for reports and logs, e.g. "equal-work". */
  String name();

  ExpansionChain chain();

  /** The highest gear; gear 0 is the lowest. */
  int maximumGear();

  /** The servers gear {@code gear} keeps on; a gear outside 0 .. maximumGear() throws naming it and the range. */
  ActiveSet serversOn(int gear);

  /** The lowest gear that keeps the server at {@code position} on. */
  int gearOf(int position);

  /**
   * Where the replicas of a new block go. Replicas whose home (the layout's target) is off, excluded or unable to take
   * them are offloaded to servers in {@code on}, and the placement records their homes. Fewer replicas than requested
   * come back only when fewer servers of {@code on} can take one.
   */
  BlockPlacement place(BlockRequest request, ActiveSet on);

  /**
   * Where the replicas of a block already written belong, given the servers holding it now ({@code holders}, chain
   * positions): the homes reflection and passive migration bring it to once they are on. A layout whose target can
   * keep copies where they are names homes that include them, so that only the remainder moves (Accordion Sec. 3.4
   * keeps a block's lowest-group copies); by default the block is placed anew, as {@link #place} places a new one.
   */
  default BlockPlacement placeExisting(BlockRequest request, ActiveSet on, int[] holders) {
    return place(request, on);
  }

  /**
   * The servers to wake, beyond the minimum gear, so that every block with a replica on the failed server at
   * {@code failed} keeps a live replica (Rabbit Sec. 3.5: a failed primary wakes only its recovery group). Empty when
   * the failed server's blocks all have another replica in gear 0.
   */
  ActiveSet recoveryGroup(int failed);

  /**
   * The servers that may hold another home replica of a block one of whose homes is the server at {@code position}:
   * every home of such a block is in this set or is {@code position} itself. A NameNode that cannot see a block's
   * replicas on sleeping servers (after a restart) looks for them here ({@link SleepingHomes}). By default, with no
   * structure to go by, every other server of the chain.
   */
  default ActiveSet homeMates(int position) {
    return ActiveSet.all(chain()).without(position);
  }

  /**
   * The fraction of the layout's blocks the server at {@code position} holds in the target layout, b_i / B (Rabbit
   * Sec. 3.1.3); the read balancer's desired hit ratio with n servers on is share * n (Sec. 3.2).
   */
  double share(int position);

  /** Throws when {@code gear} is not a gear of {@code layout}, naming the value and what is allowed. */
  static int checkGear(GearedLayout layout, int gear) {
    if (gear < 0 || gear > layout.maximumGear()) {
      throw new IllegalArgumentException("gear " + gear + " does not exist: layout " + layout.name()
          + " has gears 0.." + layout.maximumGear());
    }
    return gear;
  }
}
