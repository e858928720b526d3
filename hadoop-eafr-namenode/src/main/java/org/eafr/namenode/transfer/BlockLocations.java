package org.eafr.namenode.transfer;

import java.util.List;

/**
 * What the {@link TransferTracker} reads from the NameNode on each poll: the blocks of a file with their current
 * holders, and when a DataNode last sent a heartbeat (the moment the NameNode hands it its queued copy commands).
 */
public interface BlockLocations {
  /** Every block of {@code path} with its holders now; empty if the path is not a closed file (any more). */
  List<StoredBlock> blocksOf(String path);

  /**
   * The NameNode's monotonic clock, in milliseconds, at the last heartbeat of DataNode {@code nodeId}; or
   * {@link Long#MIN_VALUE} when the DataNode is unknown.
   */
  long lastHeartbeatMillis(String nodeId);
}
