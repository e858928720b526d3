package org.eafr.placement.gear;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * An immutable set of servers of one {@link ExpansionChain}: the servers that are on (a gear's set, plus any recovery
 * group woken for a failure, minus failed servers), or any other subset a decision needs (the servers to wake, the
 * servers that stay on). Membership is a bit test; the set keeps a private copy of its bits, so it can be handed to
 * any thread.
 */
public final class ActiveSet {
  private final ExpansionChain chain;
  private final BitSet bits;
  private final int size;

  private ActiveSet(ExpansionChain chain, BitSet bits) {
    this.chain = Objects.requireNonNull(chain, "chain");
    if (bits.length() > chain.size()) {
      throw new IllegalArgumentException("position " + (bits.length() - 1) + " is not allowed: the chain has "
          + chain.size() + " servers");
    }
    this.bits = bits;
    this.size = bits.cardinality();
  }

  /** The servers at the set bits of {@code positions} (copied). */
  public static ActiveSet of(ExpansionChain chain, BitSet positions) {
    return new ActiveSet(chain, (BitSet) positions.clone());
  }

  /** The servers at {@code positions}. */
  public static ActiveSet of(ExpansionChain chain, int... positions) {
    BitSet bits = new BitSet(chain.size());
    for (int position : positions) {
      bits.set(checked(chain, position));
    }
    return new ActiveSet(chain, bits);
  }

  /** The servers with these ids; an unknown id throws naming it. */
  public static ActiveSet ofIds(ExpansionChain chain, Iterable<String> ids) {
    BitSet bits = new BitSet(chain.size());
    for (String id : ids) {
      bits.set(chain.requirePosition(id));
    }
    return new ActiveSet(chain, bits);
  }

  /** The servers with these ids; an id off the chain (a DataNode retired or never in it) is none of its servers. */
  public static ActiveSet ofIdsOnChain(ExpansionChain chain, Iterable<String> ids) {
    BitSet bits = new BitSet(chain.size());
    for (String id : ids) {
      int position = chain.position(id);
      if (position >= 0) {
        bits.set(position);
      }
    }
    return new ActiveSet(chain, bits);
  }

  /** The first {@code count} servers of the chain. */
  public static ActiveSet firstN(ExpansionChain chain, int count) {
    if (count < 0 || count > chain.size()) {
      throw new IllegalArgumentException("count " + count + " is not allowed: expected 0.." + chain.size());
    }
    BitSet bits = new BitSet(chain.size());
    bits.set(0, count);
    return new ActiveSet(chain, bits);
  }

  public static ActiveSet all(ExpansionChain chain) {
    return firstN(chain, chain.size());
  }

  public static ActiveSet none(ExpansionChain chain) {
    return firstN(chain, 0);
  }

  public ExpansionChain chain() {
    return chain;
  }

  public boolean contains(int position) {
    return position >= 0 && bits.get(position);
  }

  /** Whether server {@code id} is in the set; an id outside the chain is not. */
  public boolean contains(String id) {
    return contains(chain.position(id));
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The next position in the set at or after {@code from}, or -1. */
  public int next(int from) {
    return bits.nextSetBit(from);
  }

  /** The positions in the set, ascending. */
  public int[] positions() {
    return bits.stream().toArray();
  }

  /** The ids in the set, in chain order. */
  public List<String> ids() {
    List<String> ids = new ArrayList<>(size);
    for (int p = bits.nextSetBit(0); p >= 0; p = bits.nextSetBit(p + 1)) {
      ids.add(chain.id(p));
    }
    return Collections.unmodifiableList(ids);
  }

  public ActiveSet union(ActiveSet other) {
    BitSet result = (BitSet) bits.clone();
    result.or(sameChain(other).bits);
    return new ActiveSet(chain, result);
  }

  public ActiveSet minus(ActiveSet other) {
    BitSet result = (BitSet) bits.clone();
    result.andNot(sameChain(other).bits);
    return new ActiveSet(chain, result);
  }

  /** The servers in both this set and {@code other}. */
  public ActiveSet intersection(ActiveSet other) {
    BitSet result = (BitSet) bits.clone();
    result.and(sameChain(other).bits);
    return new ActiveSet(chain, result);
  }

  public ActiveSet with(int position) {
    BitSet result = (BitSet) bits.clone();
    result.set(checked(chain, position));
    return new ActiveSet(chain, result);
  }

  public ActiveSet without(int position) {
    BitSet result = (BitSet) bits.clone();
    result.clear(checked(chain, position));
    return new ActiveSet(chain, result);
  }

  /** Whether every server of this set is also in {@code other}. */
  public boolean isSubsetOf(ActiveSet other) {
    BitSet rest = (BitSet) bits.clone();
    rest.andNot(sameChain(other).bits);
    return rest.isEmpty();
  }

  private ActiveSet sameChain(ActiveSet other) {
    if (other.chain != chain) {
      throw new IllegalArgumentException("the two server sets belong to different expansion chains");
    }
    return other;
  }

  private static int checked(ExpansionChain chain, int position) {
    if (position < 0 || position >= chain.size()) {
      throw new IndexOutOfBoundsException("chain position " + position + " is not allowed: expected 0.."
          + (chain.size() - 1));
    }
    return position;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ActiveSet && ((ActiveSet) o).chain == chain && ((ActiveSet) o).bits.equals(bits);
  }

  @Override
  public int hashCode() {
    return bits.hashCode();
  }

  @Override
  public String toString() {
    return size + " on " + ids();
  }
}
