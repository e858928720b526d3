package org.eafr.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.eafr.namenode.runtime.SettingsDefaults;
import org.eafr.datanode.config.DatanodeSettings;
import org.eafr.datanode.power.PowerAgentSettings;
import org.eafr.namenode.config.NamenodeSettings;
import org.eafr.namenode.config.RolesFile;
import org.eafr.namenode.power.PowerInventory;
import org.eafr.placement.cluster.ServerRole;
import org.junit.jupiter.api.Test;

/** The examples the tarball ships in conf/ are ones the plugins accept, and name classes that exist. */
class ExampleConfigurationTest {
  private static final Path CONF = Paths.get("..", "conf");

  @Test
  void nameNodeExample_keysAreKnown_valuesValid_classesLoad() throws Exception {
    Configuration conf = load("hdfs-site.eafr.xml");
    Map<String, String> eafrKeys = conf.getValByRegex("^eafr\\.");

    assertThat(eafrKeys).isNotEmpty();
    SettingsDefaults.checkKeys(eafrKeys);
    assertThat(NamenodeSettings.from(conf::get).coldPaths()).as("a site choice, left to the operator").isEmpty();
    for (String key : List.of("dfs.block.replicator.classname", "dfs.net.topology.impl", "dfs.namenode.plugins",
        "dfs.namenode.hosts.provider.classname")) {
      assertThat(Class.forName(conf.get(key))).as(key).isNotNull();
    }
    assertThat(Class.forName(conf.get("dfs.namenode.audit.loggers").replace("default,", ""))).isNotNull();
  }

  @Test
  void dataNodeExample_valuesValid_classesLoad() throws Exception {
    Configuration conf = load("hdfs-site.eafr-datanode.xml");

    assertThat(DatanodeSettings.from(conf::get).linkBytesPerSecond()).as("a site value, left to the operator").isZero();
    assertThat(PowerAgentSettings.from(conf::get, conf.getValByRegex("^eafr\\.datanode\\.power-agent\\."))
        .enabled()).isFalse();
    for (String plugin : conf.getTrimmedStrings("dfs.datanode.plugins")) {
      assertThat(Class.forName(plugin)).isNotNull();
    }
  }

  @Test
  void rolesAndInventoryExamples_parse() throws IOException {
    RolesFile roles = RolesFile.read(CONF.resolve("eafr-roles.example"));
    PowerInventory inventory = PowerInventory.read(CONF.resolve("eafr-power-inventory.example.json"));

    assertThat(roles.entries()).hasSize(9).containsEntry("dn7.example.com", ServerRole.STANDBY);
    assertThat(roles.unlistedRole()).isEqualTo(ServerRole.HOT);
    assertThat(inventory.entries()).hasSize(5);
  }

  @Test
  void hostsExample_admitsExactlyTheHostsOfTheRolesExample() throws IOException {
    RolesFile roles = RolesFile.read(CONF.resolve("eafr-roles.example"));
    Matcher host = Pattern.compile("\"hostName\": \"([^\"]+)\"").matcher(Files.readString(CONF.resolve(
        "dfs.hosts.example.json")));
    Set<String> admitted = new HashSet<>();
    while (host.find()) {
      admitted.add(host.group(1));
    }

    assertThat(admitted).isEqualTo(roles.entries().keySet());
  }

  @Test
  void credentialCommands_coverEveryAliasOfTheInventoryExample() throws IOException {
    String inventory = Files.readString(CONF.resolve("eafr-power-inventory.example.json"));
    String commands = Files.readString(CONF.resolve("eafr-bmc-credentials.example.sh"));

    Matcher alias = Pattern.compile("\"credential\": \"([^\"]+)\"").matcher(inventory);
    int aliases = 0;
    while (alias.find()) {
      aliases++;
      assertThat(commands).contains("hadoop credential create " + alias.group(1) + " ");
    }
    assertThat(aliases).isEqualTo(4);
  }

  private static Configuration load(String file) {
    Configuration conf = new Configuration(false);
    conf.addResource(new org.apache.hadoop.fs.Path(CONF.resolve(file).toUri()));
    return conf;
  }
}
