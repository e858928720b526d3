package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.HostConfigManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.hosts.EafrHostConfigManager;
import org.eafr.namenode.monitor.ReplicationMonitorPlugin;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.power.PowerDriver;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.namenode.testing.MaintenanceHosts;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.accordion.AccordionLayout;
import org.eafr.placement.gear.shift.ShiftPhase;

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
    // Every DataNode these tests stop is declared dead at once (MiniClusterPower, EafrCluster#kill), so HDFS's own
    // expiry only has to spare running ones. With the base 0.5 s recheck, an 11 s pause of a loaded 2-core CI machine
    // declares a running primary dead, and the gear service rightly wakes its recovery group: the likely cause of a CI
    // run that reached gear 0 with 5 DataNodes on (not reproduced here). 15 s makes the expiry 2 x 15 + 10 x 1 = 40 s.
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_KEY, 15_000);
    return conf;
  }

  /**
   * The same for auto mode: opens counted by the read-counting audit logger, a decision every 200 ms, and a minimum
   * dwell time of {@code dwellMillis}.
   */
  public static Configuration autoConf(String name, long dwellMillis) throws IOException {
    Configuration conf = conf(name);
    conf.set(DFSConfigKeys.DFS_NAMENODE_AUDIT_LOGGERS_KEY, "default,"
        + org.eafr.namenode.read.ReadCountingAuditLogger.class.getName());
    conf.set("eafr.gear.auto.interval.ms", "200");
    conf.set("eafr.gear.min-dwell.ms", String.valueOf(dwellMillis));
    return conf;
  }

  /**
   * Each cluster's power drivers, kept for its life: a driver remembers the DataNode it stopped, so a NameNode restarted
   * while hosts are off gets the same drivers back and can switch those hosts on again.
   */
  private static final Map<EafrCluster, Map<String, PowerDriver>> DRIVERS =
      java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());

  public static EafrCluster start(Configuration conf) throws IOException, TimeoutException, InterruptedException {
    EafrCluster cluster = EafrCluster.start(conf, RACKS);
    Map<String, PowerDriver> drivers = MiniClusterPower.drivers(cluster.mini(), null);
    DRIVERS.put(cluster, drivers);
    cluster.runtime().gears().power(MiniClusterPower.manager(cluster.mini(), drivers));
    GenericTestUtils.waitFor(() -> cluster.runtime().gears().layout().isPresent(), 50, 30_000);
    return cluster;
  }

  /**
   * An HA pair of NameNodes over the same DataNodes; the power managers of both share one driver per DataNode (each
   * power-off waiting on {@code hold} when there is one), so whichever NameNode is active switches the same hosts.
   */
  public static EafrCluster startHa(Configuration conf, MiniClusterPower.Hold hold)
      throws IOException, TimeoutException, InterruptedException {
    EafrCluster cluster = EafrCluster.startHa(conf, RACKS);
    Map<String, PowerDriver> drivers = MiniClusterPower.drivers(cluster.mini(), hold);
    for (int nn = 0; nn < cluster.mini().getNumNameNodes(); nn++) {
      cluster.runtime(nn).gears().power(MiniClusterPower.manager(cluster.mini(), drivers));
    }
    GenericTestUtils.waitFor(() -> cluster.runtime().gears().layout().isPresent(), 50, 30_000);
    return cluster;
  }

  /**
   * Starts one DataNode per entry of {@code racks} in the running cluster and gives the NameNode a power manager whose
   * inventory lists them too (as an operator adds the new hosts to the inventory); waits until they have joined the
   * expansion chain.
   */
  static void addDataNodes(EafrCluster cluster, String... racks) throws Exception {
    int before = gears(cluster).state().chain().size();
    cluster.mini().startDataNodes(cluster.conf(), racks.length, true, null, racks);
    cluster.mini().waitActive();
    gears(cluster).power().close();
    Map<String, PowerDriver> drivers = DRIVERS.computeIfAbsent(cluster, c -> new java.util.LinkedHashMap<>());
    MiniClusterPower.drivers(cluster.mini(), null).forEach(drivers::putIfAbsent);
    gears(cluster).power(MiniClusterPower.manager(cluster.mini(), drivers));
    GenericTestUtils.waitFor(() -> gears(cluster).state().chain().size() == before + racks.length, 100, 30_000);
  }

  /** Closes the power manager of every NameNode of the cluster, then the cluster. */
  public static void stop(EafrCluster cluster) {
    for (int nn = 0; nn < cluster.mini().getNumNameNodes(); nn++) {
      if (cluster.mini().getNameNode(nn) == null) { // a restart that failed: keep the test's own error in view
        continue;
      }
      GearRuntime gears = cluster.runtime(nn).gears();
      if (gears.power() != null) {
        gears.power().close();
      }
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
      GearRecord state = gears(cluster).state();
      return state.gear() == gear && state.phase() == ShiftPhase.STEADY;
    }, 100, 120_000);
  }

  /** The active NameNode's /prom page (with {@code hadoop.prometheus.endpoint.enabled}). */
  public static String prom(EafrCluster cluster) throws IOException {
    java.net.HttpURLConnection http = (java.net.HttpURLConnection) new java.net.URL("http://"
        + org.apache.hadoop.net.NetUtils.getHostPortString(cluster.mini().getNameNode().getHttpAddress()) + "/prom")
        .openConnection();
    try (java.io.InputStream in = http.getInputStream()) {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } finally {
      http.disconnect();
    }
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

  /** Opens {@code path} for write with one replica, its pipeline on the DataNode {@code id} (a favored node). */
  static org.apache.hadoop.fs.FSDataOutputStream createOn(EafrCluster cluster, org.apache.hadoop.fs.Path path,
      String id) throws IOException {
    int colon = id.lastIndexOf(':');
    java.net.InetSocketAddress[] favored = {new java.net.InetSocketAddress(id.substring(0, colon),
        Integer.parseInt(id.substring(colon + 1)))};
    return cluster.fs().create(path, org.apache.hadoop.fs.permission.FsPermission.getFileDefault(), true, 4096,
        (short) 1, EafrCluster.BLOCK_SIZE, null, favored);
  }

  /**
   * The same cluster with Accordion's layout: a lowest group of 3 (one DataNode per rack, as the chain is
   * rack-interleaved) growing by 2, so groups of 3, 6 and 3 DataNodes and gears 0..2 keep 3, 9 and 12 on.
   */
  public static Configuration accordionConf(String name) throws IOException {
    Configuration conf = conf(name);
    conf.set("eafr.layout", "accordion");
    conf.set("eafr.gear.accordion.lowest-group", "3");
    return conf;
  }

  /** Every block of {@code path} is on exactly the homes Accordion gives one primary (its target layout). */
  static void assertAccordionLayout(EafrCluster cluster, String path) throws IOException {
    AccordionLayout layout = (AccordionLayout) layout(cluster);
    for (List<String> holders : cluster.blockHolders(path)) {
      Set<Integer> held = holders.stream().map(layout.chain()::requirePosition).collect(Collectors.toSet());
      boolean atHome = IntStream.range(0, layout.chain().size()).anyMatch(primary ->
          Arrays.stream(layout.homesOf(primary)).boxed().collect(Collectors.toSet()).equals(held));
      assertThat(holders).as("holders of a block of %s", path).hasSize(3).doesNotHaveDuplicates();
      assertThat(atHome).as("holders %s of a block of %s are the homes of one primary", holders, path).isTrue();
    }
  }

  /**
   * Writes a replication-1 file whose only replica a balancer run moved to {@code sleeper} (a DataNode gear 0 does not
   * keep on), and checks that gear 0 is refused naming the file, its block and the DataNode, with nothing changed (the
   * gear state, every DataNode running and in service); then deletes the file.
   */
  static void assertGearZeroRefusedForAStrandedFile(EafrCluster cluster, String sleeper) throws Exception {
    String scratch = "/scratch/one-copy";
    cluster.write(scratch, 1, 4096, 99);
    LocatedBlock located = cluster.mini().getNameNodeRpc().getBlockLocations(scratch, 0, 1).get(0);
    moveOnlyReplica(cluster, scratch, sleeper);
    GearRecord before = gears(cluster).state();

    assertThatThrownBy(() -> gears(cluster).service().requestGear(0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("gear 0 refused").hasMessageContaining("file " + scratch)
        .hasMessageContaining(located.getBlock().getLocalBlock().getBlockName()).hasMessageContaining(sleeper);

    assertThat(gears(cluster).state()).isEqualTo(before);
    assertThat(running(cluster)).hasSize(RACKS.length);
    for (DatanodeInfo dn : cluster.mini().getNameNodeRpc().getDatanodeReport(DatanodeReportType.ALL)) {
      assertThat(dn.isInService()).as("%s in service", dn).isTrue();
    }
    cluster.delete(scratch);
  }

  /**
   * After a shift to gear 0: exactly its DataNodes run, every other one is in maintenance and stopped, and every file
   * reads back with its checksum; then {@code files} are written (replication 3) onto gear 0's DataNodes only.
   */
  static void assertAsleepThenWrite(EafrCluster cluster, List<String> files) throws IOException {
    GearedLayout layout = layout(cluster);
    ActiveSet lowest = layout.serversOn(0);
    GearCounters counters = gears(cluster).counters();
    assertThat(running(cluster)).as("DataNodes running in gear 0 (wakes for failures %d, for blocks %d, power"
        + " failures %d)", counters.wakesForFailures.get(), counters.wakesForBlocks.get(), counters.powerFailures.get())
        .containsExactlyInAnyOrderElementsOf(lowest.ids());
    for (String sleeping : ActiveSet.all(layout.chain()).minus(lowest).ids()) {
      DatanodeDescriptor dn = descriptor(cluster, sleeping);
      assertThat(dn.isInMaintenance()).as("%s in maintenance", sleeping).isTrue();
      assertThat(dn.isAlive()).as("%s stopped", sleeping).isFalse();
    }
    cluster.verifyChecksums();
    for (int i = 0; i < files.size(); i++) {
      cluster.write(files.get(i), 3, EafrCluster.BLOCK_SIZE + 512 * i, 100 + i);
      assertThat(cluster.holders(files.get(i))).allMatch(lowest::contains);
    }
    cluster.verifyChecksums();
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

  /**
   * The same, the new NameNode's power manager switching {@code drivers} (null: the drivers the cluster started with,
   * so hosts switched off before the restart are in the new inventory too).
   */
  static void restartNameNode(EafrCluster cluster, Map<String, PowerDriver> drivers)
      throws Exception {
    GearRuntime before = gears(cluster);
    before.power().close();
    cluster.mini().getNameNode().stop();
    EafrRuntime.release(cluster.mini().getNameNode().getConf());
    // Safe mode outlasts the power manager's install below: a step taken first would find no power inventory and
    // count a gear-down's leaving DataNodes asleep without switching them off.
    cluster.mini().getConfiguration(0).setInt(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_EXTENSION_KEY, 2_000);
    cluster.mini().restartNameNode(false);
    cluster.mini().waitActive(); // also drops the clients' connections to the old NameNode process
    Map<String, PowerDriver> kept = drivers != null ? drivers
        : DRIVERS.getOrDefault(cluster, MiniClusterPower.drivers(cluster.mini(), null));
    cluster.runtime().gears().power(MiniClusterPower.manager(cluster.mini(), kept));
    GenericTestUtils.waitFor(() -> !cluster.mini().getNamesystem().isInSafeMode(), 100, 60_000);
  }
}
