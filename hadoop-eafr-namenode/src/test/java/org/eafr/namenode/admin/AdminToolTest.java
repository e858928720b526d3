package org.eafr.namenode.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
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

/**
 * {@code hdfs eafr} against a MiniDFSCluster NameNode running the EAFR plugin, over real Hadoop IPC. Its power
 * inventory has one host, {@value #BROKEN}, whose power script fails every call as a BMC that does not answer would.
 */
class AdminToolTest {
  private static final String BROKEN = "broken.example.com";
  private static EafrCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = EafrCluster.baseConf("admin-tool");
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    conf.set("eafr.interval.ms", "3600000");
    Path dir = Path.of(conf.get("eafr.roles.file")).getParent();
    Path script = Files.writeString(dir.resolve("bmc-down.sh"), "#!/bin/sh\necho \"BMC of $2 does not answer\" >&2\n"
        + "exit 1\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path inventory = Files.writeString(dir.resolve("power-inventory.json"), "{\"nodes\": [{\"host\": \"" + BROKEN
        + "\", \"driver\": \"command\", \"script\": \"" + script.toAbsolutePath() + "\"}]}");
    conf.set("eafr.power.inventory.file", inventory.toString());
    conf.set("eafr.power.min-command-interval.ms", "0");
    conf.set("eafr.power.retries", "0");
    conf.set("eafr.power.quarantine-after", "1");
    cluster = EafrCluster.start(conf);
    cluster.standby(2, 5);
    cluster.write("/data/a", 2, 4000, 1);
    cluster.write("/scratch/single", 1, 4000, 2);
    cluster.monitor().round();
  }

  @AfterAll
  static void stop() throws Exception {
    cluster.verifyChecksumsAndClose();
  }

  /**
   * eafr.reads.warm-up.ms changed in the NameNode's configuration and reloaded is in force at once; a bad value is
   * refused with nothing changed; the old value back and reloaded again undoes it.
   */
  @Test
  void settingsReload_putsTheWarmUpInForce_refusesABadValue_andIsUndone() throws Exception {
    Configuration conf = cluster.mini().getNameNode().getConf();
    AtomicLong inForce = cluster.runtime().readsWarmUpMillis();
    String before = conf.get("eafr.reads.warm-up.ms", "30000");
    assertThat(inForce.get()).isEqualTo(Long.parseLong(before));
    try {
      conf.set("eafr.reads.warm-up.ms", "5000");
      AdminRun changed = run("settings", "reload");
      assertThat(changed.code).as(changed.err).isZero();
      assertThat(changed.out).contains("EAFR settings reloaded: eafr.reads.warm-up.ms = 5000 (was " + before + ")");
      assertThat(inForce.get()).isEqualTo(5_000L);

      conf.set("eafr.reads.warm-up.ms", "-1");
      AdminRun bad = run("settings", "reload");
      assertThat(bad.code).isEqualTo(1);
      assertThat(bad.err).contains("settings reload refused").contains("eafr.reads.warm-up.ms")
          .contains("the settings in force are unchanged");
      assertThat(inForce.get()).isEqualTo(5_000L);
    } finally {
      conf.set("eafr.reads.warm-up.ms", before);
    }
    AdminRun undone = run("settings", "reload", "-json");
    assertThat(undone.code).as(undone.err).isZero();
    assertThat(undone.out).contains("\"eafr.reads.warm-up.ms\" : " + before).contains("\"needRestart\" : { }");
    assertThat(inForce.get()).isEqualTo(Long.parseLong(before));
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
    GenericTestUtils.waitFor(() -> jmx("RoundsTotal") == 1, 100, 60_000);
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
    assertThat(text.out.lines().findFirst().orElseThrow().split("\\s+")[1]).isEqualTo("HOST");
    for (JsonNode node : nodes) {
      String line = text.out.lines().filter(l -> l.startsWith(node.get("id").asText() + " ")).findFirst()
          .orElseThrow();
      assertThat(line.split("\\s+")[1]).as("the host name beside the IP:port").isEqualTo(node.get("host").asText());
    }
  }

  /**
   * Reading commands (a status table, the power agents' polls) are logged at DEBUG only, not by Hadoop's refresh
   * registry at INFO; a command that changes state gets one INFO line naming the user, the command and the answer.
   */
  @Test
  void theLogHasOneInfoLinePerChangingCommand_andReadingCommandsAtDebugOnly() throws Exception {
    String log;
    try (org.eafr.namenode.power.LogCapture capture = new org.eafr.namenode.power.LogCapture()) {
      assertThat(run("status").code).isZero();
      assertThat(run("nodes", "-json").code).isZero();
      assertThat(run("roles", "reload").code).isZero();
      log = capture.text();
    }
    List<String> info = log.lines().filter(l -> l.startsWith("INFO ") && !l.startsWith("INFO StateChange"))
        .filter(l -> l.contains("eafr") || l.contains("EAFR")).collect(java.util.stream.Collectors.toList());
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    assertThat(info).as(log).containsExactly("INFO AdminLog - EAFR admin: user " + user + " ran 'hdfs eafr roles"
        + " reload': EAFR roles reloaded from " + cluster.rolesFile() + ": 2 entries, unlisted DataNodes HOT");
    assertThat(log).doesNotContain("responds to 'eafr'").doesNotContain("DATANODE ")
        .contains("DEBUG AdminLog - EAFR admin: user " + user + " ran 'hdfs eafr status': answered (");
  }

  @Test
  void changingAndReadingCommands_asNonSuperuser_areDenied() throws Exception {
    UserGroupInformation alice = UserGroupInformation.createUserForTesting("alice", new String[] {"users"});
    AdminRun denied = alice.doAs((PrivilegedExceptionAction<AdminRun>) () -> run("roles", "reload"));
    assertThat(denied.code).isEqualTo(1);
    assertThat(denied.err).contains("user alice may not run 'hdfs eafr roles reload'");
    AdminRun status = alice.doAs((PrivilegedExceptionAction<AdminRun>) () -> run("status"));
    assertThat(status.code).as("status shows hosts, BMC endpoints and paths").isEqualTo(1);
    assertThat(status.err).contains("user alice may not run 'hdfs eafr status'");
    AdminRun superuser = run("status");
    assertThat(superuser.code).as(superuser.err).isZero();
    assertThat(superuser.out).contains("DataNodes per role:");
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
  void unknownCommand_isAUsageError_showingTheUsageOfTheCommandMeantOnly() throws Exception {
    AdminRun run = run("gera", "3");
    assertThat(run.code).isEqualTo(2);
    assertThat(run.err).isEqualTo("hdfs eafr: unknown command 'gera 3'; did you mean 'gear'?\n"
        + "Usage: hdfs eafr [-namenode HOST:PORT] gear N|up|down|auto [-json]\n"
        + "'hdfs eafr -help' lists every command.\n");
    AdminRun none = run();
    assertThat(none.code).isEqualTo(2);
    assertThat(none.err).isEqualTo("hdfs eafr: no command given\nUsage: hdfs eafr [-namenode HOST:PORT] COMMAND"
        + " [-json]\n'hdfs eafr -help' lists every command.\n");
    AdminRun help = run("--help");
    assertThat(help.code).isZero();
    assertThat(help.out).startsWith("Usage: hdfs eafr").contains("Exit code 0 done");
  }

  /**
   * A bad operand, a misspelled option or command is a usage error (exit 2) before anything is sent: the tool is
   * pointed at a port where no NameNode listens, which a sent request would report (exit 1).
   */
  @Test
  void badOperandsAndOptions_areUsageErrors_withDidYouMean_andNothingIsSent() throws Exception {
    int closedPort = closedPort();
    String nowhere = "127.0.0.1:" + closedPort;
    String gearUsage = "Usage: hdfs eafr [-namenode HOST:PORT] gear N|up|down|auto [-json]\n"
        + "'hdfs eafr -help' lists every command.\n";
    assertThat(usageError("-namenode", nowhere, "gear", "abc")).isEqualTo("hdfs eafr: 'gear abc' is not allowed:"
        + " expected N|up|down|auto (N a gear number, 0 or more)\n" + gearUsage);
    assertThat(usageError("-namenode", nowhere, "gear", "-1"))
        .startsWith("hdfs eafr: 'gear -1' is not allowed: expected N|up|down|auto");
    assertThat(usageError("-namenode", nowhere, "gear", "atuo")).isEqualTo("hdfs eafr: 'gear atuo' is not allowed:"
        + " expected N|up|down|auto (N a gear number, 0 or more); did you mean 'auto'?\n" + gearUsage);
    assertThat(usageError("-namenode", nowhere, "status", "-jsn"))
        .startsWith("hdfs eafr: unknown option '-jsn'; did you mean '-json'?\n");
    assertThat(usageError("-namenod", nowhere, "status"))
        .startsWith("hdfs eafr: unknown option '-namenod'; did you mean '-namenode'?");
    assertThat(usageError("-namenode", nowhere, "power", "on")).isEqualTo("hdfs eafr: 'power on' needs HOST: hdfs"
        + " eafr power on HOST\nUsage: hdfs eafr [-namenode HOST:PORT] power on HOST [-json]\n'hdfs eafr -help' lists"
        + " every command.\n");
    AdminRun sent = run("-namenode", nowhere, "gear", "2");
    assertThat(sent.code).as("a good command is sent, and fails for want of a NameNode").isEqualTo(1);
  }

  /**
   * A roles file that makes every registered DataNode standby, or an empty one, is refused by {@code roles reload},
   * naming the problem; the roles in force stay.
   */
  @Test
  void rolesReload_refusesAFileWithNoHotDataNode_andAnEmptyFile() throws Exception {
    List<String> allStandby = new java.util.ArrayList<>(List.of("unlisted hot"));
    for (int i = 0; i < EafrCluster.RACKS.length; i++) {
      allStandby.add("standby " + cluster.id(i));
    }
    try {
      Files.write(cluster.rolesFile(), allStandby, StandardCharsets.UTF_8);
      AdminRun none = run("roles", "reload");
      assertThat(none.code).isEqualTo(1);
      assertThat(none.err).contains("makes none of the " + EafrCluster.RACKS.length + " registered DataNodes hot"
          + " (each is standby)").contains("the roles in force are unchanged");
      Files.write(cluster.rolesFile(), List.of("# nothing yet"), StandardCharsets.UTF_8);
      AdminRun empty = run("roles", "reload");
      assertThat(empty.code).isEqualTo(1);
      assertThat(empty.err).contains("is empty: it has no 'hot', 'standby' or 'unlisted' line");
      assertThat(cluster.roleOf(cluster.descriptor(2))).isEqualTo(ServerRole.STANDBY);
      assertThat(cluster.roleOf(cluster.descriptor(0))).isEqualTo(ServerRole.HOT);
    } finally {
      cluster.standby(2, 5);
    }
  }

  /**
   * A power command whose host's BMC does not answer: with {@code -json} the refusal is JSON on stdout (exit 1) with
   * the host's quarantine and last error, which are what the operator needs then; JSON says null where a value is
   * absent.
   */
  @Test
  void powerStatusJson_ofAQuarantinedHost_printsQuarantineAndLastError() throws Exception {
    AdminRun on = run("power", "on", BROKEN, "-json");
    assertThat(on.code).isEqualTo(1);
    JsonNode failed = new ObjectMapper().readTree(on.out);
    assertThat(failed.get("quarantined").asBoolean()).isTrue();
    assertThat(failed.get("error").asText()).startsWith("power on " + BROKEN + " failed: ");

    // power status answers from the state the manager keeps: the quarantine and last error, no BMC wait
    AdminRun status = run("power", "status", BROKEN, "-json");
    assertThat(status.code).as(status.err).isZero();
    JsonNode answer = new ObjectMapper().readTree(status.out);
    assertThat(answer.get("host").asText()).isEqualTo(BROKEN);
    assertThat(answer.get("command").asText()).isEqualTo("status");
    assertThat(answer.get("quarantined").asBoolean()).isTrue();
    assertThat(answer.get("lastError").asText()).contains("BMC of " + BROKEN + " does not answer");
    assertThat(answer.get("state").asText()).as("never read from its BMC").isEqualTo("UNKNOWN");
    assertThat(answer.get("endpoint").isNull()).as("null, not a sentinel").isFalse();

    AdminRun text = run("power", "status", BROKEN);
    assertThat(text.code).as(text.err).isZero();
    assertThat(text.out).contains("UNKNOWN").contains("quarantined").contains("does not answer");
    AdminRun cleared = run("power", "clear", BROKEN);
    assertThat(cleared.code).as(cleared.err).isZero();
  }

  /** The tool connects with a short timeout and one retry unless the operator's configuration says otherwise. */
  @Test
  void clientConf_shortensHadoopsConnectDefaults_butKeepsTheOperatorsValues() {
    Configuration defaults = AdminTool.clientConf(new Configuration());
    assertThat(defaults.getInt("ipc.client.connect.timeout", 0)).isEqualTo(AdminTool.CONNECT_TIMEOUT_MILLIS);
    assertThat(defaults.getInt("ipc.client.connect.max.retries", 0)).isEqualTo(1);
    assertThat(defaults.getInt("ipc.client.connect.max.retries.on.timeouts", 0)).isEqualTo(1);
    Configuration operators = new Configuration();
    operators.setInt("ipc.client.connect.max.retries", 7);
    assertThat(AdminTool.clientConf(operators).getInt("ipc.client.connect.max.retries", 0)).isEqualTo(7);
  }

  @Test
  void aNameNodeThatCannotBeReached_orAMalformedAddress_isSaidInOneLine_withoutAStackTrace() throws Exception {
    Configuration conf = new Configuration(cluster.conf());
    int closedPort = closedPort();
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
        + " one of rabbit, springfs, accordion, eafr-geared in hdfs-site.xml and restart the NameNode");
  }

  /** The error output of a command line that must be a usage error (exit 2). */
  private static String usageError(String... args) throws Exception {
    AdminRun run = run(args);
    assertThat(run.code).as(run.err).isEqualTo(2);
    return run.err;
  }

  private static int closedPort() throws java.io.IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    }
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
