package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.namenode.ha.HATestUtil;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.cluster.EafrRuntime;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.power.PowerDriver;
import org.eafr.placement.gear.GearedLayout;
import org.junit.jupiter.api.Test;

/**
 * An HA pair (12 DataNodes, 3 racks, equal-work): a gear-down to the minimum gear is held in POWERING_OFF (every
 * power-off waits on a latch; the standby has caught up with that phase), the active NameNode fails over to the
 * standby, the hold is released, and the new
 * active NameNode finishes the shift from the state the edit log carried: the 8 DataNodes of the upper gears stopped
 * and in maintenance there, every file read back with its content.
 */
class GearFailoverTest {

  @Test
  void failoverInTheMiddleOfAGearDownLosesNothing_andTheNewActiveFinishesTheShift() throws Exception {
    Configuration conf = GearTestCluster.conf("gear-failover");
    conf.setInt(DFSConfigKeys.DFS_HA_TAILEDITS_PERIOD_KEY, 1); // the standby tails the edit log every second
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).nnTopology(MiniDFSNNTopology.simpleHATopology())
        .numDataNodes(GearTestCluster.RACKS.length).racks(GearTestCluster.RACKS).build();
    MiniClusterPower.Hold hold = new MiniClusterPower.Hold();
    try {
      cluster.transitionToActive(0);
      cluster.waitActive();
      Map<String, PowerDriver> drivers = MiniClusterPower.drivers(cluster, hold);
      for (int nn = 0; nn < 2; nn++) {
        gears(cluster, nn).power(MiniClusterPower.manager(cluster, drivers));
      }
      GenericTestUtils.waitFor(() -> gears(cluster, 0).layout().isPresent(), 50, 30_000);
      DistributedFileSystem fs = HATestUtil.configureFailoverFs(cluster, conf);
      Map<Path, byte[]> files = new LinkedHashMap<>();
      for (int i = 0; i < 4; i++) {
        files.put(new Path("/data/f" + i), write(fs, new Path("/data/f" + i), 4096 * (i + 1), i));
      }

      gears(cluster, 0).service().requestGear(0);
      GenericTestUtils.waitFor(() -> hold.waiting() > 0, 50, 60_000);
      assertThat(gears(cluster, 0).state().phase()).isEqualTo(GearPhase.POWERING_OFF);
      // The standby has the held phase from the edit log (rolled, as HDFS does every dfs.ha.log-roll.period).
      HATestUtil.waitForStandbyToCatchUp(cluster.getNameNode(0), cluster.getNameNode(1));
      GenericTestUtils.waitFor(() -> gears(cluster, 1).state().phase() == GearPhase.POWERING_OFF, 50, 30_000);
      assertThat(cluster.getDataNodes()).hasSize(12); // held: nothing is off yet

      cluster.transitionToStandby(0);
      cluster.transitionToActive(1);
      hold.release();
      GenericTestUtils.waitFor(() -> {
        GearState state = gears(cluster, 1).state();
        return state.gear() == 0 && state.phase() == GearPhase.STEADY;
      }, 100, 120_000);

      GearedLayout layout = gears(cluster, 1).layout().orElseThrow();
      List<String> running = new ArrayList<>();
      for (DataNode dn : cluster.getDataNodes()) {
        running.add(ServerTranslator.idOf(dn.getDatanodeId()));
      }
      assertThat(running).containsExactlyInAnyOrderElementsOf(layout.serversOn(0).ids());
      for (String sleeping : layout.serversOn(layout.maximumGear()).minus(layout.serversOn(0)).ids()) {
        int colon = sleeping.lastIndexOf(':');
        DatanodeDescriptor dn = cluster.getNamesystem(1).getBlockManager().getDatanodeManager()
            .getDatanodeByXferAddr(sleeping.substring(0, colon), Integer.parseInt(sleeping.substring(colon + 1)));
        assertThat(dn.isInMaintenance()).as("%s in maintenance on the new active NameNode", sleeping).isTrue();
        // The drivers declare a stopped DataNode dead on NameNode 0 only; NameNode 1 sees its heartbeats expire.
        GenericTestUtils.waitFor(() -> !dn.isAlive(), 100, 60_000);
      }
      assertThat(gears(cluster, 1).state().sleeping()).hasSize(8);
      for (Map.Entry<Path, byte[]> file : files.entrySet()) {
        assertThat(read(fs, file.getKey(), file.getValue())).as("content of %s", file.getKey()).isTrue();
      }
      Path after = new Path("/low/after-failover");
      assertThat(read(fs, after, write(fs, after, 8192, 42))).as("a write in the minimum gear").isTrue();
    } finally {
      hold.release();
      for (int nn = 0; nn < 2; nn++) {
        if (gears(cluster, nn).power() != null) {
          gears(cluster, nn).power().close();
        }
        EafrRuntime.release(cluster.getNameNode(nn).getConf());
      }
      cluster.shutdown(true);
    }
  }

  private static GearRuntime gears(MiniDFSCluster cluster, int nn) {
    return EafrRuntime.of(cluster.getNameNode(nn).getConf()).gears();
  }

  /** Writes {@code bytes} seeded random bytes with 3 replicas, waits for them, and returns the bytes. */
  private static byte[] write(DistributedFileSystem fs, Path path, int bytes, long seed) throws Exception {
    byte[] data = new byte[bytes];
    new Random(seed).nextBytes(data);
    try (FSDataOutputStream out = fs.create(path, (short) 3)) {
      out.write(data);
    }
    DFSTestUtil.waitReplication(fs, path, (short) 3);
    return data;
  }

  /** Whether {@code path} reads back as {@code expected}. */
  private static boolean read(DistributedFileSystem fs, Path path, byte[] expected) throws java.io.IOException {
    byte[] data = new byte[(int) fs.getFileStatus(path).getLen()];
    try (FSDataInputStream in = fs.open(path)) {
      in.readFully(0, data);
    }
    return java.util.Arrays.equals(data, expected);
  }
}
