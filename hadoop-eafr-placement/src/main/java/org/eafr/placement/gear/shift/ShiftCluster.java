package org.eafr.placement.gear.shift;

import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.AvailabilityCheck;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.UnavailableBlock;

/**
 * The gear shift's read-only view of the file system (the NameNode answers from its DataNode manager and block map,
 * the simulator and the deterministic simulation tests from their in-memory cluster). Blocks are
 * {@link ReplicatedFile}s whose servers are DataNode ids of the expansion chain. Its {@link ReplicaWalks} (the
 * availability floor's input) walk {@link #blocksOn} and {@link #pipelines} unless the host walks its own structures.
 */
public interface ShiftCluster extends ReplicaWalks {
  /** The DataNode {@code id} as HDFS shows it; {@link DataNodeView#UNREGISTERED} when it is not registered. */
  DataNodeView dataNode(String id);

  /**
   * The blocks HDFS still waits on before DataNode {@code id}, entering maintenance, shows IN_MAINTENANCE (the
   * NameNode: its admin monitor's count of the DataNode's blocks without enough live replicas elsewhere); a gear-down's
   * wait counts a fall as progress ({@link MaintenanceWait}). 0 by default: then only reaching IN_MAINTENANCE is.
   */
  default long maintenanceBlocksLeft(String id) {
    return 0;
  }

  /**
   * The complete blocks with a replica on DataNode {@code id}, each with the DataNodes holding it: the availability
   * checks' input, walked for the DataNodes that change state only (never the whole namespace).
   */
  Iterable<ReplicatedFile> blocksOn(String id);

  /** The blocks being written, each with the DataNodes of its pipeline. */
  Iterable<ReplicatedFile> pipelines();

  @Override
  default boolean running(String id) {
    return dataNode(id).alive();
  }

  @Override
  default Optional<UnavailableBlock> firstUnheldOn(String id, Predicate<String> kept) {
    return AvailabilityCheck.firstUnavailable(blocksOn(id), kept);
  }

  @Override
  default Optional<UnavailableBlock> firstBeingWrittenUnheld(Predicate<String> kept) {
    return AvailabilityCheck.firstUnavailable(pipelines(), kept);
  }

  /** One complete block with its holders; empty when it no longer exists. */
  Optional<ReplicatedFile> block(String blockId);

  /**
   * Whether the block map is complete. After a restart or failover it fills as DataNodes report: until then a block
   * nobody has reported yet is not lost, so a shift neither wakes groups for it nor reflects from holders that may be
   * stale (either would start a copy storm). Always true for a host whose block map never restarts.
   */
  default boolean settled() {
    return true;
  }

  /**
   * When this NameNode last became active (started, or a standby made active), in the milliseconds of
   * {@link GearShift#step}'s clock: a DataNode that should be on and has not registered since counts as dead once
   * {@link #deadIntervalMillis} has passed from then. 0 by default (the host's clock starts with it).
   */
  default long activeSinceMillis() {
    return 0;
  }

  /**
   * How long HDFS lets a registered DataNode go without a heartbeat before it declares it dead (HDFS computes
   * 2 x {@code dfs.namenode.heartbeat.recheck-interval} + 10 x {@code dfs.heartbeat.interval}): a running DataNode
   * registers with a NameNode made active within it. By default never: a DataNode not registered never counts as
   * dead.
   */
  default long deadIntervalMillis() {
    return Long.MAX_VALUE;
  }

  /**
   * The DataNodes of {@code chain} not {@link DataNodeView#alive() alive} now (asleep, dead or unregistered), as
   * {@link #dataNode} shows each: what the wake steps look for failures among. This default asks every DataNode; a
   * host that indexes its DataNodes by state answers from the index, so a step costs what is down, not the cluster.
   */
  default ActiveSet notAlive(ExpansionChain chain) {
    BitSet down = new BitSet(chain.size());
    for (int p = 0; p < chain.size(); p++) {
      if (!dataNode(chain.id(p)).alive()) {
        down.set(p);
      }
    }
    return ActiveSet.of(chain, down);
  }

  /**
   * The DataNodes of {@code chain} {@link DataNodeView#stale() stale} now (alive, no heartbeat for the stale interval),
   * as {@link #dataNode} shows each. This default asks every DataNode; a host that indexes them answers from the index.
   */
  default ActiveSet stale(ExpansionChain chain) {
    BitSet stale = new BitSet(chain.size());
    for (int p = 0; p < chain.size(); p++) {
      if (dataNode(chain.id(p)).stale()) {
        stale.set(p);
      }
    }
    return ActiveSet.of(chain, stale);
  }

  /**
   * Blocks with no live replica that the file system knows of (the NameNode: those in HDFS's queue of low-redundancy
   * blocks, read in a bounded batch, as often as the host chooses), each with the DataNodes holding it: the wake steps
   * wake the group holding each. None by default: a host that sees them only through reads reports those
   * ({@link GearShift#readFoundNoReplica}).
   */
  default Iterable<ReplicatedFile> blocksWithoutLiveReplica() {
    return List.of();
  }
}
