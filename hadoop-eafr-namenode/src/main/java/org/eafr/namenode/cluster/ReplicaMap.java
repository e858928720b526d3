package org.eafr.namenode.cluster;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.client.BlockReportOptions;
import org.apache.hadoop.hdfs.protocol.ClientDatanodeProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the NameNode's replica map can be planned on, and bringing it there after a failover. The map is settled
 * when no DataNode storage is stale and no misreplicated block is postponed: HDFS's own rule before it deletes an
 * excess replica. A NameNode that becomes active marks every storage stale, and only that DataNode's next full block
 * report clears it: a DataNode that does not re-register sends one every {@code dfs.blockreport.intervalMsec}, 6 hours
 * by default. Until then the replication monitor, reflection and waking on demand would wait (and HDFS would keep every
 * excess copy). So while the map is not settled, the active NameNode asks each live DataNode with a stale storage for
 * a full block report ({@code ClientDatanodeProtocol#triggerBlockReport}, what {@code hdfs dfsadmin
 * -triggerBlockReport} does, as the NameNode's own user, the HDFS superuser), at most once a minute per DataNode, on a
 * thread of its own so a slow DataNode delays no step. It asks only once the DataNode has sent a heartbeat since its
 * storage was seen stale: HDFS clears the staleness only with a report that follows the storage's first heartbeat
 * since the failover (asked at once, the reports came too early and the map stayed stale until the next ask).
 */
public final class ReplicaMap implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaMap.class);
  /** How long after asking a DataNode for a block report it is asked again while its storages stay stale. */
  static final long ASK_AGAIN_MILLIS = 60_000;
  private static final int RPC_TIMEOUT_MILLIS = 20_000;

  private final NameNode nameNode;
  private final ExecutorService askers = Executors.newSingleThreadExecutor(runnable -> {
    Thread thread = new Thread(runnable, "eafr-block-report-requests");
    thread.setDaemon(true);
    return thread;
  });
  /** DataNode UUID to when a stale storage of it was first seen (monotonic ms). */
  private final Map<String, Long> staleSeenAt = new ConcurrentHashMap<>();
  /** DataNode UUID to when it was last asked for a block report (monotonic ms). */
  private final Map<String, Long> askedAt = new ConcurrentHashMap<>();

  public ReplicaMap(NameNode nameNode) {
    this.nameNode = nameNode;
  }

  /**
   * Whether the replica map is settled; when it is not, on the active NameNode, asks for the missing reports. Only the
   * storages of live DataNodes count (a dead or sleeping one reports nothing until it is back): HDFS's own count of
   * stale storages ({@code DatanodeManager#getNumStaleStorages}), refreshed by its heartbeat check, was seen to stay
   * at 1 for minutes after a DataNode was killed and restarted (the thrash test's round 52), holding a reflection.
   */
  public boolean settled() {
    BlockManager blocks = nameNode.getNamesystem().getBlockManager();
    if (blocks.getPostponedMisreplicatedBlocksCount() == 0 && !anyLiveStaleStorage(blocks)) {
      staleSeenAt.clear();
      askedAt.clear();
      return true;
    }
    if (nameNode.isActiveState()) {
      askStaleDataNodes(blocks);
    }
    return false;
  }

  private void askStaleDataNodes(BlockManager blocks) {
    long now = Time.monotonicNow();
    for (DatanodeDescriptor dn : blocks.getDatanodeManager().getDatanodeListForReport(DatanodeReportType.LIVE)) {
      if (!hasStaleStorage(dn)) {
        continue;
      }
      long seen = staleSeenAt.computeIfAbsent(dn.getDatanodeUuid(), uuid -> now);
      Long asked = askedAt.get(dn.getDatanodeUuid());
      if (dn.getLastUpdateMonotonic() > seen && (asked == null || now - asked >= ASK_AGAIN_MILLIS)) {
        askedAt.put(dn.getDatanodeUuid(), now);
        try {
          askers.execute(() -> askForBlockReport(dn));
        } catch (RejectedExecutionException closed) {
          return; // the NameNode part is stopping
        }
      }
    }
  }

  private static boolean anyLiveStaleStorage(BlockManager blocks) {
    for (DatanodeDescriptor dn : blocks.getDatanodeManager().getDatanodeListForReport(DatanodeReportType.LIVE)) {
      if (hasStaleStorage(dn)) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasStaleStorage(DatanodeDescriptor dn) {
    for (DatanodeStorageInfo storage : dn.getStorageInfos()) {
      if (storage.areBlockContentsStale()) {
        return true;
      }
    }
    return false;
  }

  private void askForBlockReport(DatanodeDescriptor dn) {
    try {
      try {
        triggerFullBlockReport(dn);
      } catch (IOException first) {
        // The IPC client reuses its cached connection to the DataNode's address: a DataNode restarted on the same
        // port within ipc.client.connection.maxidletime (powered off and on) has closed it, and the call fails. The
        // failed connection leaves the cache, so a second call goes over a new one instead of waiting a minute.
        LOG.debug("EAFR: asking DataNode {} for a full block report failed, asking again: {}", dn.getXferAddr(),
            first.getMessage());
        triggerFullBlockReport(dn);
      }
      LOG.info("EAFR: DataNode {} has stale storages on this NameNode (it became active since their last block"
          + " report): asked it for a full block report", dn.getXferAddr());
    } catch (IOException e) {
      LOG.warn("EAFR: asking DataNode {} for a full block report failed (asked again in {} s): {}", dn.getXferAddr(),
          ASK_AGAIN_MILLIS / 1000, e.getMessage());
    }
  }

  private void triggerFullBlockReport(DatanodeDescriptor dn) throws IOException {
    ClientDatanodeProtocol proxy = null;
    try {
      proxy = DFSUtilClient.createClientDatanodeProtocolProxy(dn, nameNode.getConf(), RPC_TIMEOUT_MILLIS, false);
      proxy.triggerBlockReport(new BlockReportOptions.Factory().setIncremental(false).build());
    } finally {
      if (proxy != null) {
        RPC.stopProxy(proxy);
      }
    }
  }

  @Override
  public void close() {
    askers.shutdownNow();
  }
}
