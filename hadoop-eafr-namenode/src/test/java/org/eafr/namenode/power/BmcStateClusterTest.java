package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.monitor.ReplicationMonitorPlugin;
import org.eafr.namenode.testing.EafrCluster;
import org.junit.jupiter.api.Test;

/**
 * Status and energy follow the BMC, not HDFS's heartbeat expiry: a MiniDFSCluster whose NameNode runs the EAFR plugin
 * with an ipmi_sim BMC for one DataNode's host (the host a thread that stops and restarts that DataNode as the BMC's
 * power bit says) and the BMC poll every second. An operator switches the host off at its BMC with ipmitool: within a
 * poll `hdfs eafr status -json` shows the DataNode OFF and draws it at the model's off draw, while HDFS (heartbeat
 * recheck 5 minutes) still shows it alive; switched on again, its first heartbeat after the BMC's OFF reading makes it
 * ON. ipmi_sim has no DCMI, so the status says the draw is the model's.
 */
class BmcStateClusterTest {
  private static final String PASSWORD = "Poll-bmc-pw-2d7f";
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void hostSwitchedOffAtItsBmc_showsOffWithinAPoll_whileHdfsStillShowsItAlive() throws Exception {
    Path dir = TestDirs.create("bmc-state-cluster");
    try (IpmiSimBmc bmc = IpmiSimBmc.startHostOn(Files.createDirectories(dir.resolve("bmc")), PASSWORD)) {
      Configuration conf = EafrCluster.baseConf("bmc-state");
      conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
      conf.setInt(DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_KEY, 150_000); // dead after 5 min 10 s
      Configuration power = PowerTestSupport.fastConf(dir, "{\"nodes\": [{\"host\": \"dn0.eafr.test\", \"driver\":"
          + " \"ipmi\", \"address\": \"127.0.0.1\", \"port\": " + bmc.port() + ", \"user\": \"" + IpmiSimBmc.USER
          + "\", \"credential\": \"eafr.bmc.dn0\", \"cipher-suite\": 3}]}");
      power.set("eafr.power.bmc-poll.interval.ms", "1000");
      TestCredentials.store(power, dir, "eafr.bmc.dn0", PASSWORD);
      power.forEach(entry -> conf.set(entry.getKey(), entry.getValue()));
      EafrCluster cluster = EafrCluster.start(conf, new String[] {"/r1", "/r1", "/r2"},
          new String[] {"dn0.eafr.test", "dn1.eafr.test", "dn2.eafr.test"});
      try (IpmiGearShiftTest.BmcHost host = IpmiGearShiftTest.BmcHost.bind(bmc, cluster.mini(), cluster.id(0),
          false)) {
        String id = cluster.id(0);
        DatanodeDescriptor dn0 = cluster.descriptor(0);
        awaitPowerState(cluster, id, "ON");

        ipmitool(bmc, "off");
        JsonNode off = awaitPowerState(cluster, id, "OFF");

        assertThat(dn0.isAlive()).as("HDFS still shows the DataNode alive").isTrue();
        assertThat(off.get("alive").asBoolean()).isTrue();
        assertThat(off.get("watts").asDouble()).isEqualTo(org.eafr.placement.power.PowerModel.DEFAULT_SLEEP_WATTS);
        assertThat(off.get("measuredWatts").isNull()).as("ipmi_sim has no DCMI").isTrue();
        JsonNode energy = status(cluster).get("energy");
        assertThat(energy.get("dataNodesOff").asLong()).isEqualTo(1);
        assertThat(energy.get("wattsMeasured").asDouble()).isZero();
        assertThat(AdminRun.run(cluster.conf(), "nodes").out).containsPattern(id + " +dn0.eafr.test .* OFF ");

        ipmitool(bmc, "on");
        awaitPowerState(cluster, id, "ON");
        assertThat(bmc.told()).containsExactly("set power 0", "set power 1");
      } finally {
        cluster.close();
      }
    }
  }

  private static JsonNode status(EafrCluster cluster) throws Exception {
    AdminRun run = AdminRun.run(cluster.conf(), "status", "-json");
    assertThat(run.code).as(run.err).isZero();
    return JSON.readTree(run.out);
  }

  /** Waits until status -json shows DataNode {@code id} in {@code state}; returns its node entry then. */
  private static JsonNode awaitPowerState(EafrCluster cluster, String id, String state) throws Exception {
    JsonNode[] found = new JsonNode[1];
    GenericTestUtils.waitFor(() -> {
      try {
        for (JsonNode node : status(cluster).get("nodes")) {
          if (node.get("id").asText().equals(id) && node.get("powerState").asText().equals(state)) {
            found[0] = node;
            return true;
          }
        }
        return false;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }, 200, 60_000);
    return found[0];
  }

  /** An operator at the BMC: {@code ipmitool chassis power VERB}, the password in the environment. */
  private static void ipmitool(IpmiSimBmc bmc, String verb) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(ExternalTools.require("ipmitool", "ipmitool"), "-I", "lanplus", "-C",
        "3", "-H", "127.0.0.1", "-p", String.valueOf(bmc.port()), "-U", IpmiSimBmc.USER, "-L", "OPERATOR", "-E",
        "chassis", "power", verb).redirectErrorStream(true);
    builder.environment().putAll(Map.of("IPMI_PASSWORD", PASSWORD));
    Process process = builder.start();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(new String(process.getInputStream().readAllBytes())).isZero();
  }
}
