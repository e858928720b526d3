package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeAdminProperties;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.util.CombinedHostsFileWriter;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.GearedLayout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A geared cluster that grows and shrinks (12 DataNodes on 3 racks, equal-work with p = 4 and g = 2): 4 DataNodes
 * added to it join the expansion chain behind the 12 (which keep their positions and gears), every gear down and up
 * works afterwards with every file intact; then a DataNode HDFS decommissions leaves the layout: the gears neither
 * wait for it nor power it, and {@code hdfs eafr status} names it; a NameNode restart keeps both.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GearGrowthTest {
  private static final String[] ADDED_RACKS = {"/r1", "/r2", "/r3", "/r1"};
  private EafrCluster cluster;
  private List<GearRecord.ChainEntry> firstChain;

  @BeforeAll
  void startCluster() throws Exception {
    Configuration conf = GearTestCluster.conf("gear-growth");
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_DECOMMISSION_INTERVAL_KEY, 1);
    cluster = GearTestCluster.start(conf);
    for (int i = 0; i < 6; i++) {
      cluster.write("/before/f" + i, 3, EafrCluster.BLOCK_SIZE + 4096 * i, i);
    }
    firstChain = GearTestCluster.gears(cluster).state().chain();
  }

  @AfterAll
  void stopCluster() {
    GearTestCluster.stop(cluster);
  }

  @Test
  @Order(1)
  void fourDataNodesAdded_joinTheChainBehindTheTwelve_andEveryGearDownAndUpWorks() throws Exception {
    assertThat(firstChain).hasSize(12);
    assertThat(GearTestCluster.layout(cluster).maximumGear()).isEqualTo(4);

    GearTestCluster.addDataNodes(cluster, ADDED_RACKS);
    GearRuntime gears = GearTestCluster.gears(cluster);

    GearRecord grown = gears.state();
    assertThat(grown.chain().subList(0, 12)).as("the 12 keep their positions").isEqualTo(firstChain);
    assertThat(grown.chain().subList(12, 16)).extracting(GearRecord.ChainEntry::rack)
        .as("one rack after another").containsExactly("/r1", "/r2", "/r3", "/r1");
    assertThat(grown.sizedFor()).isEqualTo(12);
    GearedLayout layout = GearTestCluster.layout(cluster);
    assertThat(layout.maximumGear()).isEqualTo(6);
    assertThat(grown.gear()).as("the top gear stays the top gear").isEqualTo(6);
    assertThat(gears.service().outsideLayout()).isEmpty();
    for (int gear = 0; gear <= 4; gear++) {
      assertThat(layout.serversOn(gear).size()).isEqualTo(4 + 2 * gear);
    }
    for (int i = 0; i < 4; i++) {
      cluster.write("/after/f" + i, 3, EafrCluster.BLOCK_SIZE + 512 * i, 50 + i);
    }

    for (int gear = 5; gear >= 0; gear--) {
      shiftTo(gear);
      assertThat(GearTestCluster.running(cluster)).as("running in gear %d", gear)
          .containsExactlyInAnyOrderElementsOf(layout.serversOn(gear).ids());
    }
    cluster.write("/low/f0", 3, EafrCluster.BLOCK_SIZE, 80);
    for (int gear = 1; gear <= 6; gear++) {
      shiftTo(gear);
    }
    assertThat(GearTestCluster.running(cluster)).hasSize(16);
  }

  @Test
  @Order(2)
  void aDecommissionedDataNode_leavesTheLayout_andTheGearsNeitherWaitForNorPowerIt() throws Exception {
    GearRuntime gears = GearTestCluster.gears(cluster);
    GearedLayout layout = GearTestCluster.layout(cluster);
    String leaving = layout.chain().id(13); // one of the added DataNodes, above gear 0
    writeHosts(leaving);
    cluster.datanodeManager().refreshNodes(cluster.conf());
    GenericTestUtils.waitFor(() -> GearTestCluster.descriptor(cluster, leaving).isDecommissioned(), 200, 120_000);
    GenericTestUtils.waitFor(() -> gears.state().retired().contains(leaving), 100, 60_000);

    AdminRun status = AdminRun.run(cluster.conf(), "status", "-json");
    assertThat(status.code).as(status.err).isZero();
    JsonNode outside = new ObjectMapper().readTree(status.out).path("gears").path("outsideLayout");
    assertThat(outside.path(leaving).asText()).startsWith("decommissioned: out of the layout");
    AdminRun text = AdminRun.run(cluster.conf(), "status");
    assertThat(text.out).contains("outside the layout: " + leaving + ": decommissioned");

    shiftTo(0);
    assertThat(GearTestCluster.running(cluster)).as("never powered off").contains(leaving);
    assertThat(gears.state().sleeping()).doesNotContain(leaving);
    shiftTo(layout.maximumGear());
    assertThat(gears.state().retired()).containsExactly(leaving);
    assertThat(GearTestCluster.descriptor(cluster, leaving).isDecommissioned()).isTrue();
  }

  @Test
  @Order(3)
  void theGrownChainAndTheDecommissionedDataNode_surviveANameNodeRestart() throws Exception {
    GearRecord before = GearTestCluster.gears(cluster).state();
    GearTestCluster.restartNameNode(cluster);
    GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).layout().isPresent(), 100, 60_000);

    GearRecord after = GearTestCluster.gears(cluster).state();
    assertThat(after.chain()).extracting(GearRecord.ChainEntry::id)
        .isEqualTo(before.chain().stream().map(GearRecord.ChainEntry::id).collect(java.util.stream.Collectors.toList()));
    assertThat(after.sizedFor()).isEqualTo(12);
    assertThat(after.retired()).isEqualTo(before.retired()).hasSize(1);
    assertThat(GearTestCluster.layout(cluster).maximumGear()).isEqualTo(6);
    GenericTestUtils.waitFor(() -> cluster.datanodeManager().getDatanodeListForReport(DatanodeReportType.LIVE).stream()
        .filter(dn -> dn.checkBlockReportReceived()).count() == 16, 100, 60_000); // the floor sees every replica
    shiftTo(4);
    shiftTo(6);
  }

  private void shiftTo(int gear) throws Exception {
    GearTestCluster.gears(cluster).service().requestGear(gear);
    GearTestCluster.awaitGear(cluster, gear);
    cluster.verifyChecksums();
  }

  /** The JSON hosts file listing every DataNode NORMAL but {@code decommissioned} (an operator's decommission). */
  private void writeHosts(String decommissioned) throws Exception {
    Set<DatanodeAdminProperties> entries = new HashSet<>();
    for (GearRecord.ChainEntry server : GearTestCluster.gears(cluster).state().chain()) {
      DatanodeAdminProperties entry = new DatanodeAdminProperties();
      entry.setHostName(server.id().substring(0, server.id().lastIndexOf(':')));
      entry.setPort(Integer.parseInt(server.id().substring(server.id().lastIndexOf(':') + 1)));
      entry.setAdminState(server.id().equals(decommissioned) ? AdminStates.DECOMMISSIONED : AdminStates.NORMAL);
      entries.add(entry);
    }
    CombinedHostsFileWriter.writeFile(Path.of(cluster.conf().get(DFSConfigKeys.DFS_HOSTS)).toString(), entries);
  }
}
