package org.eafr.namenode.relayout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eafr.namenode.relayout.RelayoutClusterTest.gears;
import static org.eafr.namenode.relayout.RelayoutClusterTest.relayout;
import static org.eafr.namenode.relayout.RelayoutClusterTest.restartNameNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.gear.GearTestCluster;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.junit.jupiter.api.Test;

/**
 * A NameNode restart cuts a relayout batch after some of its moves (12 DataNodes, 8 files of two 1 MiB blocks written
 * under the random layout, the NameNode restarted with equal-work; one batch holds every file, one move at a time,
 * and the test steps the relayout itself): the moves done before the restart, settled or not, are counted once the
 * restarted NameNode has every block report, the others go on, and the first walk's plan and lower bound stay those
 * made before the restart; the bytes moved are exactly those of the DataNodes' block moves (replaceBlock).
 */
class RelayoutCutBatchTest {
  private static final long CAPACITY = 32L << 20;

  @Test
  void movesDoneInABatchARestartCut_areCountedByTheNextNameNode() throws Exception {
    long started = System.nanoTime();
    Configuration conf = RelayoutClusterTest.steppedByTheTest("relayout-cut", 1);
    EafrCluster cluster = EafrCluster.start(conf, GearTestCluster.RACKS, null, CAPACITY);
    cluster.runtime().gears().power(MiniClusterPower.manager(cluster.mini()));
    try {
      List<String> files = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        files.add("/data/f" + i);
        cluster.write(files.get(i), 3, 2 * EafrCluster.BLOCK_SIZE, 500 + i);
      }
      restartNameNode(cluster, "equal-work");
      GenericTestUtils.waitFor(() -> gears(cluster).layout().isPresent()
          && gears(cluster).state().gear() == gears(cluster).layout().get().maximumGear()
          && gears(cluster).state().phase() == ShiftPhase.STEADY, 100, 60_000);
      relayout(cluster).start();

      GenericTestUtils.waitFor(() -> {
        Map<String, Object> values = step(cluster);
        return count(values, "movedReplicas") >= 2 && count(values, "movesQueued") > 0;
      }, 50, 60_000);
      // The batch holds every file: its cursor and plan are persisted before its first move.
      assertThat(relayout(cluster).values()).containsEntry("movesInFlight", 1).containsEntry("files", 8L)
          .containsEntry("cursor", "/data/f7");
      // The move in flight finishes on the DataNodes; the restart comes before any step settles it.
      GenericTestUtils.waitFor(() -> relayout(cluster).movesFinished(), 50, 60_000);
      long settled = count(relayout(cluster).values(), "movedReplicas");
      long bound = count(relayout(cluster).values(), "lowerBoundBytes");
      long planned = count(relayout(cluster).values(), "plannedBytes");

      restartNameNode(cluster, "equal-work");
      GenericTestUtils.waitFor(() -> cluster.mini().getNamesystem().getBlockManager().getDatanodeManager()
          .getDatanodeListForReport(HdfsConstants.DatanodeReportType.LIVE).stream()
          .filter(dn -> RelayoutService.fullyReported(dn, false)).count() == 12, 100, 60_000);
      long cut = replaceBlocks(cluster);
      assertThat(cut).isGreaterThanOrEqualTo(settled);
      GenericTestUtils.waitFor(() -> count(step(cluster), "movedBytes") > 0, 100, 60_000);
      // The step that counts the cut batch may also finish the next queued move on a slow machine.
      Map<String, Object> counted = relayout(cluster).values();
      // A DataNode reports the moved replica before it counts its replaceBlock op: let its metric catch up.
      awaitReplaceBlocks(cluster, count(counted, "movedReplicas"));
      assertThat(count(counted, "movedReplicas")).as("the cut batch's moves, counted on the restarted NameNode (HDFS"
          + " re-replications so far: %d)", reReplications(cluster))
          .isBetween(cut, replaceBlocks(cluster));
      assertThat(counted).containsEntry("movedBytes", count(counted, "movedReplicas") * EafrCluster.BLOCK_SIZE)
          .containsEntry("files", 8L);

      GenericTestUtils.waitFor(() -> "finished".equals(step(cluster).get("state")), 50, 120_000);
      Map<String, Object> done = relayout(cluster).values();
      awaitReplaceBlocks(cluster, count(done, "movedReplicas"));
      System.out.printf("relayout cut by a restart after %d moves (%d settled): %s%n", cut, settled,
          relayout(cluster).statusText());
      assertThat(count(done, "movedBytes")).as("every move, the cut batch's included")
          .isEqualTo(replaceBlocks(cluster) * EafrCluster.BLOCK_SIZE);
      assertThat(done).as("the first walk's plan, made before the restart").containsEntry("lowerBoundBytes", bound)
          .containsEntry("plannedBytes", planned);
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
      System.out.printf("RelayoutCutBatchTest wall time: %.1f s%n", (System.nanoTime() - started) / 1e9);
    }
  }

  private static Map<String, Object> step(EafrCluster cluster) {
    try {
      relayout(cluster).step();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return relayout(cluster).values();
  }

  private static long count(Map<String, Object> values, String key) {
    return ((Number) values.get(key)).longValue();
  }

  /** Waits (bounded) until the DataNodes count at least {@code moves} replaceBlock ops; more fail the caller's check. */
  static void awaitReplaceBlocks(EafrCluster cluster, long moves) throws Exception {
    try {
      GenericTestUtils.waitFor(() -> replaceBlocks(cluster) >= moves, 50, 10_000);
    } catch (TimeoutException counted) {
      // fewer ops than moves counted: the assertion that follows names both
    }
  }

  /**
   * The block moves the DataNodes carried out: each successful replaceBlock (a relayout move's copy to its target) is
   * one operation of the target's ReplaceBlockOp rate; HDFS's own re-replication after a restart uses other transfers.
   */
  static long replaceBlocks(EafrCluster cluster) {
    return dataNodeTotal(cluster, "ReplaceBlockOpNumOps");
  }

  /** HDFS's own re-replications the DataNodes sent (each a transfer, not a replaceBlock). */
  static long reReplications(EafrCluster cluster) {
    return dataNodeTotal(cluster, "BlocksReplicated");
  }

  private static long dataNodeTotal(EafrCluster cluster, String name) {
    long total = 0;
    for (DataNode dataNode : cluster.mini().getDataNodes()) {
      MetricsCollectorImpl collector = new MetricsCollectorImpl();
      DefaultMetricsSystem.instance().getSource(dataNode.getMetrics().name()).getMetrics(collector, true);
      for (AbstractMetric metric : collector.getRecords().get(0).metrics()) {
        total += metric.name().equals(name) ? metric.value().longValue() : 0;
      }
    }
    return total;
  }
}
