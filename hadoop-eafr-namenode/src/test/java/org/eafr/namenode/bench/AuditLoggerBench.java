package org.eafr.namenode.bench;

import java.net.InetAddress;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.eafr.namenode.cluster.EafrRuntime;
import org.eafr.namenode.read.ReadAttribution;
import org.eafr.namenode.read.ReadCountingAuditLogger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The read counter's cost per audited {@code open} on the IPC thread (target under 1 microsecond), over 100,000
 * distinct files: without the reader ordering (count v_i at once), and with it (park the file, then the ordering of
 * its first block claims it and counts v_ij).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AuditLoggerBench {
  private static final int FILES = 100_000;

  @Param({"false", "true"})
  public boolean orderingInstalled;

  private Configuration conf;
  private ReadCountingAuditLogger logger;
  private ReadAttribution attribution;
  private InetAddress client;
  private String[] paths;
  private String[] servers;
  private int next;

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
    paths = new String[FILES];
    for (int i = 0; i < FILES; i++) {
      paths[i] = "/data/part-" + i;
    }
    servers = new String[] {"10.0.0.1:9866", "10.0.0.2:9866", "10.0.0.3:9866"};
  }

  @TearDown
  public void tearDown() {
    EafrRuntime.release(conf);
  }

  @Benchmark
  public void openEvent() {
    int i = next;
    next = (i + 1) % FILES;
    logger.logAuditEvent(true, "alice", client, "open", paths[i], null, null);
    if (orderingInstalled) {
      attribution.listedFirst(servers[i % 3]);
    }
  }
}
