package org.eafr.namenode.read;

import java.net.InetAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.hdfs.server.namenode.AuditLogger;
import org.eafr.namenode.cluster.ReadAttribution;
import org.eafr.namenode.runtime.EafrRuntime;

/**
 * Counts reads per file for EAFR (Eq. 1) from the NameNode's audit events
 * ({@code dfs.namenode.audit.loggers=default,org.eafr.namenode.read.ReadCountingAuditLogger}): each successful
 * {@code open} is one read of its file. It runs synchronously on the IPC handler thread, so it does O(1) work and
 * allocates nothing; memory is bounded by {@code eafr.reads.max-tracked-files} ({@code ReadStatistics}).
 *
 * <p>{@code open} fires on every getBlockLocations, so split planning and location re-fetches count as reads too: an
 * over-count the thresholds absorb, and the only per-file read signal a stock NameNode has.
 */
public class ReadCountingAuditLogger implements AuditLogger {
  private ReadAttribution attribution;

  @Override
  public void initialize(Configuration conf) {
    this.attribution = EafrRuntime.of(conf).attribution();
  }

  @Override
  public void logAuditEvent(boolean succeeded, String userName, InetAddress addr, String cmd, String src, String dst,
      FileStatus stat) {
    if (succeeded && "open".equals(cmd) && src != null) {
      attribution.opened(src);
    }
  }
}
