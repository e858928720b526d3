package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.eafr.namenode.power.PowerTestSupport.await;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.HostConfigManager;
import org.apache.hadoop.ipc.RefreshResponse;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminHandler;
import org.eafr.namenode.hosts.EafrHostConfigManager;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.namenode.testing.MaintenanceHosts;
import org.junit.jupiter.api.Test;

/**
 * The power-off guard on a MiniDFSCluster, through every way a power-off is asked for: a DataNode that died before
 * HDFS put it IN_MAINTENANCE is refused; the operator's {@code hdfs eafr power off} of a host whose blocks keep no
 * other live replica is refused; a retry is refused when the check fails at that moment, with no second command.
 */
class PowerOffGuardClusterTest {
  private static final String[] TWO = {"/r1", "/r1"};
  private static final String[] THREE = {"/r1", "/r1", "/r1"};

  @Test
  void aDataNodeDeadBeforeMaintenance_isRefused_evenThoughHdfsShowsItInMaintenance() throws Exception {
    try (EafrCluster cluster = start("guard-dead-first", THREE)) {
      RecordingDriver driver = new RecordingDriver();
      try (PowerManager manager = manager(cluster, Map.of(cluster.id(2), driver))) {
        cluster.kill(2); // dies first: HDFS drops its blocks from the block map
        enterMaintenance(cluster, 2);

        assertThatThrownBy(() -> await(manager.powerOff(cluster.id(2), false, Requester.OPERATOR)))
            .isInstanceOf(PowerRefusedException.class)
            .hasMessageContaining("is IN_MAINTENANCE but dead, and this NameNode never saw it alive in maintenance");
        assertThat(driver.commands).isEmpty();
      }
    }
  }

  @Test
  void operatorPowerOff_ofAHostWhoseBlocksHaveNoOtherLiveReplica_isRefusedNamingTheBlock() throws Exception {
    try (EafrCluster cluster = start("guard-operator", TWO)) {
      RecordingDriver driver = new RecordingDriver();
      try (PowerManager manager = manager(cluster, Map.of(cluster.id(0), driver))) {
        cluster.runtime().gears().power(manager);
        enterMaintenance(cluster, 0); // HDFS lets it in: DataNode 1 holds a live replica of each block
        cluster.kill(1); // the other replica is gone, and with two DataNodes nothing can re-replicate it

        AdminHandler handler = new AdminHandler(cluster.nameNode(), cluster.runtime());
        RefreshResponse answer = handler.handleRefresh(AdminHandler.IDENTIFIER,
            new String[] {"power", "off", cluster.id(0)});
        if (answer.getReturnCode() == AdminHandler.ACCEPTED) { // else the guard refused before the answer was made
          String[] outcome = {"power", "outcome", cluster.id(0), answer.getMessage().split("\n")[0]};
          GenericTestUtils.waitFor(() -> handler.handleRefresh(AdminHandler.IDENTIFIER, outcome).getReturnCode()
              != AdminHandler.PENDING, 50, 60_000);
          answer = handler.handleRefresh(AdminHandler.IDENTIFIER, outcome);
        }

        assertThat(answer.getReturnCode()).isEqualTo(AdminHandler.FAILED);
        assertThat(answer.getMessage()).contains("refusing to power off " + cluster.id(0) + ": block blk_")
            .contains("would have no live replica on a server that stays on");
        assertThat(driver.commands).isEmpty();
      } finally {
        cluster.runtime().gears().power(null);
      }
    }
  }

  /**
   * The hosts file names a DataNode that has not registered (as one asleep since a NameNode restart has not): HDFS
   * lists it with no uuid, and the power-off of another host still goes through.
   */
  @Test
  void aListedDataNodeThatNeverRegistered_doesNotStopThePowerOffOfAnotherHost() throws Exception {
    try (EafrCluster cluster = start("guard-unregistered", THREE)) {
      RecordingDriver driver = new RecordingDriver();
      try (PowerManager manager = manager(cluster, Map.of(cluster.id(2), driver))) {
        hosts.maintenance(cluster.id(2), "127.0.0.1:1");
        cluster.datanodeManager().refreshNodes(cluster.conf());
        GenericTestUtils.waitFor(() -> descriptorInMaintenance(cluster, 2), 100, 60_000);
        assertThat(cluster.datanodeManager().getDatanodeListForReport(
            org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType.ALL))
            .as("the listed DataNode that never registered").anyMatch(dn -> dn.getDatanodeUuid() == null);

        assertThat(await(manager.powerOff(cluster.id(2), false, Requester.OPERATOR)).state())
            .isEqualTo(PowerState.OFF);
        assertThat(driver.commands).containsExactly("graceful-off");
      }
    }
  }

  @Test
  void aRetry_isRefusedWhenTheCheckFailsAtThatMoment_withNoSecondCommand() throws Exception {
    try (EafrCluster cluster = start("guard-retry", TWO)) {
      enterMaintenance(cluster, 0);
      RecordingDriver driver = new RecordingDriver();
      driver.firstOffFails = () -> cluster.kill(1); // while the first attempt fails, the other replica goes away
      try (PowerManager manager = manager(cluster, Map.of(cluster.id(0), driver))) {
        assertThatThrownBy(() -> await(manager.powerOff(cluster.id(0), false, Requester.AUTOMATIC)))
            .isInstanceOf(PowerRefusedException.class)
            .hasMessageContaining("would have no live replica on a server that stays on");
        assertThat(driver.commands).as("the first attempt's command only").containsExactly("graceful-off");
      }
    }
  }

  private MaintenanceHosts hosts;

  /** A cluster with one DataNode per rack of {@code racks} and a file of 2 replicas on DataNodes 0 and 1. */
  private EafrCluster start(String name, String[] racks) throws java.io.IOException {
    Configuration conf = EafrCluster.baseConf(name);
    hosts = MaintenanceHosts.configure(conf);
    conf.setClass(DFSConfigKeys.DFS_NAMENODE_HOSTS_PROVIDER_CLASSNAME_KEY, EafrHostConfigManager.class,
        HostConfigManager.class);
    EafrCluster cluster = EafrCluster.start(conf, racks);
    cluster.write("/data/f", 2, 4000, 1, cluster.dataNode(0), cluster.dataNode(1));
    return cluster;
  }

  /** Puts DataNode {@code index} into maintenance and waits until HDFS shows it IN_MAINTENANCE. */
  private void enterMaintenance(EafrCluster cluster, int index) throws Exception {
    hosts.maintenance(cluster.id(index));
    cluster.datanodeManager().refreshNodes(cluster.conf());
    GenericTestUtils.waitFor(() -> descriptorInMaintenance(cluster, index), 100, 60_000);
  }

  /** A manager over the real guard of the cluster's NameNode, one retry, with {@code drivers} (HOST:PORT entries). */
  static PowerManager manager(EafrCluster cluster, Map<String, PowerDriver> drivers) {
    Configuration conf = new Configuration(cluster.conf());
    conf.set("eafr.power.min-command-interval.ms", "0");
    conf.set("eafr.power.poll.initial.ms", "20");
    conf.set("eafr.power.poll.max.ms", "100");
    conf.set("eafr.power.state-timeout.ms", "5000");
    conf.set("eafr.power.retries", "1");
    conf.set("eafr.power.quarantine-after", "5");
    java.util.StringJoiner entries = new java.util.StringJoiner(",", "{\"nodes\": [", "]}");
    drivers.keySet().forEach(host -> entries.add("{\"host\": \"" + host + "\", \"driver\": \"command\","
        + " \"script\": \"/bin/true\"}"));
    PowerManager manager = new PowerManager(PowerSettings.from(conf::get), conf,
        new NameNodeHostView(cluster.nameNode()), new SleepRequests(), PowerScheduler.threads(2), PowerDrivers::build);
    manager.install(PowerInventory.parse("test", entries.toString()), drivers);
    return manager;
  }

  private static boolean descriptorInMaintenance(EafrCluster cluster, int index) {
    try {
      return cluster.descriptor(index).isInMaintenance();
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A host that is ON until an off command succeeds; records the commands; the first off may fail. */
  static final class RecordingDriver implements PowerDriver {
    final List<String> commands = new CopyOnWriteArrayList<>();
    volatile PowerState state = PowerState.ON;
    volatile ThrowingRunnable firstOffFails;

    @Override
    public String name() {
      return "command";
    }

    @Override
    public String endpoint() {
      return "recording-" + System.identityHashCode(this);
    }

    @Override
    public void powerOn() {
      commands.add("on");
      state = PowerState.ON;
    }

    @Override
    public void gracefulOff() throws PowerException {
      commands.add("graceful-off");
      ThrowingRunnable fail = firstOffFails;
      if (fail != null) {
        firstOffFails = null;
        try {
          fail.run();
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
        throw new PowerException("the BMC did not answer");
      }
      state = PowerState.OFF;
    }

    @Override
    public void forcedOff() throws PowerException {
      gracefulOff();
    }

    @Override
    public PowerState state() {
      return state;
    }
  }

  /** A step of a test that may throw. */
  @FunctionalInterface
  interface ThrowingRunnable {
    void run() throws Exception;
  }
}
