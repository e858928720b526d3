package org.eafr.sim.policy;

import java.util.List;
import java.util.Optional;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.recovery.LostReplica;
import org.eafr.placement.recovery.RecoveryPlan;
import org.eafr.sim.model.SimFile;

/**
 * The simulator's hooks into a replication policy. A policy only adapts: every decision comes from a class of the
 * policy core ({@code org.eafr.placement}); the policy translates the simulator's state into the core's immutable
 * inputs and hands back the core's answer. One instance serves one run and is used from one thread.
 */
public interface Policy {
  /** The registry name, e.g. "eafr". */
  String name();

  /** Whether servers have power roles (hot, standby, cold); when false every server stays hot and awake. */
  boolean powerManaged();

  /** Whether receivers run EAFR's receive-side rate control (Alg. 2) on incoming transfers. */
  boolean receiveRateControl();

  /** The servers for a new file's replicas, in replica order; fewer (or none) when too few have room. */
  List<Server> placeNewFile(SimFile file, ClusterView cluster);

  /**
   * Whether {@link #placeNewFile} reads only the servers' free storage from its view, less what it placed itself since
   * that view was taken: then an older view, after placements that all landed, gives the same answers as a new one.
   */
  default boolean countsPlacementsSinceView() {
    return false;
  }

  /** Replicas {@link #placeNewFile} means to give a file; 0 when any count it returns is meant (none is short). */
  default int replicasPerNewFile() {
    return 0;
  }

  /** The replica server that serves a read from a client on {@code readerRack}; empty when no holder serves. */
  Optional<Server> chooseReplica(String readerRack, List<Server> holders);

  /** A read of {@code file} was sent to {@code serverId} at {@code nowMillis}. */
  void readStarted(SimFile file, String serverId, long nowMillis);

  /** A read of {@code file} finished at {@code nowMillis}. */
  default void readFinished(SimFile file, long nowMillis) {
  }

  /** Whether {@link #readFinished} is wanted (it costs an event per read). */
  default boolean wantsReadFinished() {
    return false;
  }

  /** The end of an interval T: what to add, delete or migrate, and which standby servers turn cold. */
  IntervalDecision endOfInterval(List<SimFile> files, ClusterView cluster, long nowMillis);

  /** How to re-create the replicas {@code failedId} held. */
  RecoveryPlan recover(String failedId, List<LostReplica> lost, ClusterView cluster);

  /** The class of file {@code file} at the last interval end, for recovery's destination pool (NORMAL by default). */
  default FileTemperature temperature(int file) {
    return FileTemperature.NORMAL;
  }

  /**
   * Whether this is the "ideal" oracle of SpringFS Sec. 5.2: its run reports the ideal's machine-hours and energy and
   * no read latency (it places and serves like HDFS so that the run has the same load).
   */
  default boolean oracle() {
    return false;
  }

  /** Whether this oracle reports the ideal that keeps the gear controller's minimum dwell ({@code ideal-dwell}). */
  default boolean oracleKeepsDwell() {
    return false;
  }

  /** A replication transfer into {@code destinationId} finished (feeds transfer-speed estimates). */
  default void transferFinished(String destinationId, long bytes, long elapsedMillis) {
  }
}
