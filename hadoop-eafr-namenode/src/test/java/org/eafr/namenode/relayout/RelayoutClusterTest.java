package org.eafr.namenode.relayout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.balancer.BalancerCommand;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.gear.GearTestCluster;
import org.eafr.namenode.grid.GridGate;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.namenode.testing.GridFixture;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.junit.jupiter.api.Test;

/**
 * Adopting gears on a cluster that already holds data (12 DataNodes of 32 MB on 3 racks): files written under the
 * random layout, some of their replicas moved by {@code hdfs balancer}; the NameNode restarted with the equal-work
 * layout (p = 4, g = 2) refuses gear 0, since blocks have no replica on a primary; {@code hdfs eafr relayout start}
 * against the grid's fixture signal ({@link GridFixture}, objective carbon, longest wait of relayout 3 h, the gate's
 * clock driven by the test): started at 00:00 it moves nothing, held until 02:00 (deadline 03:00), still held at
 * 01:00, and moves from 02:00 on; with a NameNode restart in the middle that the relayout survives (it goes on from
 * its persisted cursor); then gear 0 succeeds with only the primaries on, every file reads back with its checksum, and
 * the first walk's plan and the moves of every walk (the first, and the checks of what it left) are within 1.2 times
 * the lower bound.
 */
class RelayoutClusterTest {
  private static final long CAPACITY = 32L << 20;

  @Test
  void dataWrittenBeforeGearsIsRelaidOut_thenGearZeroSucceeds_andARestartMidwayResumes() throws Exception {
    long started = System.nanoTime();
    // Six files a batch: the first walk's second batch holds every 1 MB block, so each target's room counts them all.
    Configuration conf = conf("relayout", 6);
    conf.set("eafr.layout", "random");
    conf.setLong(DFSConfigKeys.DFS_BALANCER_GETBLOCKS_MIN_BLOCK_SIZE_KEY, 1L);
    conf.set("eafr.grid.objective", "carbon");
    conf.set("eafr.grid.signal.file", GridFixture.nesoCsv().toString());
    conf.set("eafr.grid.defer.relayout.ms", String.valueOf(180 * GridFixture.MINUTE));
    EafrCluster cluster = EafrCluster.start(conf, GearTestCluster.RACKS, null, CAPACITY);
    cluster.runtime().gears().power(MiniClusterPower.manager(cluster.mini()));
    try {
      List<String> files = new ArrayList<>();
      for (int i = 0; i < 9; i++) {
        files.add("/data/f" + i);
        cluster.write(files.get(i), 3, EafrCluster.BLOCK_SIZE / 2, 100 + i);
      }
      DataNode[] full = {cluster.dataNode(0), cluster.dataNode(1), cluster.dataNode(2)};
      for (int i = 0; i < 3; i++) {
        files.add("/full/f" + i);
        cluster.write(files.get(files.size() - 1), 3, 2 * EafrCluster.BLOCK_SIZE, 200 + i, full);
      }
      Map<String, List<List<String>>> before = holders(cluster, files);
      // The Balancer plans from the usage the DataNodes last reported in a heartbeat: it sees the writes only then.
      awaitReportedUsage(cluster, 3L * (9 * (EafrCluster.BLOCK_SIZE / 2) + 3 * (2 * EafrCluster.BLOCK_SIZE)));
      assertThat(BalancerCommand.run(cluster.conf(), "-threshold", "5")).isEqualTo(BalancerCommand.code("SUCCESS"));
      // A moved replica reaches the NameNode in the target's next incremental block report.
      GenericTestUtils.waitFor(() -> !holdersQuietly(cluster, files).equals(before), 100, 60_000);

      restartNameNode(cluster, "equal-work");
      GenericTestUtils.waitFor(() -> gears(cluster).layout().isPresent(), 50, 60_000);
      GearedLayout layout = gears(cluster).layout().orElseThrow();
      awaitSteadyAt(cluster, layout.maximumGear());
      assertThatThrownBy(() -> gears(cluster).service().requestGear(0)).isInstanceOf(IllegalStateException.class);

      AtomicLong now = new AtomicLong(GridFixture.T0);
      GridGate grid = gears(cluster).grid();
      grid.clock(now::get);
      AdminRun start = AdminRun.run(cluster.conf(), "relayout", "start");
      assertThat(start.code).as(start.out + start.err).isZero();
      heldForTheGrid(cluster, grid);
      now.set(GridFixture.T0 + 60 * GridFixture.MINUTE);
      heldForTheGrid(cluster, grid);
      now.set(GridFixture.T0 + 120 * GridFixture.MINUTE);
      GenericTestUtils.waitFor(() -> ((Number) relayout(cluster).values().get("files")).longValue() >= 5, 50, 60_000);
      // Mid-way: moving, or waiting for HDFS's redundancy work on the next batch's blocks.
      assertThat(relayout(cluster).values().get("state")).isIn("running", "waiting");
      restartNameNode(cluster, "equal-work");
      GenericTestUtils.waitFor(() -> "finished".equals(relayout(cluster).values().get("state")), 100, 60_000);

      Map<String, Object> done = relayout(cluster).values();
      long moved = ((Number) done.get("movedBytes")).longValue();
      long bound = ((Number) done.get("lowerBoundBytes")).longValue();
      long planned = ((Number) done.get("plannedBytes")).longValue();
      long firstWalk = ((Number) done.get("firstWalkMovedBytes")).longValue();
      System.out.printf("relayout: lower bound %d bytes; first walk planned %d (%.3fx) and moved %d bytes (%.3fx);"
          + " every walk moved %d bytes (%.3fx)%n", bound, planned, (double) planned / bound, firstWalk,
          (double) firstWalk / bound, moved, (double) moved / bound);
      assertThat(bound).isPositive();
      assertThat((double) planned).as("the first walk's plan against the lower bound").isLessThanOrEqualTo(1.2 * bound);
      assertThat((double) firstWalk).as("the first walk's moves against the lower bound")
          .isLessThanOrEqualTo(1.2 * bound);
      assertThat((double) moved).as("every walk's moves against the lower bound").isLessThanOrEqualTo(1.2 * bound);
      AdminRun status = AdminRun.run(cluster.conf(), "relayout", "status", "-json");
      assertThat(status.out).as(status.err).contains("\"state\" : \"finished\"");
      assertThat(AdminRun.run(cluster.conf(), "status").out).contains("relayout finished");

      gears(cluster).service().requestGear(0);
      GearTestCluster.awaitGear(cluster, 0);
      assertThat(GearTestCluster.running(cluster)).containsExactlyInAnyOrderElementsOf(layout.serversOn(0).ids());
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
      System.out.printf("RelayoutClusterTest wall time: %.1f s%n", (System.nanoTime() - started) / 1e9);
    }
  }

  /** A gear test cluster's settings with relayout stepping every 50 ms, {@code batchFiles} a batch, 8 moves at once. */
  static Configuration conf(String name, int batchFiles) throws IOException {
    Configuration conf = GearTestCluster.conf(name);
    conf.set("eafr.relayout.step.ms", "50");
    conf.set("eafr.relayout.batch-files", String.valueOf(batchFiles));
    conf.set("eafr.relayout.moves.concurrent", "8");
    // Tens of blocks: one 1 MB block is several per cent of a DataNode's share, so the default slack of 0.1 would
    // move replicas for the shares that a namespace of thousands of blocks keeps in place (RelayoutPlannerTest:
    // 1.009x).
    conf.set("eafr.relayout.share-slack", "0.5");
    return conf;
  }

  /**
   * The same for data written under the random layout, with one batch of every file, {@code movesConcurrent} moves at
   * once, and the relayout stepped by the test only.
   */
  static Configuration steppedByTheTest(String name, int movesConcurrent) throws IOException {
    Configuration conf = conf(name, 100);
    conf.set("eafr.layout", "random");
    conf.set("eafr.relayout.step.ms", "3600000");
    conf.set("eafr.relayout.moves.concurrent", String.valueOf(movesConcurrent));
    return conf;
  }

  /** The relayout waits for 02:00 (once every block report is in), with nothing walked or moved; status says so. */
  private static void heldForTheGrid(EafrCluster cluster, GridGate grid) throws Exception {
    GenericTestUtils.waitFor(() -> String.valueOf(relayout(cluster).values().get("waitingFor"))
        .contains("grid signal"), 50, 60_000);
    relayout(cluster).step(); // asked at the time set now
    Map<String, Object> values = relayout(cluster).values();
    assertThat(values).containsEntry("state", "waiting").containsEntry("files", 0L)
        .containsEntry("movedReplicas", 0L).containsEntry("movesInFlight", 0);
    assertThat((String) values.get("waitingFor")).contains("grid signal (eafr.grid.objective = carbon)")
        .contains("hold until 2026-01-01T02:00:00Z (WAITING, deadline 2026-01-01T03:00:00Z)");
    assertThat(grid.values()).containsEntry("RelayoutHeld", 1L)
        .containsEntry("RelayoutHeldUntil", "2026-01-01T02:00:00Z")
        .containsEntry("RelayoutDeadline", "2026-01-01T03:00:00Z");
    assertThat(AdminRun.run(cluster.conf(), "status").out)
        .contains("relayout held until 2026-01-01T02:00:00Z, deadline 2026-01-01T03:00:00Z")
        .contains("relayout waiting (waits: a cleaner or cheaper slot of the grid signal");
    assertThat(cluster.eafrMetrics()).containsEntry("GridRelayoutHeld", 1L)
        .containsEntry("GridRelayoutDeadlineTimestampSeconds", (GridFixture.T0 + 180 * GridFixture.MINUTE) / 1000.0);
  }

  static GearRuntime gears(EafrCluster cluster) {
    return cluster.runtime().gears();
  }

  static RelayoutService relayout(EafrCluster cluster) {
    RelayoutService service = cluster.runtime().relayout();
    if (service == null) {
      throw new IllegalStateException("no relayout service yet");
    }
    return service;
  }

  private static Map<String, List<List<String>>> holders(EafrCluster cluster, List<String> files) throws Exception {
    Map<String, List<List<String>>> holders = new HashMap<>();
    for (String file : files) {
      holders.put(file, cluster.blockHolders(file));
    }
    return holders;
  }

  private static Map<String, List<List<String>>> holdersQuietly(EafrCluster cluster, List<String> files) {
    try {
      return holders(cluster, files);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Waits until the DataNodes' heartbeats report at least {@code bytes} used in all. */
  private static void awaitReportedUsage(EafrCluster cluster, long bytes) throws Exception {
    GenericTestUtils.waitFor(() -> {
      try {
        cluster.mini().triggerHeartbeats();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return cluster.mini().getNamesystem().getBlockManager().getDatanodeManager()
          .getDatanodeListForReport(HdfsConstants.DatanodeReportType.LIVE).stream()
          .mapToLong(DatanodeDescriptor::getDfsUsed).sum() >= bytes;
    }, 100, 60_000);
  }

  /** Restarts the NameNode with {@code layout}, its EAFR state forgotten, and gives it a power manager. */
  static void restartNameNode(EafrCluster cluster, String layout) throws Exception {
    gears(cluster).power().close();
    cluster.mini().getNameNode().stop();
    EafrRuntime.release(cluster.mini().getNameNode().getConf());
    cluster.mini().getConfiguration(0).set("eafr.layout", layout);
    cluster.mini().restartNameNode(false);
    cluster.mini().waitActive();
    gears(cluster).power(MiniClusterPower.manager(cluster.mini()));
    GenericTestUtils.waitFor(() -> !cluster.mini().getNamesystem().isInSafeMode(), 100, 60_000);
  }

  private static void awaitSteadyAt(EafrCluster cluster, int gear) throws Exception {
    GenericTestUtils.waitFor(() -> gears(cluster).state().gear() == gear
        && gears(cluster).state().phase() == ShiftPhase.STEADY, 100, 60_000);
  }
}
