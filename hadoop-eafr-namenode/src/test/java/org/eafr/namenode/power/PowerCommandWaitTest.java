package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.monitor.ReplicationMonitorPlugin;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.eafr.namenode.testing.EafrCluster;
import org.junit.jupiter.api.Test;

/**
 * {@code hdfs eafr power on HOST} holds no IPC handler while the BMC works: against a real BMC (ipmi_sim, ipmitool)
 * whose host takes its time to come on, the NameNode accepts the command at once and the tool waits for the outcome
 * on its own side; meanwhile other {@code hdfs eafr} calls are answered (Hadoop's refresh registry serves one call at
 * a time, so a handler that waited would hold them all). The tool then prints the outcome once the host is on.
 */
class PowerCommandWaitTest {
  private static final String PASSWORD = "Bmc-pw-wait-3c1e";
  private static final Duration PROMPTLY = Duration.ofSeconds(10);

  @Test
  void powerOn_isFollowedByTheTool_whileOtherVerbsAreAnswered() throws Exception {
    Path dir = TestDirs.create("power-wait");
    try (EafrCluster cluster = cluster("power-wait");
        IpmiSimBmc bmc = IpmiSimBmc.start(dir, PASSWORD);
        PowerManager power = manager(dir, bmc.port())) {
      bmc.stick(); // the host takes the command but comes on only when the test says so
      cluster.runtime().gears().power(power);
      try {
        CompletableFuture<AdminRun> on = CompletableFuture.supplyAsync(() -> run(cluster.conf(), "power", "on",
            "dn1", "-timeout", "120"));
        GenericTestUtils.waitFor(() -> told(bmc), 50, 60_000);
        assertThat(bmc.told()).as("the BMC was told to power on").containsExactly("set power 1");

        // far below the 30 s a handler waiting for the host would hold Hadoop's refresh registry
        AdminRun status = assertTimeoutPreemptively(PROMPTLY, () -> run(cluster.conf(), "status"));
        assertThat(status.code).as(status.err).isZero();
        AdminRun hostStatus = run(cluster.conf(), "power", "status", "dn1", "-json");
        assertThat(hostStatus.code).as(hostStatus.err).isZero();
        assertThat(on).as("other verbs answered while power on waits for the host").isNotDone();
        assertThat(power.status("dn1").inFlight()).isEqualTo(PowerCommand.ON);

        bmc.reach(1);
        AdminRun done = on.get(60, TimeUnit.SECONDS);
        assertThat(done.code).as(done.err).isZero();
        assertThat(done.out).contains("dn1 reached ON (on, 1 attempt");
      } finally {
        cluster.runtime().gears().power(null);
      }
    }
  }

  @Test
  void powerOn_withTimeoutZero_answersAtOnce_andATimeoutLeavesTheCommandRunning() throws Exception {
    Path dir = TestDirs.create("power-wait-timeout");
    try (EafrCluster cluster = cluster("power-wait-timeout");
        IpmiSimBmc bmc = IpmiSimBmc.start(dir, PASSWORD);
        PowerManager power = manager(dir, bmc.port())) {
      bmc.stick();
      cluster.runtime().gears().power(power);
      try {
        AdminRun accepted = run(cluster.conf(), "power", "on", "dn1", "-timeout", "0");
        assertThat(accepted.code).as(accepted.err).isZero();
        assertThat(accepted.out).contains("dn1: power on accepted as command 1");

        AdminRun busy = run(cluster.conf(), "power", "on", "dn1", "-timeout", "1");
        assertThat(busy.code).isEqualTo(1);
        assertThat(busy.err).contains("dn1 is busy with on");

        AdminRun bad = run(cluster.conf(), "power", "on", "dn1", "-timeout", "soon");
        assertThat(bad.code).isEqualTo(2);
        assertThat(bad.err).contains("-timeout 'soon' is not allowed: expected whole seconds in [0, 86400]");
        AdminRun elsewhere = run(cluster.conf(), "status", "-timeout", "5");
        assertThat(elsewhere.code).isEqualTo(2);
        assertThat(elsewhere.err).contains("-timeout applies to 'power on' and 'power off' only, not to 'status'");
      } finally {
        cluster.runtime().gears().power(null);
      }
    }
  }

  /** One DataNode and the EAFR NameNode plugin, whose admin handler the tool talks to. */
  private static EafrCluster cluster(String name) throws Exception {
    Configuration conf = EafrCluster.baseConf(name);
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    return EafrCluster.start(conf, new String[] {"/r1"});
  }

  private static boolean told(IpmiSimBmc bmc) {
    try {
      return !bmc.told().isEmpty();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static AdminRun run(Configuration conf, String... args) {
    try {
      return AdminRun.run(conf, args);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** A manager over dn1 behind the BMC on {@code port}; the host may take two minutes to reach its state. */
  private static PowerManager manager(Path dir, int port) throws Exception {
    Configuration conf = PowerTestSupport.fastConf(dir, "{\"nodes\": [{\"host\": \"dn1\", \"driver\": \"ipmi\","
        + " \"address\": \"127.0.0.1\", \"port\": " + port + ", \"user\": \"" + IpmiSimBmc.USER + "\","
        + " \"credential\": \"eafr.bmc.dn1\", \"cipher-suite\": 3}]}");
    conf.set("eafr.power.state-timeout.ms", "120000");
    conf.set("eafr.power.poll.max.ms", "200");
    TestCredentials.store(conf, dir, "eafr.bmc.dn1", PASSWORD);
    return PowerDrivers.startManager(conf, PowerTestSupport.ANY_HOST_MAY_POWER_OFF, 2);
  }
}
