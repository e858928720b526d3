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

  /**
   * Copies DataNode {@code nodeId} is to send that the NameNode has not handed out yet (its queue, first in first
   * out); 0 when unknown, which makes a copy start at its source's first heartbeat after scheduling.
   */
  int queuedCopies(String nodeId);
}
