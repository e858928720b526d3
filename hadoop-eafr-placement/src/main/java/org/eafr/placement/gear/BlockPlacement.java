package org.eafr.placement.gear;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Where a new block's replicas go, replica 0 first (the primary replica of Rabbit and SpringFS). For each replica the
 * placement names its <em>holder</em>, the server that receives it now, and its <em>home</em>, the server the
 * layout's target places it on. They differ when the replica is offloaded (Rabbit Sec. 3.3, SpringFS Sec. 3): its
 * home is asleep (availability offloading) or overloaded (write offloading), and the layout owes a move from holder to
 * home (the cleanup work before the holder sleeps, or the reflection once the home wakes, Accordion Sec. 3.4).
 *
 * <p>A placement can have fewer replicas than requested when too few servers are on: {@link #size()} says how many.
 * Immutable; a few ints per block.
 */
public final class BlockPlacement {
  private final ExpansionChain chain;
  private final int[] holders;
  private final int[] homes;

  /**
   * @param holders the servers that receive the replicas now, distinct
   * @param homes the target server of each replica (same length); equal to the holder unless offloaded
   */
  public BlockPlacement(ExpansionChain chain, int[] holders, int[] homes) {
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
    this.chain = chain;
    this.holders = holders.clone();
    this.homes = homes.clone();
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
    return text.append(']').toString();
  }
}
