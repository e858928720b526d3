package org.eafr.namenode.relayout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eafr.namenode.relayout.RelayoutClusterTest.gears;
import static org.eafr.namenode.relayout.RelayoutClusterTest.relayout;
import static org.eafr.namenode.relayout.RelayoutClusterTest.restartNameNode;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster.DataNodeProperties;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearTestCluster;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.junit.jupiter.api.Test;

/**
 * Relayout plans only once every DataNode of the layout has sent a full block report since it registered with this
 * NameNode: 4 DataNodes on 2 racks, equal-work with p = 2, g = 1 and files of 2 replicas. After a NameNode restart
 * (every DataNode asked for its report as its storages are stale), the primary at chain position 0 is restarted with
 * {@code dfs.blockreport.initialDelay} of 6 days (HDFS sends a DataNode's first full report after registering at a
 * random time below it), so it registers again and heartbeats but sends no full report. It has blocks in the block
 * map (what counted as reported before, as incremental reports alone make it after a NameNode restart) but no full
 * report since it registered: the relayout started then waits for it, walking and moving nothing, and goes on once
 * the test triggers the report. Then the NameNode stops (its block map closed before relayout is): a step does
 * nothing, and a move started and settled meanwhile reads no closed block map.
 */
class RelayoutFullReportTest {
  private static final String[] RACKS = {"/r1", "/r2", "/r1", "/r2"};

  @Test
  void afterARestart_relayoutWaitsForEveryFullBlockReport_andAStoppingNameNodeStopsItQuietly() throws Exception {
    long started = System.nanoTime();
    Configuration conf = RelayoutClusterTest.conf("relayout-full-report", 4);
    conf.set("eafr.gear.primaries", "2");
    conf.set("eafr.gear.group-size", "1");
    conf.set("eafr.gear.replicas", "2");
    conf.set("eafr.gear.expected-datanodes", String.valueOf(RACKS.length));
    EafrCluster cluster = EafrCluster.start(conf, RACKS);
    cluster.runtime().gears().power(MiniClusterPower.manager(cluster.mini()));
    try {
      GenericTestUtils.waitFor(() -> gears(cluster).layout().isPresent(), 50, 60_000);
      GearedLayout layout = gears(cluster).layout().orElseThrow();
      String primary = layout.chain().id(0);
      for (int i = 0; i < 4; i++) {
        cluster.write("/before/f" + i, 2, EafrCluster.BLOCK_SIZE / 4, 300 + i);
      }
      restartNameNode(cluster, "equal-work");
      awaitTopGear(cluster, layout.maximumGear());
      GenericTestUtils.waitFor(() -> RelayoutService.fullyReported(descriptor(cluster, primary), false), 50, 60_000);

      withoutFullReports(cluster, cluster.indexOf(primary));
      DatanodeDescriptor dn = descriptor(cluster, primary);
      GenericTestUtils.waitFor(() -> dn.isAlive() && dn.getStorageInfos().length > 0, 50, 60_000);
      assertThat(dn.numBlocks()).as("replicas of %s in the block map", primary).isPositive();
      assertThat(dn.checkBlockReportReceived()).as("a full report from %s", primary).isFalse();
      assertThat(RelayoutService.fullyReported(dn, false)).isFalse();

      relayout(cluster).start();
      relayout(cluster).step();
      Map<String, Object> waiting = relayout(cluster).values();
      assertThat(waiting).containsEntry("state", "waiting").containsEntry("files", 0L)
          .containsEntry("blocksPlanned", 0L).containsEntry("movesQueued", 0);
      assertThat((String) waiting.get("waitingFor")).isEqualTo("the full block report of DataNode " + primary);

      cluster.mini().triggerBlockReports();
      GenericTestUtils.waitFor(() -> RelayoutService.fullyReported(dn, false), 50, 60_000);
      // HDFS keeps a storage's contents marked stale until its next full report when its first report after the
      // restart came before its first heartbeat (here the next is days away): a NameNode that started active goes on.
      for (DatanodeStorageInfo storage : dn.getStorageInfos()) {
        storage.setBlockContentsStale(true);
      }
      assertThat(RelayoutService.fullyReported(dn, true)).as("after a failover").isFalse();
      assertThat(RelayoutService.fullyReported(dn, false)).as("after a restart").isTrue();
      GenericTestUtils.waitFor(() -> "finished".equals(relayout(cluster).values().get("state")), 100, 60_000);
      assertThat(relayout(cluster).values()).containsEntry("movedReplicas", 0L).containsEntry("failedMoves", 0L);
      cluster.verifyChecksums();

      stoppingQuietly(cluster, layout);
    } finally {
      GearTestCluster.stop(cluster);
      System.out.printf("RelayoutFullReportTest wall time: %.1f s%n", (System.nanoTime() - started) / 1e9);
    }
  }

  /**
   * Restarts DataNode {@code index} (same ports) so that it sends a full block report only when triggered: its first
   * after each registration is due at a random time below 6 days, within a report interval of 7.
   */
  private static void withoutFullReports(EafrCluster cluster, int index) throws Exception {
    DataNodeProperties stopped = cluster.mini().stopDataNode(cluster.dataNode(index).getDatanodeId().getXferAddr());
    // The configuration MiniDFSCluster restarts the DataNode with: a package-private field of Hadoop's.
    Field field = DataNodeProperties.class.getDeclaredField("conf");
    field.setAccessible(true);
    Configuration conf = (Configuration) field.get(stopped);
    conf.setLong(DFSConfigKeys.DFS_BLOCKREPORT_INITIAL_DELAY_KEY, TimeUnit.DAYS.toSeconds(6));
    conf.setLong(DFSConfigKeys.DFS_BLOCKREPORT_INTERVAL_MSEC_KEY, TimeUnit.DAYS.toMillis(7));
    assertThat(cluster.mini().restartDataNode(stopped, true)).isTrue();
    cluster.mini().waitActive();
  }

  /**
   * A stopping NameNode closes its namesystem, block map included, before it stops the plugins that close relayout:
   * a step then does nothing, and a move started or settled then reads no block map (which would throw).
   */
  private static void stoppingQuietly(EafrCluster cluster, GearedLayout layout) throws Exception {
    Block block = DFSTestUtil.getFirstBlock(cluster.fs(), new Path("/before/f0")).getLocalBlock();
    List<String> holders = cluster.blockHolders("/before/f0").get(0);
    int source = layout.chain().position(holders.get(0));
    int target = Arrays.stream(ActiveSet.all(layout.chain()).positions())
        .filter(p -> !holders.contains(layout.chain().id(p))).findFirst().orElseThrow();
    RelayoutService service = relayout(cluster);
    RelayoutMoves moves = new RelayoutMoves(cluster.nameNode(), gears(cluster), service.settings());
    try {
      cluster.mini().getNameNode().stop();
      service.step();
      assertThat(service.values()).containsEntry("state", "finished");
      moves.queue(block, new BlockMove(block.getBlockName(), source, target, true), layout.chain().id(source),
          layout.chain().id(target));
      moves.dispatch();
      GenericTestUtils.waitFor(() -> {
        moves.settle(new RelayoutMoves.Outcome() {
          @Override
          public void moved(Block moved) {
          }

          @Override
          public void failed(Block failed) {
          }
        });
        return moves.idle();
      }, 50, 60_000);
    } finally {
      moves.close();
      // A DataNode whose NameNode is gone retries its heartbeats while it shuts down (minutes on a fresh Debian
      // machine); with its NameNode back it stops at once.
      restartNameNode(cluster, "equal-work");
    }
  }

  private static DatanodeDescriptor descriptor(EafrCluster cluster, String id) {
    return ServerTranslator.dataNodeOf(cluster.mini().getNamesystem().getBlockManager().getDatanodeManager(), id);
  }

  private static void awaitTopGear(EafrCluster cluster, int gear) throws Exception {
    GenericTestUtils.waitFor(() -> gears(cluster).layout().isPresent() && gears(cluster).state().gear() == gear
        && gears(cluster).state().phase() == ShiftPhase.STEADY, 100, 60_000);
  }
}
