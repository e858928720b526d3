package org.eafr.namenode.bench;

import java.net.InetAddress;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.cluster.ReadAttribution;
import org.eafr.namenode.read.ReadCountingAuditLogger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The read counter's cost per audited {@code open} on the IPC thread (target under 1 microsecond), at the default
 * eafr.reads.max-tracked-files: without the reader ordering (count v_i at once), and with it (park the file, then the
 * ordering of its first block claims it and counts v_ij). {@code firstReads = false} cycles over 100,000 files, so
 * after the first pass every open is a repeat read; {@code true} opens 2^20 distinct paths, each thread its own
 * slice, and ends the interval whenever a thread finishes its slice, so every open is the file's first of the
 * interval. One thread and eight (per-thread time; eight threads time-share this machine's 2 cores).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AuditLoggerBench {
  private static final int REPEATED_FILES = 100_000;
  private static final int DISTINCT_FILES = 1 << 20;

  @Param({"false", "true"})
  public boolean orderingInstalled;

  @Param({"false", "true"})
  public boolean firstReads;

  private Configuration conf;
  private ReadCountingAuditLogger logger;
  private ReadAttribution attribution;
  private InetAddress client;
  private String[] paths;
  private String[] servers;

  /** Each thread's slice of the paths, and where it is in it. */
  @State(Scope.Thread)
  public static class Cursor {
    int start;
    int length;
    int next;

    @Setup(Level.Trial)
    public void slice(ThreadParams thread, AuditLoggerBench bench) {
      length = bench.paths.length / thread.getThreadCount();
      start = thread.getThreadIndex() * length;
      next = start;
    }
  }

  @Setup
  public void setUp() throws Exception {
    conf = new Configuration(false);
    conf.set(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, Files.createTempDirectory("audit-bench").toString());
    logger = new ReadCountingAuditLogger();
    logger.initialize(conf);
    attribution = EafrRuntime.of(conf).attribution();
    if (orderingInstalled) {
      attribution.orderingInstalled();
    }
    client = InetAddress.getLoopbackAddress();
    paths = new String[firstReads ? DISTINCT_FILES : REPEATED_FILES];
    for (int i = 0; i < paths.length; i++) {
      paths[i] = "/user/etl/2024/" + (i & 1023) + "/part-" + (i >>> 10) + ".gz";
    }
    servers = new String[] {"10.0.0.1:9866", "10.0.0.2:9866", "10.0.0.3:9866"};
  }

  @TearDown
  public void tearDown() {
    EafrRuntime.release(conf);
  }

  @Benchmark
  public void openEvent(Cursor cursor) {
    open(cursor);
  }

  @Benchmark
  @Threads(8)
  public void openEventFromEightThreads(Cursor cursor) {
    open(cursor);
  }

  private void open(Cursor cursor) {
    int i = cursor.next++;
    if (i == cursor.start + cursor.length - 1) {
      cursor.next = cursor.start;
      if (firstReads) {
        EafrRuntime.of(conf).reads().snapshotAndReset();
      }
    }
    logger.logAuditEvent(true, "alice", client, "open", paths[i], null, null);
    if (orderingInstalled) {
      attribution.listedFirst(servers[i % 3]);
    }
  }
}
