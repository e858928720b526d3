package org.eafr.namenode.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.eafr.namenode.monitor.ReplicationMonitorPlugin;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.cluster.ServerRole;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code hdfs eafr} against a MiniDFSCluster NameNode running the EAFR plugin, over real Hadoop IPC. */
class AdminToolTest {
  private static EafrCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = EafrCluster.baseConf("admin-tool");
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    conf.set("eafr.interval.ms", "3600000");
    cluster = EafrCluster.start(conf);
    cluster.standby(2, 5);
    cluster.write("/data/a", 2, 4000, 1);
    cluster.write("/scratch/single", 1, 4000, 2);
    cluster.runtime().monitor().round();
  }

  @AfterAll
  static void stop() throws Exception {
    cluster.verifyChecksumsAndClose();
  }

  @Test
  void statusJson_parses_andMatchesJmx() throws Exception {
    AdminRun run = run("status", "-json");
    assertThat(run.code).as(run.err).isZero();
    JsonNode status = new ObjectMapper().readTree(run.out);
    assertThat(status.get("haState").asText()).isEqualTo("active");
    assertThat(status.get("nodes")).hasSize(EafrCluster.RACKS.length);
    assertThat(status.at("/nodesPerRole/STANDBY").asInt()).isEqualTo(2);
    assertThat(status.at("/nodesPerRole/HOT").asInt()).isEqualTo(EafrCluster.RACKS.length - 2);

    assertThat(status.at("/monitor/rounds").asLong()).isEqualTo(1);
    // JMX serves a cached record (refreshed at most every few seconds): poll until it shows the round
    GenericTestUtils.waitFor(() -> jmx("RoundsTotal") == 1, 100, 30_000);
    assertThat(status.at("/monitor/replicasRemoved").asLong()).isEqualTo(jmx("ReplicasRemovedTotal"));
    assertThat(status.at("/monitor/replicasAdded").asLong()).isEqualTo(jmx("ReplicasAddedTotal"));
    assertThat(status.at("/nodesPerRole/STANDBY").asLong()).isEqualTo(jmx("StandbyNodes"));
    assertThat(status.at("/monitor/filesBelowMinReplicas").asLong()).isEqualTo(jmx("FilesBelowMinReplicas"))
        .isEqualTo(1);
    assertThat(status.at("/monitor/someFilesBelowMinReplicas/0").asText()).isEqualTo("/scratch/single");
    JsonNode roles = new ObjectMapper().readTree((String) AdminRun.jmx("EafrDataNodes", "DataNodeRoles"));
    for (JsonNode node : status.get("nodes")) {
      assertThat(roles.get(node.get("id").asText()).asText()).isEqualTo(node.get("role").asText());
    }
  }

  @Test
  void nodes_showEachDataNodesRoleRackAndAdminState() throws Exception {
    AdminRun run = run("nodes", "-json");
    assertThat(run.code).as(run.err).isZero();
    JsonNode nodes = new ObjectMapper().readTree(run.out).get("nodes");
    for (int i = 0; i < EafrCluster.RACKS.length; i++) {
      JsonNode node = find(nodes, cluster.id(i));
      assertThat(node.get("rack").asText()).isEqualTo(EafrCluster.RACKS[i]);
      assertThat(node.get("role").asText()).isEqualTo(i == 2 || i == 5 ? "STANDBY" : "HOT");
      assertThat(node.get("adminState").asText()).isEqualTo("NORMAL");
      assertThat(node.get("alive").asBoolean()).isTrue();
      assertThat(node.get("powerState").asText()).isEqualTo("ON"); // heartbeating; no power inventory here
    }
    AdminRun text = run("nodes");
    assertThat(text.out.lines().filter(l -> l.contains("STANDBY"))).hasSize(2);
    assertThat(text.out).startsWith("DATANODE");
  }

  @Test
  void changingCommand_asNonSuperuser_isDenied_butReadingIsAllowed() throws Exception {
    UserGroupInformation alice = UserGroupInformation.createUserForTesting("alice", new String[] {"users"});
    AdminRun denied = alice.doAs((PrivilegedExceptionAction<AdminRun>) () -> run("roles", "reload"));
    assertThat(denied.code).isEqualTo(1);
    assertThat(denied.err).contains("user alice may not run 'hdfs eafr roles reload'");
    AdminRun status = alice.doAs((PrivilegedExceptionAction<AdminRun>) () -> run("status"));
    assertThat(status.code).as(status.err).isZero();
    assertThat(status.out).contains("DataNodes per role:");
  }

  @Test
  void rolesReload_badFileChangesNothing_goodFileTakesEffect() throws Exception {
    Files.write(cluster.rolesFile(), List.of("unlisted hot", "standby 10.9.9.9:1"), StandardCharsets.UTF_8);
    AdminRun bad = run("roles", "reload");
    assertThat(bad.code).isEqualTo(1);
    assertThat(bad.err).contains("10.9.9.9:1").contains("the roles in force are unchanged");
    assertThat(cluster.roleOf(cluster.descriptor(2))).isEqualTo(ServerRole.STANDBY);

    Files.write(cluster.rolesFile(), List.of("unlisted hot", "standby " + cluster.id(2), "standby " + cluster.id(5)),
        StandardCharsets.UTF_8);
    AdminRun good = run("roles", "reload");
    assertThat(good.code).as(good.err).isZero();
    assertThat(good.out).contains("EAFR roles reloaded from").contains("2 entries");
    AdminRun json = run("roles", "reload", "-json");
    assertThat(json.code).as(json.err).isZero();
    JsonNode reloaded = new ObjectMapper().readTree(json.out);
    assertThat(reloaded.get("rolesFile").asText()).isEqualTo(cluster.rolesFile().toString());
    assertThat(reloaded.get("entries").asInt()).isEqualTo(2);
    assertThat(reloaded.get("unlistedRole").asText()).isEqualTo("HOT");
  }

  @Test
  void unknownCommand_isAUsageError_andNothingIsSent() throws Exception {
    AdminRun run = run("gera", "3");
    assertThat(run.code).isEqualTo(2);
    assertThat(run.err).startsWith("hdfs eafr: unknown command 'gera 3'; did you mean 'gear'?\nUsage: hdfs eafr");
    assertThat(run.err.split("  status \\[-json\\]", -1)).as("the commands listed once").hasSize(2);
    AdminRun none = run();
    assertThat(none.code).isEqualTo(2);
    assertThat(none.err).startsWith("hdfs eafr: no command given\nUsage: hdfs eafr");
    AdminRun help = run("--help");
    assertThat(help.code).isZero();
    assertThat(help.out).startsWith("Usage: hdfs eafr").contains("Exit code 0 done");
  }

  @Test
  void aNameNodeThatCannotBeReached_orAMalformedAddress_isSaidInOneLine_withoutAStackTrace() throws Exception {
    Configuration conf = new Configuration(cluster.conf());
    conf.setInt("ipc.client.connect.max.retries", 0);
    int closedPort;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    AdminRun down = AdminRun.run(conf, "-namenode", "127.0.0.1:" + closedPort, "status");
    assertThat(down.code).isEqualTo(1);
    assertThat(down.err).startsWith("cannot reach the NameNode at ").contains(":" + closedPort + ": ")
        .contains("dfs.namenode.rpc-address").doesNotContain("\tat ");

    AdminRun malformed = AdminRun.run(conf, "-namenode", "nn1", "status");
    assertThat(malformed.code).isEqualTo(2);
    assertThat(malformed.err).startsWith("hdfs eafr: -namenode nn1 is not HOST:PORT");
  }

  @Test
  void gearCommand_withGearsOff_saysWhichKeyToSet() throws Exception {
    AdminRun run = run("gear", "1");
    assertThat(run.code).isEqualTo(1);
    assertThat(run.err).contains("gears are off on this NameNode: eafr.layout is random; to shift gears set it to"
        + " equal-work or accordion in hdfs-site.xml and restart the NameNode");
  }

  private static long jmx(String attribute) {
    return ((Number) jmxAttribute(attribute)).longValue();
  }

  private static Object jmxAttribute(String attribute) {
    return AdminRun.jmx(attribute);
  }

  private static JsonNode find(JsonNode nodes, String id) {
    for (JsonNode node : nodes) {
      if (node.get("id").asText().equals(id)) {
        return node;
      }
    }
    throw new AssertionError("no node " + id + " in " + nodes);
  }

  private static AdminRun run(String... args) throws Exception {
    return AdminRun.run(cluster.conf(), args);
  }
}
