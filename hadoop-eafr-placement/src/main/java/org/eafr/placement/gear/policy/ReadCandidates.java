package org.eafr.placement.gear.policy;

import org.eafr.placement.gear.ActiveSet;

/**
 * The replicas a read may go to, as the NameNode's reader ordering sees them, in arrays indexed alike (no object per
 * replica on the getBlockLocations path): the first {@code count} entries are the candidates, each with its chain
 * position (-1 for a DataNode outside the chain), its rack, its read queue and its read slots; {@code on} is the
 * servers on now and {@code readerRack} the reader's rack (null when unknown).
 */
public final class ReadCandidates {
  final String readerRack;
  final int[] positions;
  final String[] racks;
  final int[] queues;
  final int[] slots;
  final int count;
  final ActiveSet on;

  public ReadCandidates(String readerRack, int[] positions, String[] racks, int[] queues, int[] slots, int count,
      ActiveSet on) {
    this.readerRack = readerRack;
    this.positions = positions;
    this.racks = racks;
    this.queues = queues;
    this.slots = slots;
    this.count = count;
    this.on = on;
  }
}
