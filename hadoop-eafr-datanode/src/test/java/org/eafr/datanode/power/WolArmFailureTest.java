package org.eafr.datanode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.ipc.RefreshResponse;
import org.eafr.datanode.testing.RateControlCluster;
import org.eafr.namenode.admin.AdminHandler;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.power.NameNodeHostView;
import org.eafr.namenode.power.PowerException;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.Requester;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.junit.jupiter.api.Test;

/**
 * A DataNode's power agent that cannot arm Wake-on-LAN (its arm command exits 3, printing a keystore password the
 * DataNode holds) keeps the DataNode up and tells the NameNode why: the power manager's attempt fails at once with the
 * agent's reason, which {@code hdfs eafr power status HOST} shows as the host's last error, with the password
 * scrubbed.
 */
class WolArmFailureTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String KEYSTORE_PASSWORD = "Keystore-pw-9d2f7a";

  @Test
  void aFailedArm_isReportedToTheNameNode_asTheHostsLastError_scrubbed() throws Exception {
    Path tmp = Paths.get(System.getProperty("java.io.tmpdir"));
    Files.createDirectories(tmp);
    Path dir = Files.createTempDirectory(tmp, "wol-arm-failure");
    Path arm = dir.resolve("arm-wol.sh");
    Files.write(arm, List.of("#!/bin/sh", "echo \"ethtool: keystore " + KEYSTORE_PASSWORD + " refused\"", "exit 3"));
    Files.setPosixFilePermissions(arm, PosixFilePermissions.fromString("rwx------"));
    Path hostsFile = dir.resolve("dfs.hosts.json");
    Files.writeString(hostsFile, "[]");
    Configuration conf = AgentClusters.conf(dir, hostsFile);
    conf.set(PowerAgentSettings.DRY_RUN_KEY, "false");
    conf.set(PowerAgentSettings.WOL_ARM_COMMAND_KEY, arm.toString());
    conf.set(PowerAgentSettings.HOST_COMMAND_KEY, "true"); // never reached: the arm fails first
    conf.set("ssl.server.keystore.password", KEYSTORE_PASSWORD);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    try {
      cluster.waitActive();
      DataNode dataNode = cluster.getDataNodes().get(0);
      String host = dataNode.getDatanodeId().getIpAddr() + ":" + dataNode.getDatanodeId().getXferPort();
      EafrRuntime runtime = EafrRuntime.of(cluster.getNameNode().getConf());
      RateControlCluster.await("the agent to attach", WAIT, () -> runtime.sleepRequests().attached(host));
      DatanodeManager dataNodes = cluster.getNamesystem().getBlockManager().getDatanodeManager();
      AgentClusters.maintenance(cluster, conf, hostsFile, dataNode);
      RateControlCluster.await(host + " IN_MAINTENANCE", WAIT,
          () -> dataNodes.getDatanode(dataNode.getDatanodeUuid()).isInMaintenance());

      Path inventory = dir.resolve("inventory.json");
      Files.writeString(inventory, "{\"nodes\": [{\"host\": \"" + host + "\", \"driver\": \"wol\","
          + " \"mac\": \"00:5c:52:31:3a:9d\", \"address\": \"127.0.0.1\"}]}");
      Configuration powerConf = new Configuration(false);
      powerConf.set("eafr.power.inventory.file", inventory.toString());
      powerConf.set("eafr.power.min-command-interval.ms", "0");
      powerConf.set("eafr.power.poll.initial.ms", "200");
      powerConf.set("eafr.power.poll.max.ms", "500");
      powerConf.set("eafr.power.state-timeout.ms", "600000"); // the failure must come from the agent, not a timeout
      powerConf.set("eafr.power.retries", "0");
      try (PowerManager power = PowerDrivers.startManager(powerConf, new NameNodeHostView(cluster.getNameNode()),
          runtime.sleepRequests(), 1)) {
        runtime.gears().power(power);
        assertThatThrownBy(() -> power.powerOff(host, false, Requester.AUTOMATIC).get(60, TimeUnit.SECONDS))
            .hasCauseInstanceOf(PowerException.class)
            .hasMessageContaining("the power agent of DataNode")
            .hasMessageContaining("could not carry out the sleep request, so the host stays up: Wake-on-LAN could"
                + " not be armed: eafr.datanode.power-agent.wol-arm.command failed with exit 3; its output:"
                + " ethtool: keystore ***** refused");
        assertThat(dataNode.isDatanodeUp()).as("the DataNode stays up").isTrue();

        RefreshResponse status = new AdminHandler(cluster.getNameNode(), runtime).handleRefresh(
            AdminHandler.IDENTIFIER, new String[] {"power", "status", host, "-json"});
        assertThat(status.getReturnCode()).as(status.getMessage()).isEqualTo(AdminHandler.OK);
        assertThat(status.getMessage()).contains("\"lastError\"")
            .contains("Wake-on-LAN could not be armed: eafr.datanode.power-agent.wol-arm.command failed with exit 3")
            .doesNotContain(KEYSTORE_PASSWORD);
      } finally {
        runtime.gears().power(null);
      }
    } finally {
      cluster.shutdown();
    }
  }
}
