package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.test.GenericTestUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.eafr.namenode.admin.AdminRun;
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

  @BeforeAll
  void startCluster() throws Exception {
    cluster = GearTestCluster.start(GearTestCluster.conf("gear-shift"));
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

  @Test
  @Order(2)
  void gearDownThatWouldStrandAReplicationOneFileIsRefusedNamingFileAndBlock() throws Exception {
    String scratch = "/scratch/one-copy";
    cluster.write(scratch, 1, 4096, 99);
    // A balancer run moved its only replica off the primaries: gear 0 would leave it with no live replica.
    GearedLayout layout = GearTestCluster.layout(cluster);
    LocatedBlock located = cluster.mini().getNameNodeRpc().getBlockLocations(scratch, 0, 1).get(0);
    String target = layout.chain().id(layout.serversOn(4).minus(layout.serversOn(0)).positions()[0]);
    DatanodeDescriptor to = descriptor(target);
    new BlockMover(blockManager()).move(located.getBlock().getLocalBlock(), located.getLocations()[0], to);
    GenericTestUtils.waitFor(() -> holders(scratch).equals(List.of(target)), 100, 30_000);
    GearState before = GearTestCluster.gears(cluster).state();

    assertThatThrownBy(() -> service().requestGear(0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("gear 0 refused").hasMessageContaining("file " + scratch)
        .hasMessageContaining(located.getBlock().getLocalBlock().getBlockName())
        .hasMessageContaining(target);

    assertThat(GearTestCluster.gears(cluster).state()).isEqualTo(before);
    assertThat(GearTestCluster.running(cluster)).hasSize(12);
    for (DatanodeInfo dn : cluster.mini().getNameNodeRpc().getDatanodeReport(
        org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType.ALL)) {
      assertThat(dn.isInService()).as("%s in service", dn).isTrue();
    }
    cluster.delete(scratch);
  }

  @Test
  @Order(3)
  void gearDownToTheMinimumKeepsEveryFileReadableAndWritesGoingOn() throws Exception {
    GearedLayout layout = GearTestCluster.layout(cluster);
    ActiveSet primaries = layout.serversOn(0);

    String decision = service().requestGear(0);
    assertThat(decision).contains("gear 4 -> 0 (MANUAL)");
    GearTestCluster.awaitGear(cluster, 0);

    assertThat(GearTestCluster.running(cluster)).containsExactlyInAnyOrderElementsOf(primaries.ids());
    for (String sleeping : layout.serversOn(4).minus(primaries).ids()) {
      DatanodeDescriptor dn = descriptor(sleeping);
      assertThat(dn.isInMaintenance()).as("%s in maintenance", sleeping).isTrue();
      assertThat(dn.isAlive()).as("%s stopped", sleeping).isFalse();
    }
    cluster.verifyChecksums();
    for (int i = 0; i < 4; i++) {
      String path = "/low/f" + i;
      cluster.write(path, 3, EafrCluster.BLOCK_SIZE + 512 * i, 100 + i);
      lowGearFiles.add(path);
      assertThat(holders(path)).allMatch(primaries::contains);
    }
    cluster.verifyChecksums();
    // HDFS schedules no re-replication for the sleeping DataNodes, and no block is short of a live replica.
    org.apache.hadoop.hdfs.server.namenode.FSNamesystem namesystem = cluster.mini().getNamesystem();
    GenericTestUtils.waitFor(() -> blockManager().getPendingReconstructionBlocksCount() == 0, 100, 10_000);
    assertThat(namesystem.getMissingBlocksCount()).isZero();
    assertThat(blockManager().getPendingReconstructionBlocksCount()).isZero();
    assertThat(namesystem.getUnderReplicatedBlocks()).isZero();
    for (String file : cluster.files()) {
      for (List<String> blockHolders : cluster.blockHolders(file)) {
        assertThat(blockHolders).as("holders of a block of %s", file).hasSize(3);
      }
    }
    GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).counters().owedFiles.get() == lowGearFiles.size(),
        100, 10_000);
  }

  @Test
  @Order(4)
  void gearUpReflectsLowGearWritesAndRemovesTheOffloadedCopies() throws Exception {
    service().requestGear(4);
    GearTestCluster.awaitGear(cluster, 4);

    assertThat(GearTestCluster.running(cluster)).hasSize(12);
    assertThat(GearTestCluster.gears(cluster).counters().owedFiles.get()).isZero();
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
    for (String metric : List.of("Gear", "TargetGear", "SleepingNodes", "ReflectionBacklogFiles", "GearShifts",
        "GearShiftsRefused", "BlocksReflected")) {
      String field = Character.toLowerCase(metric.charAt(0)) + metric.substring(1);
      assertThat(gears.get(field).asLong()).as(metric).isEqualTo(((Number) AdminRun.jmx(metric)).longValue());
    }
    assertThat(gears.get("gear").asLong()).isEqualTo(4);
    assertThat(gears.get("gearShifts").asLong()).isEqualTo(2);
    assertThat(gears.get("gearPhase").asText()).isEqualTo(AdminRun.jmx("tag.GearPhase")).isEqualTo("STEADY");
  }

  private GearService service() {
    return GearTestCluster.gears(cluster).service();
  }

  private BlockManager blockManager() {
    return cluster.mini().getNamesystem().getBlockManager();
  }

  private DatanodeDescriptor descriptor(String id) {
    int colon = id.lastIndexOf(':');
    return blockManager().getDatanodeManager().getDatanodeByXferAddr(id.substring(0, colon),
        Integer.parseInt(id.substring(colon + 1)));
  }

  private List<String> holders(String path) {
    try {
      return cluster.holders(path);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

}
