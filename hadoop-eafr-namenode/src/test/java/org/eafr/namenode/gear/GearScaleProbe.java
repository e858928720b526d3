package org.eafr.namenode.gear;

import java.util.Optional;
import java.util.function.Predicate;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.UnavailableBlock;

/** The gear service's block-map walks, reachable from the scale benchmark (org.eafr.namenode.bench). */
public final class GearScaleProbe {
  private GearScaleProbe() {
  }

  /**
   * The availability check a gear-down runs ({@link NamespaceFloor#check}): the first complete block {@code staysOn}
   * leaves without a live replica; {@code live} tells which DataNodes are alive and in service.
   */
  public static Optional<UnavailableBlock> gearDownCheck(NameNode nameNode, Predicate<String> live,
      ActiveSet staysOn) {
    return gearDownCheck(nameNode, live, staysOn, new long[1]);
  }

  /** The same, adding to {@code visited[0]} the blocks the check looked at. */
  public static Optional<UnavailableBlock> gearDownCheck(NameNode nameNode, Predicate<String> live,
      ActiveSet staysOn, long[] visited) {
    NamespaceFloor floor = new NamespaceFloor(nameNode, live);
    Optional<UnavailableBlock> gap = floor.check(staysOn).complete();
    visited[0] += floor.visited();
    return gap;
  }

  /** The most queued blocks wake detection visits in one scan. */
  public static int wakeScanLimit() {
    return HdfsShiftCluster.MAX_BLOCKS_SCANNED;
  }
}
