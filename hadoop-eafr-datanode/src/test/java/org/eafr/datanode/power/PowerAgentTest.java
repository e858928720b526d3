package org.eafr.datanode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.ipc.RefreshHandler;
import org.apache.hadoop.ipc.RefreshRegistry;
import org.apache.hadoop.ipc.RefreshResponse;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.PatternLayout;
import org.apache.log4j.WriterAppender;
import org.eafr.datanode.testing.RateControlCluster;
import org.eafr.namenode.admin.AdminHandler;
import org.eafr.namenode.admin.SleepAnswerLine;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.power.NameNodeHostView;
import org.eafr.namenode.power.PowerCommand;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.PowerRefusedException;
import org.eafr.namenode.power.PowerResult;
import org.eafr.namenode.power.PowerState;
import org.eafr.namenode.power.Requester;
import org.eafr.namenode.power.SleepRequests;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The in-band power agent on a MiniDFSCluster whose NameNode runs the EAFR plugin (its admin handler answers the
 * agents) and whose three DataNodes run the agent in dry run: the power manager's wol power-off of a DataNode in
 * maintenance reaches its agent, which stops it and logs its commands, and the manager then sees the host OFF through
 * heartbeats; a DataNode in service refuses a request and stays up; a user who is not the DataNode nor the superuser
 * is refused by the NameNode; an answer from another handler is ignored.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PowerAgentTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  private MiniDFSCluster cluster;
  private Configuration conf;
  private Path hostsFile;
  private StringWriter log;
  private WriterAppender appender;

  @BeforeAll
  void startCluster() throws Exception {
    assertThat(SleepAnswer.SENDER_PREFIX).isEqualTo(AdminHandler.class.getName() + "@");
    assertThat(SleepAnswer.IDENTIFIER).isEqualTo(AdminHandler.IDENTIFIER);
    Path tmp = Paths.get(System.getProperty("java.io.tmpdir"));
    Files.createDirectories(tmp);
    Path dir = Files.createTempDirectory(tmp, "power-agent");
    hostsFile = dir.resolve("dfs.hosts.json");
    Files.writeString(hostsFile, "[]");
    conf = AgentClusters.conf(dir, hostsFile);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_KEY, 500);
    conf.set(PowerAgentSettings.DRY_RUN_KEY, "true");
    conf.set(PowerAgentSettings.WOL_ARM_COMMAND_KEY, "ethtool -s eth0 wol g");
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(3).build();
    cluster.waitActive();
    DFSTestUtil.createFile(cluster.getFileSystem(), new org.apache.hadoop.fs.Path("/data/f"), 4096, (short) 3, 7L);
  }

  @AfterAll
  void stopCluster() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @BeforeEach
  void captureLog() {
    log = new StringWriter();
    appender = new WriterAppender(new PatternLayout("%p %c{1} - %m%n"), log);
    Logger.getRootLogger().addAppender(appender);
    Logger.getLogger("org.eafr").setLevel(Level.INFO);
  }

  @AfterEach
  void stopCapture() {
    Logger.getRootLogger().removeAppender(appender);
  }

  @Test
  void powerManagersWolOff_stopsTheDataNodeInMaintenance_andLogsTheDryRunCommands() throws Exception {
    DataNode dataNode = cluster.getDataNodes().get(0);
    String host = hostOf(dataNode);
    Path inventory = Files.createTempFile(Paths.get(System.getProperty("java.io.tmpdir")), "inv",
        ".json");
    Files.writeString(inventory, "{\"nodes\": [{\"host\": \"" + host + "\", \"driver\": \"wol\","
        + " \"mac\": \"00:5c:52:31:3a:9c\", \"address\": \"127.0.0.1\"}]}");
    Configuration powerConf = new Configuration(false);
    powerConf.set("eafr.power.inventory.file", inventory.toString());
    powerConf.set("eafr.power.min-command-interval.ms", "0");
    powerConf.set("eafr.power.poll.initial.ms", "200");
    powerConf.set("eafr.power.poll.max.ms", "1000");
    powerConf.set("eafr.power.retries", "0");
    RateControlCluster.await("the agent of " + host + " to attach", WAIT, () -> sleepRequests().attached(host));

    try (PowerManager power = PowerDrivers.startManager(powerConf, new NameNodeHostView(cluster.getNameNode()),
        sleepRequests(), 1)) {
      assertThatThrownBy(() -> power.powerOff(host, false, Requester.OPERATOR).get(60, TimeUnit.SECONDS))
          .hasCauseInstanceOf(PowerRefusedException.class)
          .hasMessageContaining("NORMAL, not IN_MAINTENANCE");
      maintenance(dataNode);
      RateControlCluster.await(host + " IN_MAINTENANCE", WAIT, () -> descriptor(dataNode).isInMaintenance());

      PowerResult off = power.powerOff(host, false, Requester.AUTOMATIC).get(60, TimeUnit.SECONDS);

      assertThat(off.changed()).isTrue();
      assertThat(off.state()).isEqualTo(PowerState.OFF);
      assertThat(dataNode.isDatanodeUp()).isFalse();
      assertThat(descriptor(dataNode).isAlive()).isFalse(); // dead and in maintenance: the wol driver's OFF
      assertThat(descriptor(dataNode).isInMaintenance()).isTrue();
    }
    String text = log.toString();
    int arm = text.indexOf("EAFR power agent (dry run): would run eafr.datanode.power-agent.wol-arm.command:"
        + " ethtool -s eth0 wol g");
    int stop = text.indexOf("EAFR power agent: DataNode stopped");
    int sleep = text.indexOf("EAFR power agent (dry run): would run eafr.datanode.power-agent.host.command:"
        + " systemctl suspend");
    assertThat(arm).as(text).isPositive();
    assertThat(stop).isGreaterThan(arm);
    assertThat(sleep).isGreaterThan(stop);
    assertThat(text).contains("the NameNode asks " + dataNode.getDatanodeId().getHostName() + "/" + host
        + " to sleep (graceful-off, host " + host + ") and shows it IN_MAINTENANCE");
    assertThat(sleepRequests().pending(host)).isNull();
    // the block stays readable from the DataNodes still up
    assertThat(DFSTestUtil.readFileAsBytes(cluster.getFileSystem(), new org.apache.hadoop.fs.Path("/data/f"))).hasSize(4096);
  }

  @Test
  void aDataNodeInService_refusesTheRequest_andStaysUp() throws Exception {
    DataNode dataNode = cluster.getDataNodes().get(1);
    String host = hostOf(dataNode);
    RateControlCluster.await("the agent of " + host + " to attach", WAIT, () -> sleepRequests().attached(host));
    sleepRequests().request(host, PowerCommand.GRACEFUL_OFF, 60_000);

    String refusal = "EAFR power agent refuses: the NameNode asks " + dataNode.getDatanodeId().getHostName() + "/"
        + host + " to sleep (graceful-off, host " + host + ") but shows it NORMAL, not IN_MAINTENANCE";
    RateControlCluster.await("the refusal in the log", WAIT, () -> log.toString().contains(refusal));
    long polls = sleepRequests().polls(host);
    RateControlCluster.await("three more polls", WAIT, () -> sleepRequests().polls(host) >= polls + 3);
    assertThat(dataNode.isDatanodeUp()).isTrue();
    assertThat(sleepRequests().pending(host)).isEqualTo(PowerCommand.GRACEFUL_OFF);
    assertThat(log.toString()).doesNotContain(host + ") and shows it IN_MAINTENANCE");
    assertThat(log.toString()).containsOnlyOnce(refusal); // logged once, not on every poll
    // JMX serves a snapshot cached for up to one metrics period (10 s)
    RateControlCluster.await("the refusal in JMX", WAIT, () -> ((Number) jmx(dataNode, "RefusalsTotal"))
        .longValue() > 0);
    assertThat(jmx(dataNode, "State")).as("idle or polling").isIn(0, 1);
    assertThat(jmx(dataNode, "SleepsTotal")).isEqualTo(0L);
  }

  @Test
  void anotherUser_isRefusedByTheNameNode_andAForeignAnswerIsIgnored() throws Exception {
    DataNode dataNode = cluster.getDataNodes().get(2);
    String host = hostOf(dataNode);
    String uuid = dataNode.getDatanodeUuid();
    RateControlCluster.await("the agent of " + host + " to attach", WAIT, () -> sleepRequests().attached(host));
    sleepRequests().request(host, PowerCommand.FORCED_OFF, 60_000);
    UserGroupInformation mallory = UserGroupInformation.createUserForTesting("mallory", new String[] {"users"});
    NameNodeSleepChannel asMallory = new NameNodeSleepChannel(conf, mallory);

    assertThat(asMallory.ask(SleepAnswer.POLL, uuid)).isEmpty();
    assertThat(asMallory.ask(SleepAnswer.TAKE, uuid)).isEmpty();

    String superuser = UserGroupInformation.getLoginUser().getShortUserName();
    for (String verb : new String[] {"sleep poll", "sleep take"}) {
      assertThat(log.toString()).contains("refused: user mallory (authenticated by SIMPLE) may not ask '"
          + verb + "' for DataNode " + dataNode.getDatanodeId().getHostName() + "/" + host
          + ": only that DataNode's own principal or the HDFS superuser (" + superuser
          + " or members of supergroup) may");
    }
    assertThat(sleepRequests().pending(host)).isEqualTo(PowerCommand.FORCED_OFF); // mallory took nothing

    // a handler other than EAFR's answering under its identifier is not believed, even with a well-formed answer
    RefreshHandler forger = (identifier, args) -> new RefreshResponse(0, SleepAnswerLine.encode(uuid, "x",
        "IN_MAINTENANCE", true, "forced-off", host));
    RefreshRegistry.defaultRegistry().register(AdminHandler.IDENTIFIER, forger);
    try {
      NameNodeSleepChannel asDataNode = new NameNodeSleepChannel(conf, UserGroupInformation.getLoginUser());
      assertThat(asDataNode.ask(SleepAnswer.POLL, uuid)).extracting(SleepAnswer::adminState)
          .containsExactly("NORMAL");
      assertThat(log.toString()).contains("ignoring an answer from").contains("not the EAFR admin handler");
      long polls = sleepRequests().polls(host);
      RateControlCluster.await("three more polls", WAIT, () -> sleepRequests().polls(host) >= polls + 3);
      assertThat(dataNode.isDatanodeUp()).isTrue();
    } finally {
      RefreshRegistry.defaultRegistry().unregister(AdminHandler.IDENTIFIER, forger);
    }
  }

  @Test
  void offByDefault_asksNothing_andABadSettingStopsTheDataNode() throws Exception {
    Configuration off = new Configuration(conf);
    off.unset(PowerAgentSettings.ENABLED_KEY);
    cluster.startDataNodes(off, 1, true, null, null);
    cluster.waitActive();
    DataNode dataNode = cluster.getDataNodes().get(cluster.getDataNodes().size() - 1);
    String host = hostOf(dataNode);
    RateControlCluster.await(host + " to register", WAIT, () -> dataNode.getDatanodeUuid() != null
        && descriptor(dataNode) != null);
    long polls = sleepRequests().polls();
    // the agents that are on poll five times each meanwhile (two agents or more: at least 10 polls)
    RateControlCluster.await("five poll intervals", WAIT, () -> sleepRequests().polls() >= polls + 10);
    assertThat(sleepRequests().attached(host)).isFalse();
    assertThat(log.toString()).contains("EAFR power agent is off (eafr.datanode.power-agent.enabled = false)");

    Configuration bad = new Configuration(cluster.getConfiguration(0));
    bad.set(PowerAgentSettings.ENABLED_KEY, "yes");
    bad.set(DFSConfigKeys.DFS_DATANODE_DATA_DIR_KEY, new java.io.File(cluster.getDataDirectory(), "refused")
        .getAbsolutePath());
    bad.set(DFSConfigKeys.DFS_DATANODE_ADDRESS_KEY, "127.0.0.1:0");
    bad.set(DFSConfigKeys.DFS_DATANODE_HTTP_ADDRESS_KEY, "127.0.0.1:0");
    bad.set(DFSConfigKeys.DFS_DATANODE_IPC_ADDRESS_KEY, "127.0.0.1:0");
    DataNode refused = DataNode.instantiateDataNode(new String[0], bad);
    try {
      assertThatThrownBy(refused::runDatanodeDaemon)
          .hasMessage("eafr.datanode.power-agent.enabled = yes is not allowed: expected true or false");
    } finally {
      refused.shutdown();
    }
  }

  private SleepRequests sleepRequests() {
    return EafrRuntime.of(cluster.getNameNode().getConf()).sleepRequests();
  }

  private DatanodeManager dataNodes() {
    return cluster.getNamesystem().getBlockManager().getDatanodeManager();
  }

  private DatanodeDescriptor descriptor(DataNode dataNode) {
    return dataNodes().getDatanode(dataNode.getDatanodeUuid());
  }

  private static String hostOf(DataNode dataNode) {
    return dataNode.getDatanodeId().getIpAddr() + ":" + dataNode.getDatanodeId().getXferPort();
  }

  private void maintenance(DataNode dataNode) throws IOException {
    AgentClusters.maintenance(cluster, conf, hostsFile, dataNode);
  }

  private static Object jmx(DataNode dataNode, String attribute) {
    try {
      ObjectName name = new ObjectName("Hadoop:service=DataNode,name=" + PowerAgentMetrics.NAME_PREFIX
          + dataNode.getDisplayName().replace(':', '-'));
      return ManagementFactory.getPlatformMBeanServer().getAttribute(name, attribute);
    } catch (javax.management.JMException e) {
      throw new IllegalStateException(e);
    }
  }
}
