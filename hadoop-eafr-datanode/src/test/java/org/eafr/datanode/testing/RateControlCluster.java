package org.eafr.datanode.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;
import org.eafr.datanode.rate.ReceiveRatePlugin;
import org.eafr.datanode.rate.SenderThrottler;
import org.eafr.datanode.rate.WriteThrottlerSlot;

/** Configurations and helpers for MiniDFSClusters whose DataNodes run the EAFR receive rate control plugin. */
public final class RateControlCluster {
  private RateControlCluster() {
  }

  /** A fast test configuration with the plugin listed, rate control on at {@code linkBytesPerSecond}, pacing. */
  public static Configuration conf(String name, long linkBytesPerSecond) throws IOException {
    Path tmp = Paths.get(System.getProperty("java.io.tmpdir"));
    Files.createDirectories(tmp);
    Configuration conf = new HdfsConfiguration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, Files.createTempDirectory(tmp, name).resolve("dfs").toString());
    conf.setInt(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
    conf.set(DFSConfigKeys.DFS_DATANODE_PLUGINS_KEY, ReceiveRatePlugin.class.getName());
    conf.setLong("eafr.datanode.link.bytes-per-second", linkBytesPerSecond);
    conf.setLong("eafr.datanode.rate.period.ms", 50);
    conf.set("eafr.datanode.rate.mode", "pacing"); // the tests of window mode set it themselves
    return conf;
  }

  /** The write throttler the DataNode uses now (may be null). */
  public static DataTransferThrottler writeThrottler(DataNode dataNode) {
    return WriteThrottlerSlot.of(dataNode).get();
  }

  /** The EAFR throttler in place; fails when HDFS's slot holds another one. */
  public static SenderThrottler senderThrottler(DataNode dataNode) {
    DataTransferThrottler throttler = writeThrottler(dataNode);
    if (!(throttler instanceof SenderThrottler)) {
      throw new AssertionError("the write throttler of " + dataNode.getDisplayName() + " is " + throttler);
    }
    return (SenderThrottler) throttler;
  }

  /** Polls {@code condition} every 20 ms until it holds, or fails naming {@code what} after {@code timeout}. */
  public static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what);
      }
      Thread.sleep(20);
    }
  }

  /** Writes 64 KiB chunks to {@code path} until {@code stop}, flushing each so that packets go out at once. */
  public static Thread writer(DistributedFileSystem fs, String path, AtomicBoolean stop) {
    Thread thread = new Thread(() -> {
      byte[] chunk = new byte[64 * 1024];
      try (FSDataOutputStream out = fs.create(new org.apache.hadoop.fs.Path(path), (short) 1)) {
        while (!stop.get()) {
          out.write(chunk);
          out.hflush();
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }, "writer " + path);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }
}
