package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.HostConfigManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.cluster.EafrRuntime;
import org.eafr.namenode.hosts.EafrHostConfigManager;
import org.eafr.namenode.monitor.ReplicationMonitorPlugin;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.namenode.testing.MaintenanceHosts;
import org.eafr.placement.gear.GearedLayout;

/**
 * Twelve DataNodes on three racks with the equal-work layout: p = 4 primaries (on all three racks: the chain is
 * rack-interleaved) and gear groups of g = 2, so gears 0..4 keep 4, 6, 8, 10 and 12 DataNodes on, and each recovery
 * group spans racks. Hosts are switched by
 * {@link MiniClusterPower} (stop and restart the MiniDFSCluster DataNode) through the real power manager.
 */
public final class GearTestCluster {
  public static final String[] RACKS = {"/r1", "/r1", "/r1", "/r1", "/r2", "/r2", "/r2", "/r2", "/r3", "/r3", "/r3",
      "/r3"};

  private GearTestCluster() {
  }

  public static Configuration conf(String name) throws IOException {
    Configuration conf = EafrCluster.baseConf(name);
    MaintenanceHosts.configure(conf);
    conf.setClass(DFSConfigKeys.DFS_NAMENODE_HOSTS_PROVIDER_CLASSNAME_KEY, EafrHostConfigManager.class,
        HostConfigManager.class);
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    conf.set("eafr.interval.ms", "3600000");
    conf.set("eafr.layout", "equal-work");
    conf.set("eafr.gear.primaries", "4");
    conf.set("eafr.gear.group-size", "2");
    conf.set("eafr.gear.replicas", "3");
    conf.set("eafr.gear.expected-datanodes", String.valueOf(RACKS.length));
    conf.set("eafr.gear.step.ms", "100");
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_REPLICATION_MAX_STREAMS_KEY, 20);
    return conf;
  }

  public static EafrCluster start(Configuration conf) throws IOException, TimeoutException, InterruptedException {
    EafrCluster cluster = EafrCluster.start(conf, RACKS);
    cluster.runtime().gears().power(MiniClusterPower.manager(cluster.mini()));
    GenericTestUtils.waitFor(() -> cluster.runtime().gears().layout().isPresent(), 50, 30_000);
    return cluster;
  }

  /** Closes the cluster's power manager, then the cluster. */
  public static void stop(EafrCluster cluster) {
    GearRuntime gears = gears(cluster);
    if (gears.power() != null) {
      gears.power().close();
    }
    cluster.close();
  }

  public static GearRuntime gears(EafrCluster cluster) {
    return cluster.runtime().gears();
  }

  public static GearedLayout layout(EafrCluster cluster) {
    return gears(cluster).layout().orElseThrow();
  }

  /** Waits until the gear service has reached {@code gear} and is steady. */
  public static void awaitGear(EafrCluster cluster, int gear) throws TimeoutException, InterruptedException {
    GenericTestUtils.waitFor(() -> {
      GearState state = gears(cluster).state();
      return state.gear() == gear && state.phase() == GearPhase.STEADY;
    }, 100, 120_000);
  }

  /** The ids of the running DataNodes. */
  public static List<String> running(EafrCluster cluster) {
    List<String> ids = new ArrayList<>();
    for (DataNode dn : cluster.mini().getDataNodes()) {
      ids.add(org.eafr.namenode.cluster.ServerTranslator.idOf(dn.getDatanodeId()));
    }
    return ids;
  }

  /** Every block of {@code path} has exactly one replica on a primary (gear 0) and its others above it. */
  static void assertEqualWorkLayout(EafrCluster cluster, String path) throws IOException {
    GearedLayout layout = layout(cluster);
    for (List<String> holders : cluster.blockHolders(path)) {
      long onPrimaries = holders.stream().filter(id -> layout.gearOf(layout.chain().requirePosition(id)) == 0)
          .count();
      assertThat(holders).as("holders of a block of %s", path).hasSize(3).doesNotHaveDuplicates();
      assertThat(onPrimaries).as("replicas on primaries of a block of %s: %s", path, holders).isEqualTo(1);
    }
  }

  /** The NameNode's descriptor of the DataNode with core id {@code id} (host:transfer port). */
  static DatanodeDescriptor descriptor(EafrCluster cluster, String id) {
    int colon = id.lastIndexOf(':');
    return cluster.datanodeManager().getDatanodeByXferAddr(id.substring(0, colon),
        Integer.parseInt(id.substring(colon + 1)));
  }

  /**
   * Moves the only replica of the one-block file {@code path} to DataNode {@code to} (as a Balancer run would) and
   * waits until the block map shows it there alone.
   */
  static void moveOnlyReplica(EafrCluster cluster, String path, String to) throws Exception {
    LocatedBlock located = cluster.mini().getNameNodeRpc().getBlockLocations(path, 0, 1).get(0);
    new BlockMover(cluster.mini().getNamesystem().getBlockManager()).move(located.getBlock().getLocalBlock(),
        located.getLocations()[0], descriptor(cluster, to));
    GenericTestUtils.waitFor(() -> {
      try {
        return cluster.holders(path).equals(List.of(to));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }, 100, 30_000);
  }

  /** Restarts the NameNode with its EAFR state forgotten, and gives the new one the same power drivers. */
  static void restartNameNode(EafrCluster cluster) throws Exception {
    restartNameNode(cluster, null);
  }

  /** The same, the new NameNode's power manager switching {@code drivers} (null: one driver per running DataNode). */
  static void restartNameNode(EafrCluster cluster, java.util.Map<String, org.eafr.namenode.power.PowerDriver> drivers)
      throws Exception {
    GearRuntime before = gears(cluster);
    before.power().close();
    cluster.mini().getNameNode().stop();
    EafrRuntime.release(cluster.mini().getNameNode().getConf());
    cluster.mini().restartNameNode(false);
    cluster.mini().waitActive(); // also drops the clients' connections to the old NameNode process
    cluster.runtime().gears().power(drivers == null ? MiniClusterPower.manager(cluster.mini())
        : MiniClusterPower.manager(cluster.mini(), drivers));
    GenericTestUtils.waitFor(() -> !cluster.mini().getNamesystem().isInSafeMode(), 100, 60_000);
  }
}
