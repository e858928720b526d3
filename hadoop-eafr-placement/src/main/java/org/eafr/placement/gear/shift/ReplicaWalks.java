package org.eafr.placement.gear.shift;

import java.util.Optional;
import java.util.function.Predicate;
import org.eafr.placement.gear.UnavailableBlock;

/**
 * The walks the availability floor ({@link ShiftFloor}) makes over a file system: the block list of one DataNode, and
 * the blocks being written. A {@link ShiftCluster} answers them from its blocks; the NameNode from its block map, a
 * batch per hold of the namesystem read lock, allocating nothing per block.
 */
public interface ReplicaWalks {
  /** Whether DataNode {@code id} runs (heartbeats): only a running DataNode's replicas can stop serving. */
  boolean running(String id);

  /**
   * The first complete block with a replica on DataNode {@code id} and none on a DataNode {@code kept} accepts; empty
   * when there is none. {@code kept} is asked about a DataNode at most once per floor check ({@link ShiftFloor}).
   */
  Optional<UnavailableBlock> firstUnheldOn(String id, Predicate<String> kept);

  /** The first block being written whose pipeline has no DataNode {@code kept} accepts; empty when none. */
  Optional<UnavailableBlock> firstBeingWrittenUnheld(Predicate<String> kept);
}
