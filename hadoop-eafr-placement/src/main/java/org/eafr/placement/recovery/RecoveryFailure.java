package org.eafr.placement.recovery;

/** Why a file of a failed server could not be re-replicated. */
public enum RecoveryFailure {
  /** No server other than the failed one holds a live replica: the file is lost; no source is invented. */
  NO_LIVE_REPLICA,
  /** Every server of the destination pool already holds the file or lacks room above the storage reserve. */
  NO_DESTINATION_WITH_ROOM
}
