package org.eafr.placement.gear.relayout;

/**
 * What a relayout plan moves against the least any relayout must move ({@link RelayoutPlanner}): the bytes planned,
 * the block bound, the share bound, and their ratio. Immutable.
 */
public final class RelayoutReport {
  private final long blocks;
  private final long movedReplicas;
  private final long laidOutBytes;
  private final long plannedBytes;
  private final long blockBoundBytes;
  private final long shareBoundBytes;

  public RelayoutReport(long blocks, long movedReplicas, long laidOutBytes, long plannedBytes, long blockBoundBytes,
      long shareBoundBytes) {
    this.blocks = blocks;
    this.movedReplicas = movedReplicas;
    this.laidOutBytes = laidOutBytes;
    this.plannedBytes = plannedBytes;
    this.blockBoundBytes = blockBoundBytes;
    this.shareBoundBytes = shareBoundBytes;
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

  /** The larger of the two bounds: no relayout onto the layout's homes within its shares moves less. */
  public long lowerBoundBytes() {
    return Math.max(blockBoundBytes, shareBoundBytes);
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
