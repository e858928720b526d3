package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.GearedLayout;
import org.junit.jupiter.api.Test;

/**
 * With {@code dfs.namenode.redundancy.considerLoad} on (HDFS's default), a nearly idle cluster: a few open pipelines
 * on each primary lift it above twice the average xceiver count, which HDFS's load rule refuses. New blocks still keep
 * their replica on a primary (gear 0), so gear 0 stays reachable.
 */
class GearConsiderLoadTest {
  /**
   * Open pipelines held on each primary: 4 of them against about 0.25 per DataNode from the test's own sequential
   * writes (reported by the last heartbeats) keep a primary above twice the average while the files are written.
   */
  private static final int PIPELINES_PER_PRIMARY = 4;

  @Test
  void layoutHomesAreNotDroppedForLoad_onASmallIdleCluster() throws Exception {
    Configuration conf = GearTestCluster.conf("gear-consider-load");
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_CONSIDERLOAD_KEY, true);
    EafrCluster cluster = GearTestCluster.start(conf);
    List<FSDataOutputStream> writers = new ArrayList<>();
    try {
      GearedLayout layout = GearTestCluster.layout(cluster);
      List<String> primaries = layout.serversOn(0).ids();
      for (String primary : primaries) {
        for (int pipeline = 0; pipeline < PIPELINES_PER_PRIMARY; pipeline++) {
          Path busy = new Path("/busy/" + primary.replace(':', '-') + "/" + pipeline);
          FSDataOutputStream out = GearTestCluster.createOn(cluster, busy, primary);
          out.write(new byte[512]);
          out.hflush();
          writers.add(out);
        }
      }
      GenericTestUtils.waitFor(() -> primaries.stream().allMatch(id -> busierThanTwiceTheAverage(cluster, id)), 100,
          60_000);

      for (int i = 0; i < 6; i++) {
        cluster.write("/data/f" + i, 3, EafrCluster.BLOCK_SIZE + 4096 * i, i);
        GearTestCluster.assertEqualWorkLayout(cluster, "/data/f" + i);
      }
      for (FSDataOutputStream out : writers) {
        out.close();
      }
      writers.clear();
      assertThat(GearTestCluster.gears(cluster).service().requestGear(0)).contains("gear 4 -> 0");
      GearTestCluster.awaitGear(cluster, 0);
      cluster.verifyChecksums();
    } finally {
      for (FSDataOutputStream out : writers) {
        out.close();
      }
      GearTestCluster.stop(cluster);
    }
  }

  /** What HDFS's load rule refuses: xceivers above dfs.namenode.redundancy.considerLoad.factor (2) x the average. */
  private static boolean busierThanTwiceTheAverage(EafrCluster cluster, String id) {
    double total = 0;
    List<DatanodeDescriptor> live = cluster.datanodeManager().getDatanodeListForReport(
        org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType.LIVE);
    for (DatanodeDescriptor dn : live) {
      total += dn.getXceiverCount();
    }
    return GearTestCluster.descriptor(cluster, id).getXceiverCount() > 2 * total / live.size();
  }

}
