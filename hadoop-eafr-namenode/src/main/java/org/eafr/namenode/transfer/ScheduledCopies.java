package org.eafr.namenode.transfer;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.net.Node;
import org.apache.hadoop.util.Time;
import org.eafr.namenode.cluster.ServerTranslator;

/**
 * The placement policy's one call into transfer timing: translates a re-replication decision (source, live holders,
 * chosen targets, all HDFS types) into {@link TransferTracker#scheduled} calls, one per target.
 */
public final class ScheduledCopies {
  private ScheduledCopies() {
  }

  /** Reports the copies of a block of {@code path} ({@code bytes} long) from {@code source} to {@code targets}. */
  public static void record(TransferTracker tracker, String path, long bytes, Node source,
      List<DatanodeStorageInfo> holders, DatanodeStorageInfo[] targets) {
    if (!(source instanceof DatanodeDescriptor) || targets.length == 0 || path == null || !path.startsWith("/")) {
      return; // nothing to time: no DataNode source, no target, or no file to find the block in
    }
    String sourceId = ServerTranslator.idOf((DatanodeDescriptor) source);
    List<String> holderIds = new ArrayList<>(holders.size());
    for (DatanodeStorageInfo holder : holders) {
      holderIds.add(ServerTranslator.idOf(holder.getDatanodeDescriptor()));
    }
    long now = Time.monotonicNow();
    for (DatanodeStorageInfo target : targets) {
      tracker.scheduled(path, bytes, holderIds, sourceId, ServerTranslator.idOf(target.getDatanodeDescriptor()), now);
    }
  }
}
