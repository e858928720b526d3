package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.eafr.namenode.testing.EafrCluster;
import org.junit.jupiter.api.Test;

/**
 * The block part of the power-off guard costs the host's blocks, not the namespace: on a MiniDFSCluster with 24
 * single-replica files written for one DataNode and 3 two-replica files for two others (27 blocks), checking one of
 * the two judges exactly the blocks it holds, and a check of every DataNode refuses naming a block.
 */
class HostBlockScanTest {

  @Test
  void theCheckJudgesTheHostsBlocksOnly_notTheNamespace() throws Exception {
    try (EafrCluster cluster = EafrCluster.start(EafrCluster.baseConf("host-block-scan"),
        new String[] {"/r1", "/r1", "/r1"})) {
      for (int i = 0; i < 24; i++) {
        cluster.write("/elsewhere/f" + i, 1, 1000, i, cluster.dataNode(2));
      }
      for (int i = 0; i < 3; i++) {
        cluster.write("/host/f" + i, 2, 1000, 100 + i, cluster.dataNode(0), cluster.dataNode(1));
      }
      HostBlockScan scan = new HostBlockScan(cluster.nameNode());
      int held = cluster.descriptor(0).numBlocks();
      assertThat(held).as("the host holds a few of the namespace's 27 blocks").isBetween(1, 6);

      assertThat(scan.check(cluster.id(0), List.of(cluster.descriptor(0)))).isEmpty();
      assertThat(scan.judged()).as("exactly the host's blocks").isEqualTo(held);
      List<DatanodeDescriptor> all = List.of(cluster.descriptor(0), cluster.descriptor(1), cluster.descriptor(2));
      assertThat(scan.check("everything", all).orElseThrow())
          .as("with every DataNode switched off, the first block has no replica that stays on")
          .contains("refusing to power off everything: block blk_").contains("none of which stays on");
    }
  }
}
