package org.eafr.placement.replication;

/**
 * What the planner decided for one file, counted per round so a run can explain itself: why a hot file gained no
 * replica, why a cold file kept one.
 */
public enum PlanOutcome {
  /** A hot file gained a replica on a hot server (Eq. 6 held). */
  ADDED,
  /** A cold file above r lost the replica on its least-spared server (Eq. 7). */
  DELETED,
  /** A cold file at r moved a replica from a hot server to a standby server. */
  MIGRATED,
  /** Hot, but no more than gamma_s of its awake replica servers are overloaded: they can cope. */
  HOT_NOT_OVERLOADED,
  /** Hot and overloaded, but no hot server without a replica has room. */
  NO_HOT_DESTINATION,
  /** Hot, but every live replica is on a sleeping server: nothing awake to copy from (or to be overloaded). */
  NO_AWAKE_SOURCE,
  /** Cold with more than eps hot replicas, but no standby server without a replica has room. */
  NO_STANDBY_DESTINATION,
  /** Cold, at r replicas with at most eps on hot servers: nothing left to save. */
  AT_MINIMUM,
  /** Cold above r, but every replica that could go is needed (eps on hot servers) or asleep. */
  NO_REMOVABLE_REPLICA,
  /** Fewer live replicas than r: recovery's job, the planner only keeps its hands off. */
  UNDER_REPLICATED,
  /** Neither hot nor cold. */
  NORMAL
}
