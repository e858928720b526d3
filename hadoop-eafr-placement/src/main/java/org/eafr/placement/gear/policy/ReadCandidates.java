package org.eafr.placement.gear.policy;

import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.eafr.RoundsReader;

/**
 * The replicas a read may go to, as the NameNode's reader ordering sees them, in arrays indexed alike (no object per
 * replica on the getBlockLocations path): each candidate with its chain position (-1 for a DataNode outside the
 * chain), its rack (or whether it is the reader's), its read queue and its read slots; {@code on} is the servers on
 * now and {@code readerRack} the reader's rack (null when unknown). Candidate i is entry i of the arrays, or, for
 * candidates {@link #ordered} from a block's replicas, entry {@code order[i]}, so the caller copies no array into
 * candidate order.
 */
public final class ReadCandidates implements RoundsReader.Holders {
  final String readerRack;
  final int count;
  final ActiveSet on;
  /** Candidate i is entry order[i] of the arrays; null when it is entry i. */
  private final int[] order;
  private final int[] positions;
  /** Each candidate's rack, compared with the reader's; null when {@link #local} says. */
  private final String[] racks;
  /** Whether each candidate is on the reader's rack; null when {@link #racks} says. */
  private final boolean[] local;
  private final int[] queues;
  /** Each candidate's read slots; null when every candidate has {@link #uniformSlots}. */
  private final int[] slots;
  private final int uniformSlots;

  /** The first {@code count} entries of the arrays are the candidates, in order. */
  public ReadCandidates(String readerRack, int[] positions, String[] racks, int[] queues, int[] slots, int count,
      ActiveSet on) {
    this(readerRack, null, positions, racks, null, queues, slots, 0, count, on);
  }

  private ReadCandidates(String readerRack, int[] order, int[] positions, String[] racks, boolean[] local,
      int[] queues, int[] slots, int uniformSlots, int count, ActiveSet on) {
    this.readerRack = readerRack;
    this.order = order;
    this.positions = positions;
    this.racks = racks;
    this.local = local;
    this.queues = queues;
    this.slots = slots;
    this.uniformSlots = uniformSlots;
    this.count = count;
    this.on = on;
  }

  /**
   * Candidate i is replica {@code order[i]} of a block, for i below {@code count}; the arrays are indexed by replica
   * (only the candidates' entries are read): chain position, whether it is on the reader's rack ({@code local}) and
   * read queue; every candidate has {@code slots} read slots. {@code positions} may be null for an ordering that
   * reads none ({@link ReadOrdering#readsPositions}).
   */
  public static ReadCandidates ordered(int[] order, int count, int[] positions, boolean[] local, int[] queues,
      int slots, ActiveSet on) {
    return new ReadCandidates(null, order, positions, null, local, queues, null, slots, count, on);
  }

  @Override
  public int count() {
    return count;
  }

  /** Candidate i's chain position; -1 outside the chain. */
  public int position(int i) {
    return positions[entry(i)];
  }

  @Override
  public boolean onReaderRack(int i) {
    return local != null ? local[entry(i)] : racks[entry(i)].equals(readerRack);
  }

  @Override
  public int queue(int i) {
    return queues[entry(i)];
  }

  @Override
  public int slots(int i) {
    return slots == null ? uniformSlots : slots[entry(i)];
  }

  private int entry(int i) {
    return order == null ? i : order[i];
  }
}
