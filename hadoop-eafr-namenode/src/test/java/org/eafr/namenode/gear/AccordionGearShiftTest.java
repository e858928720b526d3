package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.accordion.AccordionLayout;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Gear shifts with {@code eafr.layout = accordion} on the gear tests' cluster (12 DataNodes, 3 racks; groups of 3, 6
 * and 3 DataNodes, {@link GearTestCluster#accordionConf}), in order: blocks follow the layout, a refused gear-down, a
 * gear-down to the minimum gear with reads and writes going on, and the gear-up that reflects only the copies the
 * low-gear writes owe the woken groups.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AccordionGearShiftTest {
  private EafrCluster cluster;
  private final List<String> lowGearFiles = new ArrayList<>();

  @BeforeAll
  void startCluster() throws Exception {
    cluster = GearTestCluster.start(GearTestCluster.accordionConf("accordion-shift"));
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
  void newBlocksFollowAccordionsGroupsInTheTopGear() throws Exception {
    GearedLayout layout = GearTestCluster.layout(cluster);
    assertThat(layout).isInstanceOf(AccordionLayout.class);
    assertThat(((AccordionLayout) layout).groupSizes()).containsExactly(3, 6, 3);
    assertThat(layout.maximumGear()).isEqualTo(2);
    assertThat(GearTestCluster.gears(cluster).state().gear()).isEqualTo(2);
    for (String file : cluster.files()) {
      GearTestCluster.assertAccordionLayout(cluster, file);
    }
  }

  @Test
  @Order(2)
  void gearDownThatWouldStrandAReplicationOneFileIsRefusedNamingFileAndBlock() throws Exception {
    GearedLayout layout = GearTestCluster.layout(cluster);
    GearTestCluster.assertGearZeroRefusedForAStrandedFile(cluster,
        layout.chain().id(layout.serversOn(2).minus(layout.serversOn(1)).positions()[0]));
  }

  @Test
  @Order(3)
  void gearDownToTheMinimumKeepsEveryFileReadableAndWritesGoingOn() throws Exception {
    assertThat(service().requestGear(0)).contains("gear 2 -> 0 (MANUAL)");
    GearTestCluster.awaitGear(cluster, 0);

    lowGearFiles.addAll(List.of("/low/f0", "/low/f1", "/low/f2", "/low/f3"));
    GearTestCluster.assertAsleepThenWrite(cluster, lowGearFiles);
    // A file owes moves when one of its blocks has a home asleep: with r = 3 every block has two homes in the lowest
    // group (the chained pair) and the third above it, so every file written in gear 0 owes.
    GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).counters().owedFiles.get() == lowGearFiles.size(),
        100, 60_000);
  }

  @Test
  @Order(4)
  void gearUpReflectsOnlyTheRemainderAndRemovesTheExtraCopies() throws Exception {
    service().requestGear(2);
    GearTestCluster.awaitGear(cluster, 2);

    assertThat(GearTestCluster.running(cluster)).hasSize(12);
    // the step that reaches the gear counts the backlog after it has put the state in force
    GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).counters().owedFiles.get() == 0, 100, 60_000);
    int lowGearBlocks = 0;
    for (String file : lowGearFiles) {
      lowGearBlocks += cluster.blockHolders(file).size();
    }
    assertThat(GearTestCluster.gears(cluster).counters().blocksReflected.get()).isBetween(1L, (long) lowGearBlocks);
    GearedLayout layout = GearTestCluster.layout(cluster);
    long movedUp = 0;
    for (String file : lowGearFiles) {
      for (List<String> holders : cluster.blockHolders(file)) {
        long inLowestGroup = holders.stream().filter(id -> layout.gearOf(layout.chain().requirePosition(id)) == 0)
            .count();
        assertThat(inLowestGroup).as("copies of a block of %s kept in the lowest group: %s", file, holders)
            .isGreaterThanOrEqualTo(2);
        movedUp += 3 - inLowestGroup;
      }
    }
    assertThat(movedUp).as("copies reflected to the woken groups").isPositive();
    for (String file : cluster.files()) {
      GearTestCluster.assertAccordionLayout(cluster, file);
    }
    cluster.verifyChecksums();
  }

  private GearService service() {
    return GearTestCluster.gears(cluster).service();
  }
}
