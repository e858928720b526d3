package org.eafr.namenode.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManagerTestUtil;
import org.apache.hadoop.hdfs.server.blockmanagement.HostConfigManager;
import org.apache.hadoop.ipc.RefreshResponse;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminHandler;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.config.ColdSleepSettings;
import org.eafr.namenode.hosts.EafrHostConfigManager;
import org.eafr.namenode.monitor.ReplicationMonitorPlugin;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.power.PowerDriver;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.PowerState;
import org.eafr.namenode.power.DataNodePowerState;
import org.eafr.namenode.read.EafrNetworkTopology;
import org.eafr.namenode.read.ReadCountingAuditLogger;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.namenode.testing.MaintenanceHosts;
import org.junit.jupiter.api.Test;

/**
 * EAFR's cold servers sleeping for real on a MiniDFSCluster with the random layout: the replication monitor turns the
 * nearly full standby DataNode 2 cold (Eq. 8, a storage reserve larger than any disk), HDFS puts it IN_MAINTENANCE,
 * and the cold-sleep service switches its host off through the real power manager and guard (the MiniDFSCluster
 * driver stops the DataNode). Then DataNode 3, which held the other replica of /data/a, dies: a read of /data/a finds
 * no live replica, the service wakes DataNode 2, it leaves maintenance once registered, and the read returns the
 * written bytes. A refusal: with the other replica gone before the power-off, the guard refuses and says why.
 */
class ColdSleepClusterTest {
  private static final String[] RACKS = {"/r1", "/r2", "/r1", "/r2"};
  private static final int COLD = 2;
  private static final int OTHER_HOLDER = 3;
  private static final int BYTES = 3000;

  @Test
  void aColdServer_isSwitchedOff_andWokenForAReadThatFindsNoLiveReplica() throws Exception {
    try (EafrCluster cluster = start("cold-sleep-read")) {
      PowerManager power = MiniClusterPower.manager(cluster.mini());
      cluster.runtime().gears().power(power);
      try {
        turnCold(cluster);
        GenericTestUtils.waitFor(() -> step(cluster) && cluster.runtime().coldHosts().asleep()
            .contains(cluster.id(COLD)), 100, 60_000);

        assertThat(power.status(cluster.id(COLD)).lastKnown()).isEqualTo(PowerState.OFF);
        assertThat(cluster.mini().getDataNodes()).noneMatch(dn -> dn.getXferPort() == port(cluster, COLD));
        assertThat(cluster.runtime().coldHosts().states().get(cluster.id(COLD))).startsWith("ASLEEP");
        assertThat(status(cluster)).contains("cold servers sleep (eafr.cold.power-off = true)")
            .contains("cold " + cluster.id(COLD) + ": ASLEEP");
        var sample = cluster.runtime().energy().sample();
        assertThat(sample.nodes().get(cluster.id(COLD)).powerState()).isEqualTo(DataNodePowerState.OFF);
        assertThat(sample.sample().watts()).isLessThan(sample.sample().allOnWatts());

        cluster.kill(OTHER_HOLDER); // /data/a's only replica left sleeps on the cold server
        CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> readPatiently(cluster, "/data/a"));
        GenericTestUtils.waitFor(() -> step(cluster) && read.isDone(), 100, 120_000);

        assertThat(digest(read.get(1, TimeUnit.SECONDS))).isEqualTo(digest(bytes(1)));
        assertThat(cluster.runtime().coldHosts().asleep()).isEmpty();
        assertThat(cluster.runtime().coldHosts().states().get(cluster.id(COLD))).startsWith("AWAKE")
            .contains("block blk_").contains("has no live replica");
        assertThat(cluster.descriptor(COLD).isInService()).isTrue();
        assertThat(cluster.runtime().roles().isSleeping(cluster.id(COLD))).isFalse();
        assertThat(power.status(cluster.id(COLD)).lastKnown()).isEqualTo(PowerState.ON);
        cluster.monitor().round(); // still a nearly full standby, but held in service for eafr.cold.awake.ms
        assertThat(cluster.runtime().roles().isSleeping(cluster.id(COLD))).isFalse();
        cluster.verifyChecksums();
      } finally {
        cluster.runtime().gears().power(null);
        power.close();
      }
    }
  }

  /**
   * A standby that turned cold before it held any block sleeps until something needs it: this NameNode saw it go to
   * sleep empty, so its empty entry in the block map is no sign of replicas it never reported.
   */
  @Test
  void anEmptyColdServer_staysAsleep_andIsNotWokenForABlockReport() throws Exception {
    try (EafrCluster cluster = EafrCluster.start(conf("cold-sleep-empty"), RACKS)) {
      cluster.write("/data/b", 2, BYTES, 2, cluster.dataNode(0), cluster.dataNode(1));
      cluster.standby(COLD);
      PowerManager power = MiniClusterPower.manager(cluster.mini());
      cluster.runtime().gears().power(power);
      try {
        turnCold(cluster);
        GenericTestUtils.waitFor(() -> step(cluster) && cluster.runtime().coldHosts().asleep()
            .contains(cluster.id(COLD)), 100, 60_000);
        assertThat(cluster.descriptor(COLD).isAlive()).isFalse();
        assertThat(cluster.descriptor(COLD).numBlocks()).isZero();

        for (int i = 0; i < 3; i++) {
          step(cluster);
        }

        assertThat(cluster.runtime().coldHosts().states().get(cluster.id(COLD))).startsWith("ASLEEP");
        assertThat(power.status(cluster.id(COLD)).lastKnown()).isEqualTo(PowerState.OFF);
      } finally {
        cluster.runtime().gears().power(null);
        power.close();
      }
    }
  }

  @Test
  void aColdServerHoldingABlocksOnlyLiveReplica_isRefusedWithTheReason_andStaysOn() throws Exception {
    // Two DataNodes: once the hot one is gone, HDFS has nowhere to re-replicate /data/a to.
    try (EafrCluster cluster = start("cold-sleep-refused", new String[] {"/r1", "/r2", "/r2"}, COLD, 0)) {
      PowerManager power = MiniClusterPower.manager(cluster.mini());
      cluster.runtime().gears().power(power);
      try {
        turnCold(cluster);
        cluster.kill(0); // in maintenance already; now the cold server holds /data/a's only live replica
        cluster.kill(1);
        GenericTestUtils.waitFor(() -> step(cluster) && String.valueOf(cluster.runtime().coldHosts().states()
            .get(cluster.id(COLD))).startsWith("REFUSED"), 100, 60_000);

        assertThat(cluster.runtime().coldHosts().states().get(cluster.id(COLD)))
            .contains("power-off refused, stays on in maintenance")
            .contains("would have no live replica on a server that stays on");
        assertThat(status(cluster)).contains("cold " + cluster.id(COLD) + ": REFUSED");
        assertThat(cluster.runtime().coldHosts().asleep()).isEmpty();
        assertThat(cluster.mini().getDataNodes()).anyMatch(dn -> dn.getXferPort() == port(cluster, COLD));
        assertThat(cluster.descriptor(COLD).isAlive()).isTrue();
      } finally {
        cluster.runtime().gears().power(null);
        power.close();
      }
    }
  }

  /**
   * The sleepers are persisted in the namespace: a restarted NameNode (a new EAFR runtime, nothing kept in memory)
   * holds re-replication back and wakes the switched-off cold server to report its replicas, so nothing is copied; a
   * configuration that would not look after it is refused at startup naming it; after eafr.cold.awake.ms it goes back
   * into maintenance and is switched off through the guard again; a week later it is woken for its consistency check.
   */
  @Test
  void aSwitchedOffColdServer_survivesANameNodeRestart_andIsWokenForItsConsistencyCheck() throws Exception {
    try (EafrCluster cluster = start("cold-sleep-restart")) {
      Map<String, PowerDriver> drivers = MiniClusterPower.drivers(cluster.mini(), null);
      cluster.runtime().gears().power(MiniClusterPower.manager(cluster.mini(), drivers));
      turnCold(cluster);
      GenericTestUtils.waitFor(() -> step(cluster) && cluster.runtime().coldHosts().asleep()
          .contains(cluster.id(COLD)), 100, 60_000);

      cluster.runtime().gears().power().close();
      cluster.mini().getNameNode().stop();
      EafrRuntime.release(cluster.mini().getNameNode().getConf());
      // The new NameNode's runtime has its power manager from the start, as one built from an inventory file has.
      PowerManager power = MiniClusterPower.manager(cluster.mini(), drivers);
      EafrRuntime.of(cluster.mini().getNameNode().getConf()).gears().power(power);
      cluster.mini().restartNameNode(false);
      cluster.mini().waitActive();
      try {
        GenericTestUtils.waitFor(() -> !cluster.mini().getNamesystem().isInSafeMode(), 100, 60_000);
        assertThat(cluster.runtime().coldHosts().asleep()).isEmpty(); // a new runtime: nothing in memory
        assertThat(cluster.runtime().coldHosts().holdReReplication()).as("held from the start").isTrue();
        assertThatThrownBy(() -> ColdSleep.start(cluster.nameNode(), cluster.runtime(),
            ColdSleepSettings.from(Map.of("eafr.cold.power-off", "false")::get), true, () -> true))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining(cluster.id(COLD)).hasMessageContaining("eafr.cold.power-off is false");

        // The test steps its own service, on a clock it moves (the plugin's steps once an hour).
        MovableClock clock = new MovableClock(Duration.ZERO);
        ColdSleep service = new ColdSleep(cluster.nameNode(), cluster.runtime(), cluster.runtime().settings()
            .coldSleep(), clock, () -> true);
        service.step();
        assertThat(cluster.runtime().coldHosts().asleep()).containsExactly(cluster.id(COLD));
        assertThat(cluster.runtime().roles().isSleeping(cluster.id(COLD))).isTrue();
        assertThat(cluster.runtime().coldHosts().states().get(cluster.id(COLD))).startsWith("WAKING")
            .contains("its block report: this NameNode holds none of its replicas");
        // /data/a looks short of a replica here (only DataNode 3's is known), but HDFS schedules no copy of it.
        BlockManager blocks = cluster.mini().getNamesystem().getBlockManager();
        BlockManagerTestUtil.checkRedundancy(blocks);
        assertThat(BlockManagerTestUtil.computeAllPendingWork(blocks)).isZero();

        stepUntil(service, () -> cluster.runtime().coldHosts().states().get(cluster.id(COLD)).startsWith("AWAKE"));
        assertThat(cluster.runtime().coldHosts().holdReReplication()).isFalse();
        assertThat(cluster.holders("/data/a")).containsExactlyInAnyOrder(cluster.id(COLD), cluster.id(OTHER_HOLDER));

        clock.advance(Duration.ofMillis(cluster.runtime().settings().coldSleep().awakeMillis())); // the hold is over
        stepUntil(service, () -> cluster.runtime().coldHosts().asleep().contains(cluster.id(COLD)));
        assertThat(cluster.runtime().coldHosts().states().get(cluster.id(COLD))).startsWith("ASLEEP");
        assertThat(power.status(cluster.id(COLD)).lastKnown()).isEqualTo(PowerState.OFF);

        clock.advance(Duration.ofDays(8)); // past eafr.cold.consistency-check.interval.ms
        stepUntil(service, () -> cluster.runtime().coldHosts().states().get(cluster.id(COLD)).startsWith("AWAKE"));
        assertThat(cluster.runtime().coldHosts().states().get(cluster.id(COLD))).contains("its consistency check");
        assertThat(cluster.descriptor(COLD).isInService()).isTrue();
        cluster.verifyChecksums();
      } finally {
        cluster.runtime().gears().power(null);
        power.close();
      }
    }
  }

  /**
   * A failover: the NameNode that becomes active reads the sleepers from the edit-logged xattr at its first step, keeps
   * the switched-off cold server in maintenance, holds re-replication back (it dropped that server's replicas when it
   * went dead) and wakes it to report; then the block is whole again with nothing copied.
   */
  @Test
  void aSwitchedOffColdServer_isKeptAsleepByTheNameNodeThatTakesOver() throws Exception {
    Configuration conf = conf("cold-sleep-failover");
    EafrCluster cluster = EafrCluster.startHa(conf, RACKS);
    PowerManager power = MiniClusterPower.manager(cluster.mini()); // follows whichever NameNode is active
    try {
      cluster.runtime(0).gears().power(power);
      cluster.runtime(1).gears().power(power);
      writeFiles(cluster, COLD, OTHER_HOLDER);
      turnCold(cluster);
      GenericTestUtils.waitFor(() -> step(cluster) && cluster.runtime().coldHosts().asleep()
          .contains(cluster.id(COLD)), 100, 60_000);

      // The standby's steps (every eafr.cold.step.ms) read the record once tailed and hold re-replication for a takeover.
      org.apache.hadoop.hdfs.server.namenode.ha.HATestUtil.waitForStandbyToCatchUp(cluster.mini().getNameNode(0),
          cluster.mini().getNameNode(1));
      GenericTestUtils.waitFor(() -> {
        cluster.runtime(1).coldHosts().stepNow();
        return cluster.runtime(1).coldHosts().holdReReplication();
      }, 100, 60_000);
      cluster.failover();
      assertThat(cluster.runtime(1).coldHosts().asleep()).isEmpty(); // nothing shared but the namespace
      // Its steps wait until the DataNodes' storages have reported to it (the replica map settled), then restore.
      GenericTestUtils.waitFor(() -> {
        cluster.runtime(1).coldHosts().stepNow();
        return !cluster.runtime(1).coldHosts().asleep().isEmpty();
      }, 100, 60_000);

      assertThat(cluster.runtime(1).coldHosts().asleep()).containsExactly(cluster.id(COLD));
      assertThat(cluster.runtime(1).roles().isSleeping(cluster.id(COLD))).isTrue();
      assertThat(cluster.runtime(1).coldHosts().states().get(cluster.id(COLD))).startsWith("WAKING")
          .contains("its block report");
      assertThat(cluster.runtime(1).coldHosts().holdReReplication()).isTrue();
      BlockManager blocks = cluster.mini().getNamesystem(1).getBlockManager();
      BlockManagerTestUtil.checkRedundancy(blocks);
      assertThat(BlockManagerTestUtil.computeAllPendingWork(blocks)).isZero();

      GenericTestUtils.waitFor(() -> {
        cluster.runtime(1).coldHosts().stepNow();
        return cluster.runtime(1).coldHosts().states().get(cluster.id(COLD)).startsWith("AWAKE");
      }, 100, 60_000);
      assertThat(cluster.runtime(1).coldHosts().holdReReplication()).isFalse();
      assertThat(cluster.holders("/data/a")).containsExactlyInAnyOrder(cluster.id(COLD), cluster.id(OTHER_HOLDER));
    } finally {
      power.close();
      cluster.close();
    }
  }

  private static void stepUntil(ColdSleep service, java.util.function.BooleanSupplier done) throws Exception {
    GenericTestUtils.waitFor(() -> {
      try {
        service.step();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return done.getAsBoolean();
    }, 100, 120_000);
  }

  /** The system clock moved ahead by an offset the test sets. */
  private static final class MovableClock extends Clock {
    private volatile Duration offset;

    MovableClock(Duration offset) {
      this.offset = offset;
    }

    void advance(Duration by) {
      offset = offset.plus(by);
    }

    @Override
    public java.time.ZoneId getZone() {
      return java.time.ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return zone.equals(getZone()) ? this : Clock.offset(Clock.system(zone), offset);
    }

    @Override
    public java.time.Instant instant() {
      return Clock.systemUTC().instant().plus(offset);
    }
  }

  /**
   * Four DataNodes on two racks (even on /r1, odd on /r2), DataNode 2 standby and every server nearly full (tau_s of 1 PiB); /data/a on
   * DataNodes 2 and 3, /data/b on 0 and 1. The cold-sleep service steps only when the test says.
   */
  private static EafrCluster start(String name) throws IOException {
    return start(name, RACKS, COLD, OTHER_HOLDER);
  }

  private static EafrCluster start(String name, String[] racks, int cold, int other) throws IOException {
    EafrCluster cluster = EafrCluster.start(conf(name), racks);
    writeFiles(cluster, cold, other);
    return cluster;
  }

  /** The random layout, the replication monitor, maintenance through EafrHostConfigManager, cold sleep on. */
  private static Configuration conf(String name) throws IOException {
    Configuration conf = EafrCluster.baseConf(name);
    conf.set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, EafrNetworkTopology.class.getName());
    conf.set(DFSConfigKeys.DFS_NAMENODE_AUDIT_LOGGERS_KEY, "default," + ReadCountingAuditLogger.class.getName());
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    conf.set("eafr.interval.ms", "3600000");
    conf.set("eafr.storage-reserve.bytes", String.valueOf(1L << 50));
    conf.set("eafr.cold.power-off", "true");
    conf.set("eafr.cold.step.ms", "3600000");
    conf.set("eafr.cold.awake.ms", "3600000");
    conf.set("eafr.energy.sample.ms", "3600000");
    MaintenanceHosts.configure(conf);
    conf.setClass(DFSConfigKeys.DFS_NAMENODE_HOSTS_PROVIDER_CLASSNAME_KEY, EafrHostConfigManager.class,
        HostConfigManager.class);
    return conf;
  }

  private static void writeFiles(EafrCluster cluster, int cold, int other) throws IOException {
    // Written while every DataNode is hot, so the favoured nodes hold the replicas; then DataNode `cold` is standby.
    cluster.write("/data/a", 2, BYTES, 1, cluster.dataNode(cold), cluster.dataNode(other));
    cluster.write("/data/b", 2, BYTES, 2, cluster.dataNode(0), cluster.dataNode(1));
    assertThat(cluster.holders("/data/a")).containsExactlyInAnyOrder(cluster.id(cold), cluster.id(other));
    cluster.standby(cold);
  }

  /** One replication round turns the standby cold; HDFS then shows it IN_MAINTENANCE. */
  private static void turnCold(EafrCluster cluster) throws Exception {
    cluster.monitor().round();
    assertThat(cluster.runtime().roles().isSleeping(cluster.id(COLD))).isTrue();
    GenericTestUtils.waitFor(() -> inMaintenance(cluster), 100, 60_000);
  }

  private static boolean step(EafrCluster cluster) {
    cluster.runtime().coldHosts().stepNow();
    return true;
  }

  /** A client that keeps asking for locations (every 100 ms or so) while the block has none. */
  private static byte[] readPatiently(EafrCluster cluster, String path) {
    Configuration conf = new Configuration(cluster.conf());
    conf.setInt(HdfsClientConfigKeys.DFS_CLIENT_MAX_BLOCK_ACQUIRE_FAILURES_KEY, 200);
    conf.setInt(HdfsClientConfigKeys.Retry.WINDOW_BASE_KEY, 100);
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    try (FileSystem fs = FileSystem.get(cluster.mini().getURI(), conf);
        FSDataInputStream in = fs.open(new Path(path))) {
      byte[] data = new byte[BYTES];
      in.readFully(0, data);
      return data;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String status(EafrCluster cluster) {
    RefreshResponse answer = new AdminHandler(cluster.nameNode(), cluster.runtime())
        .handleRefresh(AdminHandler.IDENTIFIER, new String[] {"status"});
    assertThat(answer.getReturnCode()).as(answer.getMessage()).isZero();
    return answer.getMessage();
  }

  private static boolean inMaintenance(EafrCluster cluster) {
    try {
      return cluster.descriptor(COLD).isInMaintenance();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static int port(EafrCluster cluster, int index) {
    String id = cluster.id(index);
    return Integer.parseInt(id.substring(id.lastIndexOf(':') + 1));
  }

  private static byte[] bytes(long seed) {
    byte[] data = new byte[BYTES];
    new Random(seed).nextBytes(data);
    return data;
  }

  private static byte[] digest(byte[] data) throws Exception {
    return MessageDigest.getInstance("SHA-256").digest(data);
  }
}
