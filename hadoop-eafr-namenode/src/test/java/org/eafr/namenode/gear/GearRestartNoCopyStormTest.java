package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.namenode.ha.HATestUtil;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.power.PowerDriver;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A NameNode restart in gear 0 (12 DataNodes on 3 racks, equal-work p = 4, g = 2): the restarted NameNode has never
 * had a block report from the 8 DataNodes asleep, so every block looks short by two replicas. HDFS's redundancy monitor
 * runs 20 intervals and copies (almost) nothing: each block's missing replicas sleep at their homes. A block whose one
 * live replica is then lost still wakes the group holding it; a gear-up wakes the rest, fsck is healthy, every file
 * reads back with its checksum. The same for a standby restarted while the groups slept that then takes over.
 */
class GearRestartNoCopyStormTest {
  private static final Logger LOG = LoggerFactory.getLogger(GearRestartNoCopyStormTest.class);
  private static final int FILES = 12;
  private static final int REDUNDANCY_INTERVALS = 20;

  @Test
  void aRestartInGearZeroCopiesNoBlockWhoseReplicasSleepAtHome_aLostLastReplicaStillWakesItsGroup() throws Exception {
    EafrCluster cluster = GearTestCluster.start(GearTestCluster.conf("gear-restart-no-storm"));
    // One driver per DataNode for the power managers before and after the restart: a driver restarts the DataNode
    // it stopped.
    Map<String, PowerDriver> drivers = MiniClusterPower.drivers(cluster.mini(), null);
    GearTestCluster.gears(cluster).power().close();
    GearTestCluster.gears(cluster).power(MiniClusterPower.manager(cluster.mini(), drivers));
    try {
      List<String> files = new ArrayList<>();
      for (int i = 0; i < FILES; i++) {
        files.add("/data/f" + i);
        cluster.write(files.get(i), 3, 2 * EafrCluster.BLOCK_SIZE, 300 + i);
        GearTestCluster.assertEqualWorkLayout(cluster, files.get(i));
      }
      long asleepBytes = (long) FILES * 2 * 2 * EafrCluster.BLOCK_SIZE; // two blocks, two replicas each above gear 0
      GearTestCluster.gears(cluster).service().requestGear(0);
      GearTestCluster.awaitGear(cluster, 0);

      GearTestCluster.restartNameNode(cluster, drivers);
      GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).layout().isPresent(), 50, 60_000);
      GearedLayout layout = GearTestCluster.layout(cluster);
      assertThat(GearTestCluster.gears(cluster).state().sleeping()).hasSize(8);
      awaitRedundancyIntervals(cluster, REDUNDANCY_INTERVALS);

      long copied = bytesCopied(cluster, files);
      LOG.info("{} redundancy intervals after the restart: {} bytes re-replicated of {} bytes asleep; {}"
          + " re-replications deferred", REDUNDANCY_INTERVALS, copied, asleepBytes,
          GearTestCluster.gears(cluster).counters().reReplicationsDeferred.get());
      assertThat(copied).as("bytes re-replicated in %d redundancy intervals after the restart, against %d bytes"
          + " asleep", REDUNDANCY_INTERVALS, asleepBytes).isLessThanOrEqualTo(asleepBytes / 100);
      assertThat(GearTestCluster.gears(cluster).counters().reReplicationsDeferred.get()).isPositive();
      assertThat(GearTestCluster.running(cluster)).containsExactlyInAnyOrderElementsOf(layout.serversOn(0).ids());
      assertThat(GearTestCluster.gears(cluster).counters().wakesForFailures.get())
          .as("wakes for failures: every DataNode that should be on registered, none dead").isZero();

      ActiveSet group = loseTheLastLiveReplicaOfABlockOf(cluster, layout, files);
      GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).counters().wakesForBlocks.get() == 1
          && GearTestCluster.gears(cluster).state().waking().isEmpty(), 100, 120_000);
      assertThat(GearTestCluster.running(cluster)).containsAll(group.ids()).hasSize(8);

      GearTestCluster.gears(cluster).service().requestGear(layout.maximumGear());
      GearTestCluster.awaitGear(cluster, layout.maximumGear());
      assertThat(GearTestCluster.running(cluster)).hasSize(GearTestCluster.RACKS.length);
      GenericTestUtils.waitFor(() -> blockManager(cluster).getLowRedundancyBlocksCount() == 0
          && blockManager(cluster).getPendingReconstructionBlocksCount() == 0, 100, 120_000);
      assertThat(fsck(cluster)).as("fsck exit code").isZero();
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
    }
  }

  /**
   * An HA pair in gear 0 whose standby is restarted (it never sees the 8 DataNodes asleep register) and then takes
   * over: its redundancy monitor, 20 intervals on, has copied nothing either; a gear-up wakes them, checksums equal.
   */
  @Test
  void aStandbyStartedWhileGroupsSleptTakesOverWithoutACopyStorm() throws Exception {
    EafrCluster cluster = EafrCluster.startHa(GearTestCluster.conf("gear-standby-no-storm"), GearTestCluster.RACKS);
    Map<String, PowerDriver> drivers = MiniClusterPower.drivers(cluster.mini(), null);
    for (int nn = 0; nn < 2; nn++) {
      cluster.runtime(nn).gears().power(MiniClusterPower.manager(cluster.mini(), drivers));
    }
    try {
      GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).layout().isPresent(), 50, 60_000);
      List<String> files = new ArrayList<>();
      for (int i = 0; i < FILES / 2; i++) {
        files.add("/data/f" + i);
        cluster.write(files.get(i), 3, 2 * EafrCluster.BLOCK_SIZE, 400 + i);
      }
      long asleepBytes = (long) files.size() * 2 * 2 * EafrCluster.BLOCK_SIZE;
      GearTestCluster.gears(cluster).service().requestGear(0);
      GearTestCluster.awaitGear(cluster, 0);

      cluster.runtime(1).gears().power().close();
      Configuration standby = cluster.mini().getNameNode(1).getConf();
      cluster.mini().getNameNode(1).stop();
      EafrRuntime.release(standby); // the restarted standby builds its EAFR state anew
      cluster.mini().restartNameNode(1, false);
      cluster.runtime(1).gears().power(MiniClusterPower.manager(cluster.mini(), drivers));
      HATestUtil.waitForStandbyToCatchUp(cluster.mini().getNameNode(0), cluster.mini().getNameNode(1));
      GenericTestUtils.waitFor(() -> cluster.runtime(1).gears().state().sleeping().size() == 8, 100, 60_000);
      cluster.failover();
      GenericTestUtils.waitFor(() -> !cluster.namesystem().isInSafeMode(), 100, 60_000);
      awaitRedundancyIntervals(cluster, REDUNDANCY_INTERVALS);

      long copied = bytesCopied(cluster, files);
      LOG.info("{} redundancy intervals after the failover: {} bytes re-replicated of {} bytes asleep",
          REDUNDANCY_INTERVALS, copied, asleepBytes);
      assertThat(copied).as("bytes re-replicated in %d redundancy intervals after the failover, against %d bytes"
          + " asleep", REDUNDANCY_INTERVALS, asleepBytes).isLessThanOrEqualTo(asleepBytes / 100);

      GearedLayout layout = GearTestCluster.layout(cluster);
      GearTestCluster.gears(cluster).service().requestGear(layout.maximumGear());
      GearTestCluster.awaitGear(cluster, layout.maximumGear());
      assertThat(GearTestCluster.running(cluster)).hasSize(GearTestCluster.RACKS.length);
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
    }
  }

  /** Waits until HDFS's redundancy monitor has finished {@code intervals} more cycles (it stamps each one). */
  static void awaitRedundancyIntervals(EafrCluster cluster, int intervals) throws Exception {
    Set<Long> cycles = new HashSet<>();
    long first = blockManager(cluster).getLastRedundancyMonitorTS();
    GenericTestUtils.waitFor(() -> {
      long last = blockManager(cluster).getLastRedundancyMonitorTS();
      if (last != first) {
        cycles.add(last);
      }
      return cycles.size() >= intervals;
    }, 20, 120_000);
  }

  /**
   * Bytes HDFS copied or is copying since the restart: each block's replicas the NameNode knows beyond its one on a
   * primary (the 8 DataNodes asleep have reported nothing), plus the blocks with a copy under way.
   */
  private static long bytesCopied(EafrCluster cluster, List<String> files) throws Exception {
    long replicas = 0;
    for (String file : files) {
      for (List<String> holders : cluster.blockHolders(file)) {
        replicas += holders.size() - 1;
      }
    }
    return (replicas + blockManager(cluster).getPendingReconstructionBlocksCount()) * EafrCluster.BLOCK_SIZE;
  }

  /**
   * Marks corrupt the one live replica (on a primary) of the first block of a file of recovery group 0, as a disk
   * error would: the block has no live replica left; returns that recovery group.
   */
  private static ActiveSet loseTheLastLiveReplicaOfABlockOf(EafrCluster cluster, GearedLayout layout,
      List<String> files) throws Exception {
    EqualWorkLayout equalWork = (EqualWorkLayout) layout;
    for (String file : files) {
      LocatedBlock located = cluster.mini().getNameNodeRpc().getBlockLocations(file, 0, 1).get(0);
      DatanodeInfo primary = located.getLocations()[0];
      int position = layout.chain().position(primary.getXferAddr());
      if (equalWork.recoveryGroupOf(position) == 0) {
        cluster.mini().getNamesystem().writeLock();
        try {
          blockManager(cluster).findAndMarkBlockAsCorrupt(located.getBlock(), primary, located.getStorageIDs()[0],
              "test: disk error on the on-gear replica");
        } finally {
          cluster.mini().getNamesystem().writeUnlock();
        }
        return layout.recoveryGroup(position);
      }
    }
    throw new AssertionError("no file with its primary replica in recovery group 0");
  }

  static int fsck(EafrCluster cluster) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    return new DFSck(cluster.mini().getConfiguration(0), new PrintStream(out, true, StandardCharsets.UTF_8.name()))
        .run(new String[] {"/"});
  }

  static BlockManager blockManager(EafrCluster cluster) {
    return cluster.namesystem().getBlockManager();
  }
}
