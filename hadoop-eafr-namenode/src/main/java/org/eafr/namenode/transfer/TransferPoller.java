package org.eafr.namenode.transfer;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls the {@link TransferTracker} every {@code eafr.transfer.poll.ms} on its own daemon thread, on the active
 * NameNode only (only it schedules copies), so that slow replication rounds never delay a completion and so skew a
 * measured speed.
 */
public final class TransferPoller implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TransferPoller.class);

  private final NameNode nameNode;
  private final TransferTracker tracker;
  private final BlockLocations replicas;
  private final ScheduledExecutorService scheduler;

  private TransferPoller(NameNode nameNode, TransferTracker tracker) {
    this.nameNode = nameNode;
    this.tracker = tracker;
    this.replicas = new NameNodeBlockLocations(nameNode.getNamesystem());
    this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "eafr-transfer-poller");
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Starts polling {@code tracker} against {@code nameNode} every {@code intervalMillis}. */
  public static TransferPoller start(NameNode nameNode, TransferTracker tracker, long intervalMillis) {
    TransferPoller poller = new TransferPoller(nameNode, tracker);
    poller.scheduler.scheduleWithFixedDelay(poller::pollIfActive, intervalMillis, intervalMillis,
        TimeUnit.MILLISECONDS);
    return poller;
  }

  private void pollIfActive() {
    try {
      if (nameNode.isActiveState()) {
        tracker.poll(replicas, Time.monotonicNow());
      }
    } catch (Exception | Error e) { // keep polling (an escaping throwable would cancel the schedule for good)
      LOG.error("EAFR transfer poll failed", e);
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
