package org.eafr.datanode.rate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.eafr.datanode.testing.RateControlCluster.await;
import static org.eafr.datanode.testing.RateControlCluster.senderThrottler;
import static org.eafr.datanode.testing.RateControlCluster.writer;
import static org.eafr.datanode.testing.RateControlCluster.writeThrottler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.util.DataTransferThrottler;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.eafr.datanode.testing.RateControlCluster;
import org.eafr.placement.rate.RateAdjustment;
import org.eafr.placement.rate.RateDirection;
import org.junit.jupiter.api.Test;

/** The plugin in MiniDFSCluster DataNodes: installed, kept across reconfiguration, Alg. 2 between real writers. */
class ReceiveRatePluginTest {
  private static final long MB = 1 << 20;
  private static final String WRITE_BANDWIDTH = DFSConfigKeys.DFS_DATANODE_DATA_WRITE_BANDWIDTHPERSEC_KEY;

  @Test
  void throttler_isInstalled_andSurvivesLiveReconfigurationOfTheWriteBandwidth() throws Exception {
    Configuration conf = RateControlCluster.conf("reconfigure", 10 * MB);
    conf.setInt(HdfsClientConfigKeys.DFS_CLIENT_SOCKET_TIMEOUT_KEY, 8000);
    try (MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build()) {
      DataNode dataNode = cluster.getDataNodes().get(0);
      SenderThrottler installed = senderThrottler(dataNode);
      assertThat(installed.getBandwidth()).isEqualTo(10 * MB);
      assertThat(installed.maxWaitMillis()).as("half the writers' socket timeout").isEqualTo(4000L);

      dataNode.reconfigureProperty(WRITE_BANDWIDTH, String.valueOf(MB));
      await("the throttler back with the reconfigured cap", Duration.ofSeconds(10),
          () -> writeThrottler(dataNode) == installed && installed.getBandwidth() == MB
              && installed.stats().reinstalls() >= 1); // counted just after the slot is set
      assertThat(installed.stats().reinstalls()).isEqualTo(1);
      assertThat(installed.stats().capacityBytesPerSecond()).isEqualTo(MB);

      dataNode.reconfigureProperty(WRITE_BANDWIDTH, "0");
      await("the throttler back with the link capacity", Duration.ofSeconds(10),
          () -> writeThrottler(dataNode) == installed && installed.getBandwidth() == 10 * MB
              && installed.stats().reinstalls() >= 2);
      assertThat(installed.stats().reinstalls()).isEqualTo(2);

      DistributedFileSystem fs = cluster.getFileSystem();
      DFSTestUtil.createFile(fs, new Path("/after-reconfiguration"), 3 * MB, (short) 1, 7L);
      assertThat(DFSTestUtil.readFileAsBytes(fs, new Path("/after-reconfiguration"))).hasSize((int) (3 * MB));
      assertThat(installed.stats().bytes()).isGreaterThanOrEqualTo(3 * MB);
    }
  }

  @Test
  void twoSenders_theOlderConnectionGetsTheLargerRate() throws Exception {
    long link = MB;
    Configuration conf = RateControlCluster.conf("two-senders", link);
    conf.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, 128 * MB); // one connection per writer for the whole test
    conf.setInt("dfs.client.write.max-packets-in-flight", 4); // closing drains little at 1 MB/s
    try (MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build()) {
      DataNode dataNode = cluster.getDataNodes().get(0);
      SenderThrottler throttler = senderThrottler(dataNode);
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> writers = new ArrayList<>();
      try {
        writers.add(writer(cluster.getFileSystem(), "/older", stop));
        await("the first sender", Duration.ofSeconds(20), () -> throttler.ratesOldestFirst().size() == 1);
        String older = throttler.ratesOldestFirst().keySet().iterator().next();
        writers.add(writer(cluster.getFileSystem(), "/newer", stop));
        await("the second sender", Duration.ofSeconds(20), () -> throttler.ratesOldestFirst().size() == 2);
        long downBefore = throttler.stats().adjustmentsDown();
        await("ten rounds with both senders", Duration.ofSeconds(20),
            () -> throttler.stats().adjustmentsDown() + throttler.stats().adjustmentsUp() >= downBefore + 20);

        // A writer stalled for a few periods (a loaded machine) lends its share to the other for a while: wait for a
        // round in which both were busy.
        AtomicReference<Map<String, Double>> seen = new AtomicReference<>();
        await("the older connection at more than twice the newer one's rate", Duration.ofSeconds(30), () -> {
          seen.set(throttler.ratesOldestFirst());
          List<Double> r = new ArrayList<>(seen.get().values());
          return r.size() == 2 && r.get(0) > 2 * r.get(1);
        });
        Map<String, Double> rates = seen.get();
        assertThat(rates.keySet()).hasSize(2).first().isEqualTo(older);
        List<Double> oldestFirst = new ArrayList<>(rates.values());
        assertThat(oldestFirst.get(0) + oldestFirst.get(1)).as("the rates split the whole link, %s", rates)
            .isCloseTo((double) link, within(1e-6 * link));
        List<RateAdjustment> last = throttler.lastAdjustments();
        assertThat(last).extracting(RateAdjustment::senderId).containsExactlyElementsOf(rates.keySet());
        if (last.get(0).direction() == RateDirection.DOWN) {
          assertThat(last.get(0).factor()).isLessThan(last.get(1).factor());
        }

        long bytesBefore = throttler.stats().bytes();
        long start = System.nanoTime();
        // About two seconds' worth at c_b: the throttler must have taken at least that long to let it in.
        await("two link-seconds of data received", Duration.ofSeconds(30),
            () -> throttler.stats().bytes() - bytesBefore >= 2 * link);
        double seconds = (System.nanoTime() - start) / 1e9;
        long received = throttler.stats().bytes() - bytesBefore;
        assertThat((double) received).as("bytes received in %.1f s at c_b = %d", seconds, link)
            .isLessThanOrEqualTo(1.1 * link * seconds + 4 * 65536);
        assertThat(throttler.stats().throttledMillis()).isPositive();
        Map<String, Number> metrics = metrics(ReceiveRateMetrics.nameFor(dataNode.getDisplayName()));
        assertThat(metrics.get("Senders")).isEqualTo(2);
        assertThat(metrics.get("AdjustmentsDownTotal").longValue()).isPositive();
        assertThat(metrics.get("InboundBytesPerSecond").doubleValue()).isBetween(0.0, 1.1 * link);
      } finally {
        stop.set(true);
        for (Thread writer : writers) {
          writer.join(30_000);
        }
      }
    }
  }

  /** The values the registered metrics source reports now, by name. */
  private static Map<String, Number> metrics(String sourceName) {
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    DefaultMetricsSystem.instance().getSource(sourceName).getMetrics(collector, true);
    Map<String, Number> values = new HashMap<>();
    List<? extends MetricsRecord> records = collector.getRecords();
    for (MetricsRecord record : records) {
      for (AbstractMetric metric : record.metrics()) {
        values.put(metric.name(), metric.value());
      }
    }
    return values;
  }

  @Test
  void offByDefault_installsNothing() throws Exception {
    Configuration conf = RateControlCluster.conf("off", 0);
    conf.unset("eafr.datanode.link.bytes-per-second");
    try (MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build()) {
      DataTransferThrottler throttler = writeThrottler(cluster.getDataNodes().get(0));
      assertThat(throttler).isNull();
      assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
          .doesNotContain("eafr-receive-rate-control");
    }
  }

  @Test
  void badSetting_stopsTheDataNode_namingKeyValueAndRange() throws Exception {
    assertRefused("eafr.datanode.link.bytes-per-second", "-5",
        "eafr.datanode.link.bytes-per-second = -5 is not allowed: expected a number in [0, 1099511627776]");
    assertRefused("eafr.datanode.link.bytes-per-second", "1",
        "eafr.datanode.link.bytes-per-second = 1 is not allowed: expected 0 (off) or a number in [1048576,"
            + " 1099511627776]");
    assertRefused("eafr.datanode.rate.mode", "clamp",
        "eafr.datanode.rate.mode = clamp is not allowed: expected window or pacing");
    assertRefused("eafr.datanode.rate.period.ms", "5",
        "eafr.datanode.rate.period.ms = 5 is not allowed: expected a number in [10, 60000]");
    assertRefused("eafr.rate.low-threshold", "0.7",
        "eafr.rate.low-threshold = 0.7 is not allowed: must be below eafr.rate.high-threshold (eta_h = 0.5)");
  }

  /** Starts a real DataNode against a running NameNode with one bad key; it must refuse and say why. */
  private static void assertRefused(String key, String value, String message) throws Exception {
    Configuration conf = RateControlCluster.conf("bad", MB);
    try (MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(0).build()) {
      Configuration dnConf = new Configuration(cluster.getConfiguration(0));
      dnConf.set(key, value);
      dnConf.set(DFSConfigKeys.DFS_DATANODE_DATA_DIR_KEY,
          new java.io.File(cluster.getDataDirectory(), "refused").getAbsolutePath());
      dnConf.set(DFSConfigKeys.DFS_DATANODE_ADDRESS_KEY, "127.0.0.1:0");
      dnConf.set(DFSConfigKeys.DFS_DATANODE_HTTP_ADDRESS_KEY, "127.0.0.1:0");
      dnConf.set(DFSConfigKeys.DFS_DATANODE_IPC_ADDRESS_KEY, "127.0.0.1:0");
      DataNode dataNode = DataNode.instantiateDataNode(new String[0], dnConf);
      try {
        assertThatThrownBy(dataNode::runDatanodeDaemon).hasMessage(message);
      } finally {
        dataNode.shutdown();
      }
    }
  }
}
