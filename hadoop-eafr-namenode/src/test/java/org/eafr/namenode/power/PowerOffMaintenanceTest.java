package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.eafr.namenode.power.PowerTestSupport.await;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.HostConfigManager;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.hosts.EafrHostConfigManager;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.namenode.testing.MaintenanceHosts;
import org.junit.jupiter.api.Test;

/**
 * On a MiniDFSCluster, the power manager over the NameNode's view refuses to switch off a DataNode HDFS shows in
 * service, and switches it off once HDFS shows it IN_MAINTENANCE, alive or dead after it was seen alive in maintenance
 * (the power-off guard's other cases: {@link PowerOffGuardClusterTest}); the host's power script is what
 * records whether it was told. The files stay readable throughout.
 */
class PowerOffMaintenanceTest {

  @Test
  void powerOff_isRefusedInService_andAllowedInMaintenance_aliveOrDead() throws Exception {
    Configuration conf = EafrCluster.baseConf("power-maintenance");
    MaintenanceHosts hosts = MaintenanceHosts.configure(conf);
    conf.setClass(DFSConfigKeys.DFS_NAMENODE_HOSTS_PROVIDER_CLASSNAME_KEY, EafrHostConfigManager.class,
        HostConfigManager.class);
    try (EafrCluster cluster = EafrCluster.start(conf)) {
      for (int i = 0; i < 4; i++) {
        cluster.write("/data/f" + i, 2, 4000, i, cluster.dataNode(0), cluster.dataNode(1));
      }
      Path dir = TestDirs.create("power-maintenance-script");
      Path script = CommandPowerTest.script(dir);
      Files.write(dir.resolve("state"), List.of("on"));
      Configuration powerConf = PowerTestSupport.fastConf(dir, "{\"nodes\": ["
          + "{\"host\": \"" + cluster.id(0) + "\", \"driver\": \"command\", \"script\": \"" + script + "\"},"
          + "{\"host\": \"" + cluster.id(1) + "\", \"driver\": \"command\", \"script\": \"" + script + "\"}]}");
      NameNodeHostView view = new NameNodeHostView(cluster.nameNode());
      try (PowerManager manager = PowerDrivers.startManager(powerConf, view, 2)) {
        assertThatThrownBy(() -> await(manager.powerOff(cluster.id(0), true, Requester.OPERATOR)))
            .isInstanceOf(PowerRefusedException.class)
            .hasMessageContaining("refusing to power off " + cluster.id(0) + ": HDFS shows DataNode ")
            .hasMessageContaining(" NORMAL, not IN_MAINTENANCE; put it into maintenance");
        assertThat(calls(dir)).isEmpty();

        hosts.maintenance(cluster.id(0), cluster.id(1));
        cluster.datanodeManager().refreshNodes(cluster.conf());
        for (int index : new int[] {0, 1}) {
          GenericTestUtils.waitFor(() -> inMaintenance(cluster, index), 100, 60_000);
        }
        view.checkMayPowerOff(manager.inventory().entry(cluster.id(1))); // seen alive in maintenance, then it dies:
        cluster.kill(1); // a DataNode that died in maintenance may be switched off too
        assertThat(view.heartbeatState(manager.inventory().entry(cluster.id(1)))).isEqualTo(PowerState.OFF);
        assertThat(view.heartbeatState(manager.inventory().entry(cluster.id(0)))).isEqualTo(PowerState.ON);

        PowerResult alive = await(manager.powerOff(cluster.id(0), true, Requester.OPERATOR));
        assertThat(alive.changed()).isTrue();
        assertThat(calls(dir)).containsExactly("force-off " + cluster.id(0));
        Files.write(dir.resolve("state"), List.of("on"));
        await(manager.powerOff(cluster.id(1), false, Requester.AUTOMATIC));
        assertThat(calls(dir)).containsExactly("force-off " + cluster.id(0), "off " + cluster.id(1));
        // JMX serves a snapshot cached for up to one metrics period (10 s): wait for the next one
        GenericTestUtils.waitFor(() -> Long.valueOf(2L).equals(jmx("PoweredOffTotal")), 200, 60_000);
        assertThat(jmx("RefusalsTotal")).isEqualTo(1L);
        assertThat(jmx("NodesOff")).isEqualTo(2L);
      }
      cluster.verifyChecksums();
    }
  }

  /** An attribute of the metrics2 source EafrPower as JMX shows it. */
  private static Object jmx(String attribute) {
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      Set<ObjectName> names = server.queryNames(new ObjectName("Hadoop:service=*,name=EafrPower"), null);
      assertThat(names).hasSize(1);
      return server.getAttribute(names.iterator().next(), attribute);
    } catch (javax.management.JMException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> calls(Path dir) throws Exception {
    Path calls = dir.resolve("calls");
    return Files.exists(calls) ? Files.readAllLines(calls).stream().filter(c -> !c.startsWith("status"))
        .collect(java.util.stream.Collectors.toList())
        : List.of();
  }

  private static boolean inMaintenance(EafrCluster cluster, int index) {
    try {
      return cluster.descriptor(index).isInMaintenance();
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
