package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.energy.EnergySnapshot;
import org.eafr.namenode.energy.NodeEnergy;
import org.eafr.namenode.power.DataNodePowerState;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Gear shifts on one shared cluster (12 DataNodes, 3 racks, equal-work layout), in order: a refused gear-down, a
 * gear-down to the minimum gear with reads and writes going on, and the gear-up that reflects the low-gear writes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GearShiftTest {
  private EafrCluster cluster;
  private final List<String> lowGearFiles = new ArrayList<>();
  private EnergySnapshot lowGearEnergy;

  @BeforeAll
  void startCluster() throws Exception {
    Configuration conf = GearTestCluster.conf("gear-shift");
    conf.set("eafr.energy.sample.ms", "3600000"); // energy is sampled when the test (or status) asks
    conf.setBoolean("hadoop.prometheus.endpoint.enabled", true);
    cluster = GearTestCluster.start(conf);
    for (int i = 0; i < 6; i++) {
      cluster.write("/data/f" + i, 3, EafrCluster.BLOCK_SIZE + 4096 * i, i);
    }
  }

  @AfterAll
  void stopCluster() {
    GearTestCluster.stop(cluster);
  }

  @Test
  @Order(1)
  void newBlocksFollowTheEqualWorkLayoutInTheTopGear() throws Exception {
    GearedLayout layout = GearTestCluster.layout(cluster);
    assertThat(layout.maximumGear()).isEqualTo(4);
    assertThat(layout.serversOn(0).size()).isEqualTo(4);
    assertThat(GearTestCluster.gears(cluster).state().gear()).isEqualTo(4);
    for (String file : cluster.files()) {
      GearTestCluster.assertEqualWorkLayout(cluster, file);
    }
  }

  /**
   * A client writing with NO_LOCAL_WRITE from a primary's host (HDFS excludes the writer's DataNode for it) still gets
   * the block's gear-0 replica on that primary when the layout deals the block to it: without the rule, about one
   * block in four here (4 primaries) lost its primary replica, and gear 0 was refused for it.
   */
  @Test
  @Order(1)
  void noLocalWriteFromAPrimaryHostKeepsTheBlocksGearZeroReplica() throws Exception {
    GearedLayout layout = GearTestCluster.layout(cluster);
    BlockManager blocks = cluster.namesystem().getBlockManager();
    for (String primary : layout.serversOn(0).ids()) {
      DatanodeDescriptor writer = GearTestCluster.descriptor(cluster, primary);
      for (int block = 0; block < 8; block++) {
        DatanodeStorageInfo[] targets = blocks.getBlockPlacementPolicy().chooseTarget("/hints/f", 3, writer,
            new ArrayList<>(), false, new HashSet<>(), EafrCluster.BLOCK_SIZE,
            blocks.getStoragePolicy(HdfsConstants.HOT_STORAGE_POLICY_NAME), EnumSet.of(AddBlockFlag.NO_LOCAL_WRITE));
        long onPrimaries = Arrays.stream(targets).filter(target -> layout.gearOf(layout.chain().requirePosition(
            ServerTranslator.idOf(target.getDatanodeDescriptor()))) == 0).count();
        assertThat(onPrimaries).as("gear-0 targets of block %d written from %s: %s", block, primary,
            Arrays.toString(targets)).isEqualTo(1);
      }
    }
  }

  @Test
  @Order(2)
  void gearDownThatWouldStrandAReplicationOneFileIsRefusedNamingFileAndBlock() throws Exception {
    GearedLayout layout = GearTestCluster.layout(cluster);
    GearTestCluster.assertGearZeroRefusedForAStrandedFile(cluster,
        layout.chain().id(layout.serversOn(4).minus(layout.serversOn(0)).positions()[0]));
  }

  @Test
  @Order(3)
  void gearDownToTheMinimumKeepsEveryFileReadableAndWritesGoingOn() throws Exception {
    GearedLayout layout = GearTestCluster.layout(cluster);
    ActiveSet primaries = layout.serversOn(0);

    String decision = service().requestGear(0);
    assertThat(decision).contains("gear 4 -> 0 (MANUAL): n/a servers needed").doesNotContain("NaN")
        .doesNotContain("Infinity");
    GearTestCluster.awaitGear(cluster, 0);

    lowGearFiles.addAll(List.of("/low/f0", "/low/f1", "/low/f2", "/low/f3"));
    GearTestCluster.assertAsleepThenWrite(cluster, lowGearFiles);
    // HDFS schedules no re-replication for the sleeping DataNodes, and no block is short of a live replica.
    org.apache.hadoop.hdfs.server.namenode.FSNamesystem namesystem = cluster.mini().getNamesystem();
    GenericTestUtils.waitFor(() -> blockManager().getPendingReconstructionBlocksCount() == 0, 100, 60_000);
    assertThat(namesystem.getMissingBlocksCount()).isZero();
    assertThat(blockManager().getPendingReconstructionBlocksCount()).isZero();
    assertThat(namesystem.getUnderReplicatedBlocks()).isZero();
    for (String file : cluster.files()) {
      for (List<String> blockHolders : cluster.blockHolders(file)) {
        assertThat(blockHolders).as("holders of a block of %s", file).hasSize(3);
      }
    }
    GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).counters().owedFiles.get() == lowGearFiles.size(),
        100, 60_000);
    lowGearEnergy = energyInTheMinimumGear(primaries);
  }

  /**
   * In gear 0 the 4 primaries are ON and draw Table 2 at their utilization, the 8 others OFF at 10 W each; with
   * every DataNode on, those 8 would draw 93.7 W: 8 * 83.7 = 669.6 W more.
   */
  private EnergySnapshot energyInTheMinimumGear(ActiveSet primaries) {
    EnergySnapshot sample = cluster.runtime().energy().sample();
    assertThat(sample.count(DataNodePowerState.ON)).isEqualTo(4);
    assertThat(sample.count(DataNodePowerState.OFF)).isEqualTo(8);
    assertThat(sample.nodes()).hasSize(12);
    double onWatts = 0;
    for (NodeEnergy node : sample.nodes().values()) {
      boolean primary = primaries.contains(node.id());
      assertThat(node.powerState()).as(node.id()).isEqualTo(primary ? DataNodePowerState.ON : DataNodePowerState.OFF);
      assertThat(node.gearGroup()).as(node.id()).isEqualTo(primary ? 0 : GearTestCluster.layout(cluster)
          .gearOf(GearTestCluster.layout(cluster).chain().requirePosition(node.id())));
      if (primary) {
        assertThat(node.watts()).isEqualTo(table2(node.utilization()));
        onWatts += node.watts();
      } else {
        assertThat(node.watts()).isEqualTo(10.0);
        assertThat(node.utilization()).isZero();
      }
    }
    assertThat(sample.sample().watts()).isCloseTo(onWatts + 8 * 10.0, within(1e-9));
    assertThat(sample.sample().allOnWatts() - sample.sample().watts()).isCloseTo(8 * (93.7 - 10.0), within(1e-9));
    return sample;
  }

  /** EAFR Table 2 (0 %: 93.7 W, 20 %: 101 W, ...), interpolated as the paper's curve, for the expected draws. */
  private static double table2(double utilization) {
    double[] utilizations = {0.0, 0.2, 0.4, 0.6, 0.8, 1.0};
    double[] watts = {93.7, 101, 110, 121, 129, 135};
    int lower = 0;
    while (lower < 4 && utilization >= utilizations[lower + 1]) {
      lower++;
    }
    double fraction = (utilization - utilizations[lower]) / (utilizations[lower + 1] - utilizations[lower]);
    return fraction == 0 ? watts[lower] : watts[lower] + (watts[lower + 1] - watts[lower]) * fraction;
  }

  @Test
  @Order(4)
  void gearUpReflectsLowGearWritesAndRemovesTheOffloadedCopies() throws Exception {
    // Between two samples the draw of the first holds: the 8 sleeping DataNodes saved 83.7 W each all that time.
    EnergySnapshot beforeGearUp = cluster.runtime().energy().sample();
    double hours = (beforeGearUp.sample().timeMillis() - lowGearEnergy.sample().timeMillis()) / 3_600_000.0;
    assertThat(hours).isPositive();
    assertThat(beforeGearUp.sample().savedKilowattHours() - lowGearEnergy.sample().savedKilowattHours())
        .isCloseTo(8 * 83.7 * hours / 1000, within(1e-12));
    assertThat(beforeGearUp.sample().kilowattHours() - lowGearEnergy.sample().kilowattHours())
        .isCloseTo(lowGearEnergy.sample().watts() * hours / 1000, within(1e-12));

    service().requestGear(4);
    GearTestCluster.awaitGear(cluster, 4);

    assertThat(GearTestCluster.running(cluster)).hasSize(12);
    // the step that reaches the gear counts the backlog after it has put the state in force
    GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).counters().owedFiles.get() == 0, 100, 60_000);
    int lowGearBlocks = 0;
    for (String file : lowGearFiles) {
      lowGearBlocks += cluster.blockHolders(file).size();
    }
    assertThat(GearTestCluster.gears(cluster).counters().blocksReflected.get()).isEqualTo(lowGearBlocks);
    for (String file : lowGearFiles) {
      GearTestCluster.assertEqualWorkLayout(cluster, file);
    }
    for (String file : cluster.files()) {
      for (List<String> blockHolders : cluster.blockHolders(file)) {
        assertThat(blockHolders).as("holders of a block of %s", file).hasSize(3);
      }
    }
    cluster.verifyChecksums();
  }

  @Test
  @Order(5)
  void gearCommandIsDeniedToNonSuperusersAndStatusJsonMatchesJmx() throws Exception {
    UserGroupInformation alice = UserGroupInformation.createUserForTesting("alice", new String[] {"users"});
    AdminRun denied = alice.doAs((PrivilegedExceptionAction<AdminRun>) () -> AdminRun.run(cluster.conf(), "gear",
        "down"));
    assertThat(denied.code).isEqualTo(1);
    assertThat(denied.err).contains("user alice may not run 'hdfs eafr gear'");
    assertThat(GearTestCluster.gears(cluster).state().target()).isEqualTo(4);

    AdminRun refused = AdminRun.run(cluster.conf(), "gear", "9");
    assertThat(refused.code).isEqualTo(1);
    assertThat(refused.err).contains("gear 9 does not exist").contains("0..4");

    AdminRun status = AdminRun.run(cluster.conf(), "status", "-json");
    assertThat(status.code).as(status.err).isZero();
    JsonNode gears = new ObjectMapper().readTree(status.out).get("gears");
    Map<String, String> jmxNames = Map.of("Gear", "Gear", "TargetGear", "TargetGear", "SleepingNodes",
        "SleepingNodes", "ReflectionBacklogFiles", "ReflectionBacklogFiles", "GearShifts", "GearShiftsTotal",
        "GearShiftsRefused", "GearShiftsRefusedTotal", "BlocksReflected", "BlocksReflectedTotal");
    jmxNames.forEach((metric, jmxName) -> assertThat(gears.get(jsonName(metric)).asLong()).as(metric)
        .isEqualTo(((Number) AdminRun.jmx(jmxName)).longValue()));
    assertThat(gears.get("gear").asLong()).isEqualTo(4);
    assertThat(gears.get("gearShifts").asLong()).isEqualTo(2);
    assertThat(gears.get("gearPhase").asText()).isEqualTo(AdminRun.jmx("EafrGears", "GearPhase")).isEqualTo("STEADY");
    assertEnergyAndPowerMatchJmx(new ObjectMapper().readTree(status.out));
  }

  /**
   * The energy fields of {@code status -json} equal the EafrNameNode bean's (both from the sample the status took;
   * JMX refreshes its cached record every few seconds), its power counters the EafrPower bean's, and each DataNode
   * shows its power state, gear group and draw.
   */
  private void assertEnergyAndPowerMatchJmx(JsonNode status) throws Exception {
    JsonNode energy = status.get("energy");
    GenericTestUtils.waitFor(() -> energy.get("wattsNow").asDouble() == (Double) AdminRun.jmx("PowerDrawWatts")
        && energy.get("energyUsedKwh").asDouble() == (Double) AdminRun.jmx("EnergyUsedKwhTotal"), 100, 60_000);
    for (String metric : List.of("DataNodesOn", "DataNodesOff", "DataNodesTransitioning", "DataNodesQuarantined",
        "DataNodesPowerUnknown")) {
      assertThat(energy.get(jsonName(metric)).asLong()).as(metric)
          .isEqualTo(((Number) AdminRun.jmx(metric)).longValue());
    }
    Map.of("WattsNow", "PowerDrawWatts", "WattsAllOn", "PowerDrawAllOnWatts", "EnergyUsedKwh", "EnergyUsedKwhTotal",
        "EnergySavedKwh", "EnergySavedKwhTotal").forEach((metric, jmxName) -> assertThat(
            energy.get(jsonName(metric)).asDouble()).as(metric).isEqualTo((Double) AdminRun.jmx(jmxName)));
    assertThat(energy.get("dataNodesOn").asLong()).isEqualTo(12);
    assertThat(energy.get("wattsAllOn").asDouble()).isEqualTo(energy.get("wattsNow").asDouble());
    assertThat(energy.get("energySavedKwh").asDouble()).isGreaterThan(lowGearEnergy.sample().savedKilowattHours());
    JsonNode power = status.get("power");
    Map.of("PoweredOn", "PoweredOnTotal", "PoweredOff", "PoweredOffTotal", "PowerFailedAttempts",
        "FailedAttemptsTotal", "PowerQuarantines", "QuarantinesTotal", "PowerCommands", "CommandsTotal")
        .forEach((metric, jmxName) -> assertThat(power.get(jsonName(metric)).asLong()).as(metric)
            .isEqualTo(((Number) AdminRun.jmx("EafrPower", jmxName)).longValue()));
    assertThat(power.get("poweredOff").asLong()).isEqualTo(8);
    assertThat(power.get("poweredOn").asLong()).isEqualTo(8);
    GearedLayout layout = GearTestCluster.layout(cluster);
    JsonNode beanStates = new ObjectMapper().readTree((String) AdminRun.jmx("EafrDataNodes", "DataNodePowerStates"));
    for (JsonNode node : status.get("nodes")) {
      String id = node.get("id").asText();
      assertThat(node.get("powerState").asText()).as(id).isEqualTo("ON")
          .isEqualTo(beanStates.get(id).asText());
      assertThat(node.get("gearGroup").asInt()).as(id).isEqualTo(layout.gearOf(layout.chain().requirePosition(id)));
      assertThat(node.get("watts").asDouble()).as(id).isBetween(93.7, 135.0);
    }
    AdminRun nodes = AdminRun.run(cluster.conf(), "nodes", "-json");
    for (JsonNode node : new ObjectMapper().readTree(nodes.out).get("nodes")) {
      assertThat(node.get("role").asText()).isEqualTo("HOT");
      assertThat(node.get("powerState").asText()).isEqualTo("ON");
    }
    AdminRun text = AdminRun.run(cluster.conf(), "status");
    assertThat(text.out).contains("DataNodes per power state: ON 12 OFF 0").contains("kWh saved")
        .contains("GEAR").contains("POWER");
  }

  @Test
  @Order(6)
  void prometheusEndpointShowsTheEnergyAndPowerMetricsInValidTextFormat() throws Exception {
    String prom = GearTestCluster.prom(cluster);
    for (String metric : List.of("eafr_name_node_power_draw_watts", "eafr_name_node_power_draw_all_on_watts",
        "eafr_name_node_energy_used_kwh_total", "eafr_name_node_energy_saved_kwh_total", "eafr_name_node_data_nodes_on",
        "eafr_name_node_data_nodes_off", "eafr_name_node_data_nodes_transitioning",
        "eafr_name_node_data_nodes_quarantined", "eafr_name_node_data_nodes_power_unknown", "eafr_name_node_gear",
        "eafr_name_node_target_gear", "eafr_name_node_reflection_backlog_files", "eafr_power_powered_on_total",
        "eafr_power_failed_attempts_total")) {
      assertThat(prom).as(metric).containsPattern("(?m)^" + metric + "\\{");
    }
    // Every EAFR sample line is Prometheus text format: name{label="value",...} number (no raw quotes in a value).
    Pattern sample = Pattern.compile("[a-z_]+\\{([a-z_]+=\"[^\"\\\\]*\"(,[a-z_]+=\"[^\"\\\\]*\")*)?\\} \\S+");
    for (String line : prom.split("\n")) {
      if (line.startsWith("eafr_")) {
        assertThat(sample.matcher(line).matches()).as(line).isTrue();
      }
    }
  }

  @Test
  @Order(7)
  void powerClearIsForTheSuperuser_refusesAnUnknownHostNamingIt_andAnswersJson() throws Exception {
    String host = GearTestCluster.running(cluster).get(0);
    UserGroupInformation alice = UserGroupInformation.createUserForTesting("alice", new String[] {"users"});
    AdminRun denied = alice.doAs((PrivilegedExceptionAction<AdminRun>) () -> AdminRun.run(cluster.conf(), "power",
        "clear", host));
    assertThat(denied.code).isEqualTo(1);
    assertThat(denied.err).contains("user alice may not run 'hdfs eafr power clear'");

    AdminRun unknown = AdminRun.run(cluster.conf(), "power", "clear", "nosuchhost:9866");
    assertThat(unknown.code).isEqualTo(1);
    assertThat(unknown.err).contains("host nosuchhost:9866 is not in the power inventory MiniDFSCluster")
        .contains(host);

    AdminRun cleared = AdminRun.run(cluster.conf(), "power", "clear", host, "-json");
    assertThat(cleared.code).as(cleared.err).isZero();
    JsonNode answer = new ObjectMapper().readTree(cleared.out);
    assertThat(answer.get("host").asText()).isEqualTo(host);
    assertThat(answer.get("wasQuarantined").asBoolean()).isFalse();
    assertThat(answer.get("quarantined").asBoolean()).isFalse();
    AdminRun text = AdminRun.run(cluster.conf(), "power", "clear", host);
    assertThat(text.out).contains(host + ": was not quarantined; nothing changed");
  }

  /**
   * {@code power on|off|status HOST -json} answer JSON (host, command, done, state, changed, attempts, the manager's
   * record), as the text answers say; a refused power-off exits 1 with the same object and its error, nothing changed.
   */
  @Test
  @Order(8)
  void powerOnOffStatusAndGear_answerJsonThroughTheTool() throws Exception {
    String host = GearTestCluster.running(cluster).get(0);
    // the answer comes from the state the manager keeps; each status starts one background read for the next
    org.apache.hadoop.test.GenericTestUtils.waitFor(() -> powerStatusState(host).equals("ON"), 100, 60_000);
    AdminRun status = AdminRun.run(cluster.conf(), "power", "status", host, "-json");
    assertThat(status.code).as(status.err).isZero();
    JsonNode read = new ObjectMapper().readTree(status.out);
    assertThat(read.get("host").asText()).isEqualTo(host);
    assertThat(read.get("command").asText()).isEqualTo("status");
    assertThat(read.get("done").asBoolean()).isTrue();
    assertThat(read.get("state").asText()).isEqualTo("ON");
    assertThat(read.get("driver").asText()).isEqualTo("minidfscluster");
    assertThat(read.get("quarantined").asBoolean()).isFalse();
    assertThat(read.get("lastError").isNull()).isTrue();

    AdminRun on = AdminRun.run(cluster.conf(), "power", "on", host, "-json");
    assertThat(on.code).as(on.err).isZero();
    JsonNode already = new ObjectMapper().readTree(on.out);
    assertThat(already.get("command").asText()).isEqualTo("on");
    assertThat(already.get("state").asText()).isEqualTo("ON");
    assertThat(already.get("changed").asBoolean()).as("already on: no command sent").isFalse();
    assertThat(already.get("attempts").asInt()).isEqualTo(1);
    assertThat(AdminRun.run(cluster.conf(), "power", "on", host).out).as("text: the same outcome")
        .matches(Pattern.quote(host + " was already ON (on, 1 attempt, ") + "\\d+ ms\\)\\s*");

    AdminRun gear = AdminRun.run(cluster.conf(), "gear", "4", "-json");
    assertThat(gear.code).as(gear.err).isZero();
    JsonNode shifted = new ObjectMapper().readTree(gear.out);
    assertThat(shifted.get("answer").asText()).isEqualTo("already in gear 4");
    assertThat(shifted.get("mode").asText()).isEqualTo("manual");
    assertThat(shifted.get("gear").asInt()).isEqualTo(4);
    assertThat(shifted.get("phase").asText()).isEqualTo("STEADY");

    AdminRun off = AdminRun.run(cluster.conf(), "power", "off", host, "-json");
    assertThat(off.code).isEqualTo(1);
    JsonNode refused = new ObjectMapper().readTree(off.out);
    assertThat(refused.get("error").asText()).contains("power off " + host + " failed: refusing to power off")
        .contains("IN_MAINTENANCE");
    assertThat(refused.get("state").isNull()).isTrue();
    assertThat(refused.get("quarantined").asBoolean()).isFalse();
    assertThat(GearTestCluster.running(cluster)).contains(host);
  }

  private static String jsonName(String metric) {
    return Character.toLowerCase(metric.charAt(0)) + metric.substring(1);
  }

  private GearService service() {
    return GearTestCluster.gears(cluster).service();
  }

  private BlockManager blockManager() {
    return cluster.mini().getNamesystem().getBlockManager();
  }

  /** The state {@code hdfs eafr power status HOST -json} answers now. */
  private String powerStatusState(String host) {
    try {
      AdminRun status = AdminRun.run(cluster.conf(), "power", "status", host, "-json");
      return new ObjectMapper().readTree(status.out).get("state").asText();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
