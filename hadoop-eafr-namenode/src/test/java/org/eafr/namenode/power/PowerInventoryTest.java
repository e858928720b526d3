package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.config.DataNodeName;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.junit.jupiter.api.Test;

/**
 * The power inventory is checked whole when read: each bad entry is refused naming the file, the entry, the field and
 * what is allowed, and a failed reload leaves the inventory in force unchanged.
 */
class PowerInventoryTest {

  private static String invalid(String entry) {
    try {
      PowerInventory.parse("inv.json", "{\"nodes\": [" + entry + "]}");
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    throw new AssertionError("accepted " + entry);
  }

  @Test
  void exampleInConf_isValid_andMapsDataNodesAsTheRolesFileDoes() throws Exception {
    PowerInventory inventory = PowerInventory.read(Paths.get("../conf/eafr-power-inventory.example.json"));

    assertThat(inventory.entries()).hasSize(5);
    InventoryEntry dn1 = inventory.entry("dn1.example.com");
    assertThat(dn1.driver()).isEqualTo(DriverKind.IPMI);
    assertThat(dn1.cipherSuite()).isEqualTo(17);
    assertThat(inventory.entry("dn2.example.com").port()).as("IPMI's default port").isEqualTo(623);
    assertThat(inventory.entry("dn4.example.com").port()).as("HTTPS's default port").isEqualTo(443);
    InventoryEntry dn5 = inventory.entry("dn5.example.com");
    assertThat(dn5.macText()).isEqualTo("00:5c:52:31:3a:9c");
    assertThat(dn5.address()).isEqualTo("10.0.0.255");
    assertThat(inventory.entryFor(new DataNodeName("10.0.0.3", "dn3.example.com", 9866)).driver())
        .isEqualTo(DriverKind.REDFISH);
    assertThat(inventory.entryFor(new DataNodeName("10.0.0.3", "dn3.example.com", 9867)).driver())
        .as("a BMC switches every DataNode of its host").isEqualTo(DriverKind.REDFISH);
    assertThat(inventory.entryFor(new DataNodeName("10.0.0.9", "dn9.example.com", 9866))).isNull();
    assertThat(dn1.privilege()).as("the default").isEqualTo(IpmiPrivilege.OPERATOR);
    assertThat(inventory.entryFor(new DataNodeName("10.0.0.1", "DN1.example.com", 9866))).isSameAs(dn1);
  }

  @Test
  void badEntries_areRefusedNamingFileEntryFieldAndWhatIsAllowed() {
    String ok = "{\"host\": \"dn1\", \"driver\": \"ipmi\", \"address\": \"10.0.1.1\", \"user\": \"u\","
        + " \"credential\": \"a\"}";
    assertThat(invalid(ok + ", {\"host\": \"dn2\", \"driver\": \"ipmi\", \"address\": \"10.0.1.2\", \"port\": 70000,"
        + " \"user\": \"u\", \"credential\": \"a\"}")).isEqualTo("power inventory inv.json"
        + " (eafr.power.inventory.file) entry 2 (host dn2): field 'port' = 70000 is not allowed: expected an integer"
        + " in [1, 65535]");
    assertThat(invalid("{\"host\": \"dn1\", \"driver\": \"ipmi\", \"address\": \"10.0.1.1\", \"user\": \"u\","
        + " \"password\": \"x\"}")).contains("entry 1 (host dn1): field 'password' = \"x\" is not allowed: expected"
        + " no such field for driver ipmi; its fields are host, driver, address, cipher-suite, credential, port,"
        + " privilege, user");
    assertThat(invalid("{\"host\": \"dn1\", \"driver\": \"ilo\"}"))
        .contains("field 'driver' = ilo is not allowed: expected one of ipmi, redfish, wol, command");
    assertThat(invalid("{\"host\": \"dn1\", \"driver\": \"redfish\", \"address\": \"b\", \"user\": \"u\"}"))
        .contains("field 'credential' = (missing) is not allowed: expected a non-empty string");
    assertThat(invalid("{\"host\": \"dn5\", \"driver\": \"wol\", \"mac\": \"00:11:22:33:44\"}"))
        .contains("field 'mac' = 00:11:22:33:44 is not allowed: expected six hexadecimal byte pairs");
    assertThat(invalid("{\"host\": \"dn1:0\", \"driver\": \"wol\", \"mac\": \"00:11:22:33:44:55\"}"))
        .contains("field 'host' = dn1:0 is not allowed");
    assertThat(invalid("{\"host\": \"dn1\", \"driver\": \"redfish\", \"address\": \"https://b\", \"user\": \"u\","
        + " \"credential\": \"a\"}")).contains("field 'address' = https://b is not allowed: expected a host name or"
        + " IPv4 address, without port or scheme");
    assertThat(invalid("{\"host\": \"dn1\", \"driver\": \"redfish\", \"address\": \"b\", \"user\": \"u\","
        + " \"credential\": \"a\", \"system\": \"/redfish/v1/Managers/1\"}"))
        .contains("field 'system' = /redfish/v1/Managers/1 is not allowed");
    assertThat(invalid("{\"host\": \"dn6\", \"driver\": \"command\", \"script\": \"/no/such/power.sh\"}"))
        .contains("field 'script' = /no/such/power.sh is not allowed: expected the absolute path of an executable");
    assertThat(invalid(ok + ", " + ok)).contains("entry 2 (host dn1): field 'host' = dn1 is not allowed: expected"
        + " each host once; entry 1 already names it");
    assertThat(invalid("{\"host\": \"dn1\", \"driver\": \"ipmi\", \"address\": \"b\", \"user\": \"u\","
        + " \"credential\": \"a\", \"cipher-suite\": 18}")).contains("field 'cipher-suite' = 18");
    assertThatThrownBy(() -> PowerInventory.parse("inv.json", "{\"nodes\": [}"))
        .hasMessageStartingWith("power inventory inv.json (eafr.power.inventory.file) is not valid JSON");
    assertThatThrownBy(() -> PowerInventory.parse("inv.json", "[]"))
        .hasMessageContaining("must be one JSON object with a single field \"nodes\"");
  }

  private static String ipmi(String host, String address, int port) {
    return "{\"host\": \"" + host + "\", \"driver\": \"ipmi\", \"address\": \"" + address + "\", \"port\": " + port
        + ", \"user\": \"u\", \"credential\": \"a\"}";
  }

  private static String redfish(String host, String address, String system) {
    return "{\"host\": \"" + host + "\", \"driver\": \"redfish\", \"address\": \"" + address + "\", \"user\": \"u\","
        + " \"credential\": \"a\"" + (system == null ? "" : ", \"system\": \"" + system + "\"") + "}";
  }

  @Test
  void oneHostPerBmc_hostsComparedNormalised_hostPortOnlyForCommandEntries_fieldsOnce() throws Exception {
    assertThat(invalid(ipmi("dn1.example.com", "10.0.1.1", 623) + ", " + ipmi("DN1.Example.COM.", "10.0.1.2", 623)))
        .contains("entry 2 (host DN1.Example.COM.): field 'host' = DN1.Example.COM. is not allowed: expected each"
            + " host once; entry 1 already names it");
    assertThat(invalid(ipmi("localhost", "10.0.1.1", 623) + ", " + ipmi("127.0.0.1", "10.0.1.2", 623)))
        .as("a name and its address are one host").contains("entry 2 (host 127.0.0.1): field 'host'");
    assertThat(invalid(ipmi("dn1", "10.0.1.1", 623) + ", " + ipmi("dn2", "10.0.1.1", 623)))
        .contains("entry 2 (host dn2): field 'address' = 10.0.1.1:623 is not allowed: expected one host per BMC"
            + " endpoint; entry 1 already names it");
    assertThat(invalid(ipmi("dn1", "localhost", 623) + ", " + ipmi("dn2", "127.0.0.1", 623)))
        .contains("entry 2 (host dn2): field 'address' = 127.0.0.1:623");
    assertThat(invalid(redfish("dn3", "bmc", null) + ", " + redfish("dn4", "bmc", "/redfish/v1/Systems/2")))
        .contains("entry 2 (host dn4): field 'address' = bmc:443 is not allowed: expected one host per BMC endpoint;"
            + " entry 1 already switches the BMC's only system");
    assertThat(invalid(redfish("dn3", "bmc", "/redfish/v1/Systems/1") + ", " + redfish("dn4", "bmc", null)))
        .contains("entry 2 (host dn4): field 'address' = bmc:443 is not allowed: expected one host per BMC endpoint,"
            + " or a \"system\" in each entry on it; entry 1 already switches a system of it");
    assertThat(invalid(redfish("dn3", "bmc", "/redfish/v1/Systems/1") + ", "
        + redfish("dn4", "bmc", "/redfish/v1/Systems/1"))).contains("field 'system' = /redfish/v1/Systems/1");
    assertThat(PowerInventory.parse("inv.json", "{\"nodes\": [" + redfish("dn3", "bmc", "/redfish/v1/Systems/1")
        + ", " + redfish("dn4", "bmc", "/redfish/v1/Systems/2") + "]}").entries()).as("two systems of one chassis BMC")
        .hasSize(2);
    assertThat(invalid("{\"host\": \"dn5\", \"driver\": \"wol\", \"mac\": \"00:11:22:33:44:55\"}, {\"host\": \"dn6\","
        + " \"driver\": \"wol\", \"mac\": \"00-11-22-33-44-55\"}")).contains("entry 2 (host dn6): field 'mac' ="
        + " 00:11:22:33:44:55 is not allowed: expected one host per MAC address; entry 1 already names it");

    assertThat(invalid(ipmi("10.0.0.3:9866", "10.0.1.1", 623))).contains("field 'host' = 10.0.0.3:9866 is not"
        + " allowed: expected a host name or IP address without :PORT for driver ipmi");
    assertThat(invalid(redfish("10.0.0.3:9866", "bmc", null))).contains("without :PORT for driver redfish");
    String command = "{\"driver\": \"command\", \"script\": \"/bin/true\", \"host\": ";
    assertThat(PowerInventory.parse("inv.json", "{\"nodes\": [" + command + "\"10.0.0.3:9866\"}, " + command
        + "\"10.0.0.3:9867\"}]}").entries()).as("two DataNodes of one host, each its own script target").hasSize(2);
    assertThat(invalid(command + "\"10.0.0.3:9866\"}, " + ipmi("10.0.0.3", "10.0.1.1", 623)))
        .contains("entry 2 (host 10.0.0.3): field 'host' = 10.0.0.3 is not allowed: expected each host once; entry 1"
            + " names a DataNode on it by HOST:PORT");

    assertThat(invalid("{\"host\": \"dn1\", \"driver\": \"wol\", \"mac\": \"00:11:22:33:44:55\", \"port\": 9,"
        + " \"port\": 7}")).startsWith("power inventory inv.json (eafr.power.inventory.file) is not valid JSON (each"
        + " field once per object): ").contains("'port'");
    assertThatThrownBy(() -> PowerInventory.parse("inv.json", "{\"nodes\": [], \"defaults\": {}}"))
        .hasMessage("power inventory inv.json (eafr.power.inventory.file): field 'defaults' is not allowed: the"
            + " file's only field is \"nodes\", an array of entries");
    assertThat(invalid("{\"host\": \"dn1\", \"driver\": \"ipmi\", \"address\": \"b\", \"user\": \"u\","
        + " \"credential\": \"a\", \"privilege\": \"admin\"}")).contains("field 'privilege' = admin is not allowed:"
        + " expected one of USER, OPERATOR, ADMINISTRATOR");
  }

  @Test
  void failedReload_keepsTheInventoryInForce_andAMissingCredentialIsFoundAtLoad() throws Exception {
    Path dir = TestDirs.create("inventory-reload");
    Configuration conf = PowerTestSupport.fastConf(dir, "{\"nodes\": [{\"host\": \"dn5\", \"driver\": \"wol\","
        + " \"mac\": \"00:11:22:33:44:55\"}]}");
    TestCredentials.store(conf, dir, "eafr.bmc.dn1", "Pw-4c2e");
    try (PowerManager manager = PowerDrivers.startManager(conf, PowerTestSupport.ANY_HOST_MAY_POWER_OFF, 1)) {
      Path file = Paths.get(conf.get(PowerSettings.INVENTORY_FILE_KEY));
      Files.writeString(file, "{\"nodes\": [{\"host\": \"dn5\", \"driver\": \"wol\", \"mac\": \"zz\"}]}");
      assertThatThrownBy(manager::reloadInventory).hasMessageContaining("field 'mac' = zz");
      Files.writeString(file, "{\"nodes\": [{\"host\": \"dn1\", \"driver\": \"ipmi\", \"address\": \"10.0.1.1\","
          + " \"user\": \"u\", \"credential\": \"eafr.bmc.dn9\"}]}");
      assertThatThrownBy(manager::reloadInventory).hasMessageContaining("power inventory " + file + " host dn1"
          + " needs credential alias eafr.bmc.dn9, which none of the providers hadoop.security.credential"
          + ".provider.path = localjceks://file" + dir.toAbsolutePath() + "/bmc.jceks holds: run hadoop credential"
          + " create eafr.bmc.dn9 -provider localjceks://file");
      assertThat(manager.inventory().entries().keySet()).containsExactly("dn5");
      assertThat(manager.status("dn5")).isNotNull();

      Files.writeString(file, "{\"nodes\": [{\"host\": \"dn1\", \"driver\": \"ipmi\", \"address\": \"10.0.1.1\","
          + " \"user\": \"u\", \"credential\": \"eafr.bmc.dn1\"}]}");
      assertThat(manager.reloadInventory().entries().keySet()).containsExactly("dn1");
    }
  }

  @Test
  void credentials_comeFromProvidersOnly_neverFromPlainConfiguration() throws Exception {
    Path dir = TestDirs.create("inventory-plain");
    Configuration conf = PowerTestSupport.fastConf(dir, "{\"nodes\": [{\"host\": \"dn1\", \"driver\": \"ipmi\","
        + " \"address\": \"10.0.1.1\", \"user\": \"u\", \"credential\": \"eafr.bmc.dn1\"}]}");
    conf.set("eafr.bmc.dn1", "Plain-pw-in-site-xml"); // Configuration.getPassword would fall back to this
    assertThatThrownBy(() -> PowerDrivers.startManager(conf, PowerTestSupport.ANY_HOST_MAY_POWER_OFF, 1))
        .hasMessageContaining("needs the password under credential alias eafr.bmc.dn1, but no credential provider"
            + " is configured: set hadoop.security.credential.provider.path")
        .message().doesNotContain("Plain-pw-in-site-xml");
  }
}
