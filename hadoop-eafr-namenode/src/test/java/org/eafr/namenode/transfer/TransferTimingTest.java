package org.eafr.namenode.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.monitor.ReplicationMonitorPlugin;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.destination.TransferSpeedEstimator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Real re-replication copies on a MiniDFSCluster of nine DataNodes on three racks, timed for EAFR Eq. 9: every
 * destination of a copy gets a measured speed from the block's length over its copy time, and a DataNode whose
 * receive rate is throttled for real is measured slowest.
 */
class TransferTimingTest {
  private static final Logger LOG = LoggerFactory.getLogger(TransferTimingTest.class);
  private static final int FILES = 6;
  private static final int THROTTLED = 1;
  private static final long THROTTLED_BYTES_PER_SECOND = 256 * 1024;

  private EafrCluster cluster;

  @BeforeEach
  void startCluster() throws Exception {
    Configuration conf = EafrCluster.baseConf("transfer");
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    conf.set("eafr.interval.ms", "3600000"); // no replication round: only HDFS's own re-replication copies
    conf.set("eafr.transfer.min-sample-bytes", String.valueOf(EafrCluster.BLOCK_SIZE / 2));
    conf.set("eafr.transfer.poll.ms", "100");
    conf.set("eafr.ewma.window.ms", "1000");
    // One heartbeat hands a source all its copies, so each copy's dispatch is the heartbeat that carried it.
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_MAX_STREAMS_KEY, 10);
    cluster = EafrCluster.start(conf);
  }

  @AfterEach
  void stopCluster() throws IOException {
    cluster.verifyChecksumsAndClose();
  }

  @Test
  void copiesAfterADataNodeDies_giveEveryDestinationAMeasuredSpeed_andTheThrottledOneIsSlowest() throws Exception {
    // Each one-block file on 0 (rack 1), 3 (rack 2), 6 (rack 3): losing 0, the round robin sends one copy to each of
    // 1, 2, 4, 5, 7, 8 (Alg. 4), 1 receiving at 256 KiB/s.
    for (int i = 0; i < FILES; i++) {
      cluster.write("/data/f" + i, 3, EafrCluster.BLOCK_SIZE, i, cluster.dataNode(0), cluster.dataNode(3),
          cluster.dataNode(6));
    }
    cluster.dataNode(THROTTLED).reconfigureProperty(DFSConfigKeys.DFS_DATANODE_DATA_WRITE_BANDWIDTHPERSEC_KEY,
        String.valueOf(THROTTLED_BYTES_PER_SECOND));
    TransferTracker transfers = cluster.runtime().transfers();
    long start = System.nanoTime();
    cluster.kill(0);
    GenericTestUtils.waitFor(() -> transfers.timed() >= FILES, 100, 60_000);
    long wallMillis = (System.nanoTime() - start) / 1_000_000;

    Map<String, Integer> copiesPerDestination = destinations();
    assertThat(copiesPerDestination).containsOnlyKeys(cluster.id(1), cluster.id(2), cluster.id(4), cluster.id(5),
        cluster.id(7), cluster.id(8)).allSatisfy((id, copies) -> assertThat(copies).isEqualTo(1));
    Map<String, TransferSample> samples = transfers.lastSamples();
    LOG.info("Timed copies (throttled {}) within {} ms: {}", cluster.id(THROTTLED), wallMillis, samples.values());
    assertThat(samples).containsOnlyKeys(copiesPerDestination.keySet());
    assertThat(samples.values()).allSatisfy(sample -> {
      assertThat(sample.bytes()).isEqualTo(EafrCluster.BLOCK_SIZE);
      assertThat(sample.elapsedMillis()).isBetween(1L, wallMillis);
    });
    assertThat(transfers.timedBytes()).isEqualTo((long) FILES * EafrCluster.BLOCK_SIZE);
    assertThat(transfers.untimed()).isZero();

    // Eq. 9: once the 1 s window of the samples closes, each destination's V is its one sample's speed.
    TransferSpeedEstimator speeds = cluster.runtime().speeds();
    GenericTestUtils.waitFor(() -> samples.values().stream().allMatch(s -> Math.abs(speed(speeds, s.targetId())
        - bytesPerSecond(s)) < 1e-6 * bytesPerSecond(s)), 100, 60_000);
    assertThat(samples.values()).allSatisfy(sample -> assertThat(speed(speeds, sample.targetId()))
        .isCloseTo(bytesPerSecond(sample), within(1e-6 * bytesPerSecond(sample))));

    // 1 MiB at 256 KiB/s takes 2.7-3.6 s here (the throttler lets a first period through); the unthrottled copies
    // take 40-150 ms, so 1 ranks last by speed.
    String throttled = cluster.id(THROTTLED);
    assertThat(samples.get(throttled).elapsedMillis()).isGreaterThan(1_000);
    for (int i = 0; i < EafrCluster.RACKS.length; i++) {
      if (i != THROTTLED) {
        assertThat(speed(speeds, cluster.id(i))).as("speed of %d against throttled %d", i, THROTTLED)
            .isGreaterThan(speed(speeds, throttled));
      }
    }
  }

  private Map<String, Integer> destinations() throws IOException {
    Map<String, Integer> copies = new HashMap<>();
    for (int i = 0; i < FILES; i++) {
      List<String> holders = cluster.holders("/data/f" + i);
      for (String holder : holders) {
        if (!holder.equals(cluster.id(0)) && !holder.equals(cluster.id(3)) && !holder.equals(cluster.id(6))) {
          copies.merge(holder, 1, Integer::sum);
        }
      }
    }
    return copies;
  }

  private static double speed(TransferSpeedEstimator speeds, String id) {
    return speeds.expectedSpeed("", id);
  }

  private static double bytesPerSecond(TransferSample sample) {
    return sample.bytes() * 1000.0 / sample.elapsedMillis();
  }
}
