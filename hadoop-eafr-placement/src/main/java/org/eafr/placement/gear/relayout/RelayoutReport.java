package org.eafr.placement.gear.relayout;

/**
 * What a relayout plan moves against the least any relayout must move ({@link RelayoutPlanner}): the bytes planned,
 * the block, share and combined bounds, and their ratio. Immutable.
 */
public final class RelayoutReport {
  private final long blocks;
  private final long movedReplicas;
  private final long laidOutBytes;
  private final long plannedBytes;
  private final long blockBoundBytes;
  private final long shareBoundBytes;
  private final long combinedBoundBytes;

  public RelayoutReport(long blocks, long movedReplicas, long laidOutBytes, long plannedBytes, long blockBoundBytes,
      long shareBoundBytes) {
    this(blocks, movedReplicas, laidOutBytes, plannedBytes, blockBoundBytes, shareBoundBytes, 0);
  }

  /** The same with the combined bound ({@link RelayoutPlanner}'s third bound). */
  public RelayoutReport(long blocks, long movedReplicas, long laidOutBytes, long plannedBytes, long blockBoundBytes,
      long shareBoundBytes, long combinedBoundBytes) {
    this.blocks = blocks;
    this.movedReplicas = movedReplicas;
    this.laidOutBytes = laidOutBytes;
    this.plannedBytes = plannedBytes;
    this.blockBoundBytes = blockBoundBytes;
    this.shareBoundBytes = shareBoundBytes;
    this.combinedBoundBytes = combinedBoundBytes;
  }

  /** Blocks planned. */
  public long blocks() {
    return blocks;
  }

  /** Replica moves planned. */
  public long movedReplicas() {
    return movedReplicas;
  }

  /** Bytes of the blocks planned, one copy each. */
  public long laidOutBytes() {
    return laidOutBytes;
  }

  public long plannedBytes() {
    return plannedBytes;
  }

  public long blockBoundBytes() {
    return blockBoundBytes;
  }

  public long shareBoundBytes() {
    return shareBoundBytes;
  }

  /** The block bound plus what one server must send away beyond what its blocks' fewest moves can take off it. */
  public long combinedBoundBytes() {
    return combinedBoundBytes;
  }

  /** The largest of the bounds: no relayout onto the layout's homes within its shares moves less. */
  public long lowerBoundBytes() {
    return Math.max(Math.max(blockBoundBytes, shareBoundBytes), combinedBoundBytes);
  }

  /** Planned bytes over the lower bound; 1 when both are 0. */
  public double ratio() {
    long bound = lowerBoundBytes();
    return bound == 0 ? (plannedBytes == 0 ? 1.0 : Double.POSITIVE_INFINITY) : (double) plannedBytes / bound;
  }

  @Override
  public String toString() {
    return blocks + " blocks, " + movedReplicas + " replica moves, " + plannedBytes + " bytes planned against a lower"
        + " bound of " + lowerBoundBytes() + " (" + String.format(java.util.Locale.ROOT, "%.3f", ratio()) + "x)";
  }
}
