package org.eafr.placement.gear;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Where a new block's replicas go, replica 0 first (the primary replica of Rabbit and SpringFS). For each replica the
 * placement names its <em>holder</em>, the server that receives it now, and its <em>home</em>, the server the
 * layout's target places it on. They differ when the replica is offloaded (Rabbit Sec. 3.3, SpringFS Sec. 3): its
 * home is asleep (availability offloading) or overloaded (write offloading), and the layout owes a move from holder to
 * home (the cleanup work before the holder sleeps, or the reflection once the home wakes, Accordion Sec. 3.4).
 *
 * <p>A placement can have fewer replicas than requested when too few servers are on: {@link #size()} says how many,
 * and {@link #missingHomes()} names the homes of the replicas nobody received (a low gear writes fewer copies; they
 * are owed to those homes once they wake, Accordion Sec. 3.4). Immutable; a few ints per block.
 */
public final class BlockPlacement {
  private static final int[] NOT_DISPLACED = new int[0];

  private final ExpansionChain chain;
  private final int[] holders;
  private final int[] homes;
  private final int[] missing;
  private final int[] displaced;

  /**
   * @param holders the servers that receive the replicas now, distinct
   * @param homes the target server of each replica (same length); equal to the holder unless offloaded
   */
  public BlockPlacement(ExpansionChain chain, int[] holders, int[] homes) {
    this(chain, holders, homes, new int[0]);
  }

  /**
   * @param missingHomes the homes of replicas that no server received (none of them a holder)
   */
  public BlockPlacement(ExpansionChain chain, int[] holders, int[] homes, int[] missingHomes) {
    this(chain, holders, homes, missingHomes, NOT_DISPLACED);
  }

  /**
   * @param displacedHomes per replica, the home the layout's target chose first when that server had no room for
   *     the block (the replica's home is then another server, see {@link #displacedHome}), or -1; an empty array
   *     when no replica was displaced
   */
  public BlockPlacement(ExpansionChain chain, int[] holders, int[] homes, int[] missingHomes, int[] displacedHomes) {
    if (displacedHomes.length != 0 && displacedHomes.length != holders.length) {
      throw new IllegalArgumentException(displacedHomes.length + " displaced homes and " + holders.length
          + " holders are not allowed: expected none or one per replica");
    }
    if (holders.length != homes.length) {
      throw new IllegalArgumentException(holders.length + " holders and " + homes.length
          + " homes are not allowed: expected one home per replica");
    }
    for (int i = 0; i < holders.length; i++) {
      chain.id(holders[i]);
      chain.id(homes[i]);
      for (int j = 0; j < i; j++) {
        if (holders[j] == holders[i]) {
          throw new IllegalArgumentException("replicas " + j + " and " + i + " are both on " + chain.id(holders[i])
              + ": a block's replicas must be on distinct servers");
        }
      }
    }
    for (int home : missingHomes) {
      chain.id(home);
      for (int holder : holders) {
        if (holder == home) {
          throw new IllegalArgumentException("missing home " + chain.id(home) + " already holds the block");
        }
      }
    }
    this.chain = chain;
    this.holders = holders.clone();
    this.homes = homes.clone();
    this.missing = missingHomes.clone();
    this.displaced = displacedHomes.length == 0 ? NOT_DISPLACED : displacedHomes.clone();
  }

  /**
   * A placement that stopped after {@code placed} replicas because no server could take the next: the first
   * {@code placed} holders and homes, and as missing the {@code unreached} homes that no holder is.
   */
  public static BlockPlacement stoppedAt(ExpansionChain chain, int[] holders, int[] homes, int placed,
      int[] unreached) {
    return stoppedAt(chain, holders, homes, placed, unreached, NOT_DISPLACED);
  }

  /** As {@link #stoppedAt(ExpansionChain, int[], int[], int, int[])}, with the first {@code placed} displaced homes. */
  public static BlockPlacement stoppedAt(ExpansionChain chain, int[] holders, int[] homes, int placed,
      int[] unreached, int[] displacedHomes) {
    int[] kept = Arrays.copyOf(holders, placed);
    int[] missing = new int[unreached.length];
    int count = 0;
    for (int home : unreached) {
      if (home >= 0 && !Positions.contains(kept, kept.length, home) && !Positions.contains(missing, count, home)) {
        missing[count++] = home;
      }
    }
    return new BlockPlacement(chain, kept, Arrays.copyOf(homes, placed), Arrays.copyOf(missing, count),
        displacedHomes.length == 0 ? NOT_DISPLACED : Arrays.copyOf(displacedHomes, placed));
  }


  /** A placement with every replica at home. */
  public static BlockPlacement atHome(ExpansionChain chain, int... holders) {
    return new BlockPlacement(chain, holders, holders);
  }

  public ExpansionChain chain() {
    return chain;
  }

  /** The number of replicas placed. */
  public int size() {
    return holders.length;
  }

  /** The server that receives replica {@code replica} now. */
  public int holder(int replica) {
    return holders[replica];
  }

  /** The server the layout's target places replica {@code replica} on. */
  public int home(int replica) {
    return homes[replica];
  }

  public boolean isOffloaded(int replica) {
    return holders[replica] != homes[replica];
  }

  public int offloadedCount() {
    int count = 0;
    for (int i = 0; i < holders.length; i++) {
      count += isOffloaded(i) ? 1 : 0;
    }
    return count;
  }

  /**
   * The server the layout's target chose first for replica {@code replica} when it had no room for the block, or -1
   * when the replica was not displaced (its {@link #home} is the target's choice).
   */
  public int displacedHome(int replica) {
    return displaced.length == 0 ? -1 : displaced[replica];
  }

  /** How many replicas were displaced from a home without room. */
  public int displacedCount() {
    int count = 0;
    for (int home : displaced) {
      count += home >= 0 ? 1 : 0;
    }
    return count;
  }

  /** The homes of the replicas that no server received (a copy); empty when every replica was placed. */
  public int[] missingHomes() {
    return missing.clone();
  }

  /** Whether the layout owes this block anything: an offloaded replica or a missing one. */
  public boolean owesMoves() {
    return missing.length > 0 || offloadedCount() > 0;
  }

  public boolean holds(int position) {
    for (int holder : holders) {
      if (holder == position) {
        return true;
      }
    }
    return false;
  }

  /** The holders' positions, replica 0 first (a copy). */
  public int[] holders() {
    return holders.clone();
  }

  /** The holders' ids, replica 0 first. */
  public List<String> holderIds() {
    return chain.ids(holders);
  }

  /** The replicas that sit away from home, as owed moves. */
  public List<OffloadedReplica> offloaded(String blockId) {
    List<OffloadedReplica> owed = new ArrayList<>();
    for (int i = 0; i < holders.length; i++) {
      if (isOffloaded(i)) {
        owed.add(new OffloadedReplica(blockId, i, holders[i], homes[i]));
      }
    }
    return Collections.unmodifiableList(owed);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("[");
    for (int i = 0; i < holders.length; i++) {
      text.append(i == 0 ? "" : ", ").append(chain.id(holders[i]));
      if (isOffloaded(i)) {
        text.append(" (home ").append(chain.id(homes[i])).append(')');
      }
    }
    for (int home : missing) {
      text.append(", missing on ").append(chain.id(home));
    }
    return text.append(']').toString();
  }
}
