package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.balancer.BalancerCommand;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.GearedLayout;
import org.junit.jupiter.api.Test;

/**
 * HDFS's Balancer on a geared cluster (12 DataNodes of 32 MB on 3 racks, equal-work p = 4, g = 2) whose primaries are
 * fuller than the rest: besides 8 files of 3 replicas, 24 files of one replica, each on its primary. A Balancer run
 * (`hdfs balancer -threshold 5`, in its own policy instance that reads the layout from the namespace) would even the
 * disks by moving primary replicas up the chain, leaving those blocks no replica in gear 0; the policy refuses every
 * such move, so the run moves nothing, every block keeps its replica on a primary, gear 0 is reached and every file
 * reads back with its checksum.
 */
class GearBalancerTest {
  private static final long CAPACITY = 32L << 20;

  @Test
  void aBalancerRunOnAGearedClusterLeavesGearZeroPossible() throws Exception {
    Configuration conf = GearTestCluster.conf("gear-balancer");
    conf.setLong(DFSConfigKeys.DFS_BALANCER_GETBLOCKS_MIN_BLOCK_SIZE_KEY, 1L);
    EafrCluster cluster = EafrCluster.start(conf, GearTestCluster.RACKS, null, CAPACITY);
    cluster.runtime().gears().power(MiniClusterPower.manager(cluster.mini()));
    try {
      GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).layout().isPresent(), 50, 60_000);
      GearedLayout layout = GearTestCluster.layout(cluster);
      List<String> files = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        files.add("/data/f" + i);
        cluster.write(files.get(i), 3, 2 * EafrCluster.BLOCK_SIZE, 500 + i);
      }
      for (int i = 0; i < 24; i++) {
        files.add("/data/one-copy-" + i);
        cluster.write(files.get(files.size() - 1), 1, EafrCluster.BLOCK_SIZE, 600 + i);
      }
      assertEveryBlockOnAPrimary(cluster, layout, files);

      int exit = BalancerCommand.run(cluster.conf(), "-threshold", "5");

      assertEveryBlockOnAPrimary(cluster, layout, files);
      assertThat(exit).as("the Balancer's exit code: it found DataNodes to even out and could move nothing")
          .isIn(BalancerCommand.code("NO_MOVE_PROGRESS"), BalancerCommand.code("NO_MOVE_BLOCK"));
      GearTestCluster.gears(cluster).service().requestGear(0);
      GearTestCluster.awaitGear(cluster, 0);
      assertThat(GearTestCluster.running(cluster)).containsExactlyInAnyOrderElementsOf(layout.serversOn(0).ids());
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
    }
  }

  private static void assertEveryBlockOnAPrimary(EafrCluster cluster, GearedLayout layout, List<String> files)
      throws Exception {
    for (String file : files) {
      for (List<String> holders : cluster.blockHolders(file)) {
        assertThat(holders).as("holders of a block of %s", file)
            .anyMatch(id -> layout.gearOf(layout.chain().requirePosition(id)) == 0);
      }
    }
  }
}
