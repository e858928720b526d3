package org.eafr.namenode.power;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.slf4j.LoggerFactory;

/**
 * Which DataNodes this NameNode has seen alive, with a block report, in maintenance (ENTERING_ or IN_MAINTENANCE) and
 * not out of maintenance since: the evidence that a dead DataNode in maintenance died <em>in</em> maintenance, so
 * HDFS kept its block list, rather than dying first and being put IN_MAINTENANCE with no check (HDFS does that to a
 * dead node at once, having dropped its blocks). It looks every {@value #PERIOD_MILLIS} ms (HDFS takes minutes to
 * declare a DataNode dead, so a DataNode alive in maintenance is seen long before) and before each power-off check.
 * It runs on standby NameNodes too, which receive the same heartbeats, so a NameNode made active knows the history.
 */
final class MaintenanceWitness implements AutoCloseable {
  static final long PERIOD_MILLIS = 1000;

  private final DatanodeManager dataNodes;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService timer;

  MaintenanceWitness(DatanodeManager dataNodes) {
    this.dataNodes = dataNodes;
    this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "eafr-maintenance-witness");
      thread.setDaemon(true);
      return thread;
    });
    timer.scheduleWithFixedDelay(this::lookSafely, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** Whether {@code dn} was seen alive and reported in maintenance, with no state out of maintenance since. */
  boolean seenAliveInMaintenance(DatanodeDescriptor dn) {
    String uuid = dn.getDatanodeUuid();
    return uuid != null && seen.contains(uuid);
  }

  /**
   * Records what every DataNode shows now. A DataNode the hosts file names that has not registered with this
   * NameNode (e.g. asleep since before a restart) has no uuid yet: nothing was seen of it.
   */
  synchronized void look() {
    for (DatanodeDescriptor dn : dataNodes.getDatanodeListForReport(DatanodeReportType.ALL)) {
      if (dn.getDatanodeUuid() == null) {
        continue;
      }
      if (!dn.isMaintenance()) {
        seen.remove(dn.getDatanodeUuid());
      } else if (dn.isAlive() && dn.checkBlockReportReceived()) {
        seen.add(dn.getDatanodeUuid());
      }
    }
  }

  private void lookSafely() {
    try {
      look();
    } catch (RuntimeException e) { // the next look starts again from HDFS's state
      LoggerFactory.getLogger(MaintenanceWitness.class).warn("EAFR power: maintenance witness: {}",
          e.toString());
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
