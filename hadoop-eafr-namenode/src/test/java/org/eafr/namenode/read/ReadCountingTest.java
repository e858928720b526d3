package org.eafr.namenode.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.popularity.FileReads;
import org.eafr.placement.popularity.IntervalReads;
import org.junit.jupiter.api.Test;

/** Reads counted from a real NameNode: the audit logger sees each open, the reader ordering names its replica. */
class ReadCountingTest {

  @Test
  void everyOpenCountsOneRead_attributedToAReplicaOfTheFile() throws Exception {
    Configuration conf = EafrCluster.baseConf("reads");
    conf.set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, EafrNetworkTopology.class.getName());
    conf.set(DFSConfigKeys.DFS_NAMENODE_AUDIT_LOGGERS_KEY, "default," + ReadCountingAuditLogger.class.getName());
    try (EafrCluster cluster = EafrCluster.start(conf)) {
      assertThat(cluster.datanodeManager().getNetworkTopology()).isInstanceOf(EafrNetworkTopology.class);
      cluster.write("/data/read-me", 3, 4000, 1);
      cluster.write("/data/never-read", 3, 4000, 2);
      cluster.runtime().reads().snapshotAndReset();
      for (int i = 0; i < 12; i++) {
        try (FSDataInputStream in = cluster.fs().open(new Path("/data/read-me"))) {
          in.readFully(0, new byte[4000]);
        }
      }
      IntervalReads reads = cluster.runtime().reads().snapshotAndReset();
      FileReads file = reads.reads("/data/read-me");
      assertThat(file.readsLowerBound()).isEqualTo(12);
      assertThat(file.readsUpperBound()).isEqualTo(12);
      assertThat(file.unattributedReads()).isZero();
      Set<String> holders = new HashSet<>();
      for (DatanodeInfo dn : cluster.locations("/data/read-me").get(0)) {
        holders.add(dn.getIpAddr() + ":" + dn.getXferPort());
      }
      assertThat(holders).containsAll(file.recordedServers());
      long attributed = 0;
      for (String server : file.recordedServers()) {
        attributed += file.replicaReadsLowerBound(server);
      }
      assertThat(attributed).isEqualTo(12);
      assertThat(reads.reads("/data/never-read").readsUpperBound()).isZero();
      assertThat(List.copyOf(file.recordedServers())).hasSizeGreaterThan(1); // queued reads spread over replicas

      // v_ij goes to the replica the client gets listed first for the first block, the one it reads from first.
      Map<String, Long> listedFirst = new HashMap<>();
      for (int i = 0; i < 12; i++) {
        DatanodeInfo first = cluster.fs().getClient().getLocatedBlocks("/data/read-me", 0).get(0).getLocations()[0];
        listedFirst.merge(first.getIpAddr() + ":" + first.getXferPort(), 1L, Long::sum);
      }
      FileReads located = cluster.runtime().reads().snapshotAndReset().reads("/data/read-me");
      assertThat(located.recordedServers()).containsExactlyInAnyOrderElementsOf(listedFirst.keySet());
      for (Map.Entry<String, Long> server : listedFirst.entrySet()) {
        assertThat(located.replicaReadsLowerBound(server.getKey())).as(server.getKey()).isEqualTo(server.getValue());
      }
      cluster.verifyChecksums();
    }
  }
}
