package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.eafr.namenode.power.PowerTestSupport.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.monitor.ReplicationMonitorPlugin;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.eafr.namenode.testing.EafrCluster;
import org.junit.jupiter.api.Test;

/**
 * {@code hdfs eafr power reload} against a real BMC (ipmi_sim, ipmitool) whose password is rotated through the BMC:
 * after the operator stores the new password under the same credential alias and reloads, the next power command
 * gets through; a reload that would drop a host that is asleep, and a malformed inventory, are refused naming the
 * host or the field, and change nothing.
 */
class PowerReloadTest {
  private static final String OLD_PASSWORD = "Bmc-pw-old-5e2b";
  private static final String NEW_PASSWORD = "Bmc-pw-new-81c4";

  @Test
  void rotatedPassword_reloaded_nextCommandSucceeds_andBadReloadsChangeNothing() throws Exception {
    Path dir = TestDirs.create("power-reload");
    Configuration clusterConf = EafrCluster.baseConf("power-reload");
    clusterConf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    try (EafrCluster cluster = EafrCluster.start(clusterConf, new String[] {"/r1"});
        IpmiSimBmc bmc = IpmiSimBmc.start(dir, OLD_PASSWORD)) {
      String good = "{\"nodes\": [{\"host\": \"dn1\", \"driver\": \"ipmi\", \"address\": \"127.0.0.1\", \"port\": "
          + bmc.port() + ", \"user\": \"" + IpmiSimBmc.USER + "\", \"credential\": \"eafr.bmc.dn1\","
          + " \"cipher-suite\": 3}]}";
      Configuration conf = PowerTestSupport.fastConf(dir, good);
      Path inventory = dir.resolve("power-inventory.json");
      TestCredentials.store(conf, dir, "eafr.bmc.dn1", OLD_PASSWORD);
      try (PowerManager power = PowerDrivers.startManager(conf, PowerTestSupport.ANY_HOST_MAY_POWER_OFF, 2)) {
        cluster.runtime().gears().power(power);
        try {
          assertThat(await(power.readState("dn1"))).as("the host sleeps").isEqualTo(PowerState.OFF);
          PowerInventory inForce = power.inventory();

          Files.write(inventory, ("{\"nodes\": [{\"host\": \"dn2\", \"driver\": \"wol\", \"mac\":"
              + " \"00:11:22:33:44:55\"}]}").getBytes(StandardCharsets.UTF_8));
          AdminRun drops = AdminRun.run(cluster.conf(), "power", "reload");
          assertThat(drops.code).isEqualTo(1);
          assertThat(drops.err).contains("power reload refused: host dn1 is asleep (its state last read OFF), and"
              + " the new inventory " + inventory + " drops it: nothing could then wake it")
              .contains("; the power inventory in force (" + inventory + ", 1 hosts) is unchanged");
          assertThat(power.inventory()).isSameAs(inForce);

          Files.write(inventory, good.replace("\"port\"", "\"prot\"").getBytes(StandardCharsets.UTF_8));
          AdminRun malformed = AdminRun.run(cluster.conf(), "power", "reload");
          assertThat(malformed.code).isEqualTo(1);
          assertThat(malformed.err).contains("power reload refused: power inventory " + inventory)
              .contains("'prot' = " + bmc.port() + " is not allowed").contains("is unchanged");
          assertThat(power.inventory()).isSameAs(inForce);

          bmc.rotatePassword(OLD_PASSWORD, NEW_PASSWORD);
          assertThatThrownBy(() -> await(power.readState("dn1"))).as("the old password no longer works")
              .isInstanceOf(PowerException.class);
          Files.write(inventory, good.getBytes(StandardCharsets.UTF_8));
          TestCredentials.store(conf, dir, "eafr.bmc.dn1", NEW_PASSWORD);
          AdminRun reload = AdminRun.run(cluster.conf(), "power", "reload");
          assertThat(reload.code).as(reload.err).isZero();
          assertThat(reload.out).contains("EAFR power inventory reloaded from " + inventory + ": 1 hosts {ipmi=1}");

          AdminRun on = AdminRun.run(cluster.conf(), "power", "on", "dn1");
          assertThat(on.code).as(on.err).isZero();
          assertThat(on.out).contains("dn1 reached ON (on, 1 attempt");
          assertThat(bmc.told()).containsExactly("set power 1");
          assertThat(reload.out + reload.err + drops.err + malformed.err + on.out).doesNotContain(OLD_PASSWORD)
              .doesNotContain(NEW_PASSWORD);
        } finally {
          cluster.runtime().gears().power(null);
        }
      }
    }
  }
}
