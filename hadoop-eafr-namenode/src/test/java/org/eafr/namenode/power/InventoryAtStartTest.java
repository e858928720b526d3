package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.commons.lang3.exception.ExceptionUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.monitor.ReplicationMonitorPlugin;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.eafr.namenode.testing.EafrCluster;
import org.junit.jupiter.api.Test;

/**
 * A power inventory is checked where the NameNode's EAFR state is first built, so a bad one stops the NameNode as a
 * bad {@code eafr.*} value does (instead of a NameNode running without EAFR): an unknown field, and a missing ipmitool
 * named with the entries that need it.
 */
class InventoryAtStartTest {

  @Test
  void unknownFieldInTheInventory_stopsTheNameNode_namingFileEntryAndField() throws Exception {
    Configuration conf = EafrCluster.baseConf("inventory-at-start");
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    Path inventory = Paths.get(conf.get(MiniDFSCluster.HDFS_MINIDFS_BASEDIR)).resolveSibling("inventory.json");
    Files.writeString(inventory, "{\"nodes\": [{\"host\": \"dn1\", \"driver\": \"wol\", \"mac\":"
        + " \"00:11:22:33:44:55\", \"prot\": 623}]}", StandardCharsets.UTF_8);
    conf.set(PowerSettings.INVENTORY_FILE_KEY, inventory.toString());
    try {
      assertThatThrownBy(() -> new MiniDFSCluster.Builder(conf).numDataNodes(1).build())
          .satisfies(e -> assertThat(ExceptionUtils.getRootCause(e)).isInstanceOf(IllegalArgumentException.class)
              .hasMessage("power inventory " + inventory + " (eafr.power.inventory.file) entry 1 (host dn1): field"
                  + " 'prot' = 623 is not allowed: expected no such field for driver wol; its fields are host,"
                  + " driver, address, mac, port"));
    } finally {
      EafrRuntime.release(conf);
    }
  }

  @Test
  void missingIpmitool_isAnErrorAtStart_namingTheToolAndTheEntries() throws Exception {
    Path dir = TestDirs.create("inventory-ipmitool");
    Configuration conf = PowerTestSupport.fastConf(dir, "{\"nodes\": ["
        + "{\"host\": \"dn1\", \"driver\": \"ipmi\", \"address\": \"10.0.1.1\", \"user\": \"u\","
        + " \"credential\": \"a\"}, {\"host\": \"dn2\", \"driver\": \"ipmi\", \"address\": \"10.0.1.2\","
        + " \"user\": \"u\", \"credential\": \"a\"},"
        + "{\"host\": \"dn3\", \"driver\": \"wol\", \"mac\": \"00:11:22:33:44:55\"}]}");
    TestCredentials.store(conf, dir, "a", "Pw-81ac");
    conf.set(PowerSettings.IPMITOOL_KEY, "eafr-no-such-ipmitool");

    assertThatThrownBy(() -> PowerDrivers.checkConfigured(conf)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ipmitool is needed by power inventory " + dir.resolve("power-inventory.json") + " entries [dn1,"
            + " dn2] (driver ipmi), but eafr.power.ipmitool = eafr-no-such-ipmitool is not on the NameNode's PATH:"
            + " install ipmitool (Debian/Ubuntu: apt-get install ipmitool) or set eafr.power.ipmitool to its absolute"
            + " path");

    conf.set(PowerSettings.IPMITOOL_KEY, "ipmitool");
    ExternalTools.require("ipmitool", "ipmitool");
    PowerDrivers.checkConfigured(conf); // found on PATH: no error
  }
}
