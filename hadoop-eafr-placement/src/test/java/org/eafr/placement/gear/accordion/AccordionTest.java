package org.eafr.placement.gear.accordion;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.OffloadLedger;
import org.eafr.placement.gear.WakePlanner;
import org.eafr.placement.settings.EafrSettings;
import org.eafr.placement.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

class AccordionTest {

  /** The paper's Fig. 1: positions 0, 1 = nodes 2, 3 (low gear); 2, 3 = nodes 1, 4. */
  private final ExpansionChain fig1 = GearServers.chain(4, 1);
  private final AccordionLayout fig1Layout = new AccordionLayout(fig1, new int[] {2, 2}, 3);

  @Test
  void fig1_highGroupReplicatesIntoTheLowGroup_lowGroupChainDeclusters() {
    assertThat(fig1Layout.homesOf(2)).containsExactly(2, 0, 1); // node 1 -> node 2, then node 3 (neighbour)
    assertThat(fig1Layout.homesOf(3)).containsExactly(3, 1, 0); // node 4 -> node 3, then node 2
    assertThat(fig1Layout.homesOf(0)).containsExactly(0, 1, 2); // node 2, node 3, then its image in group 1, node 1
    assertThat(fig1Layout.homesOf(1)).containsExactly(1, 0, 3); // node 3, node 2, then its image in group 1, node 4
    assertThat(fig1Layout.serversOn(0)).isEqualTo(ActiveSet.of(fig1, 0, 1));
    assertThat(fig1Layout.recoveryGroup(0).isEmpty()).isTrue();
  }

  @Test
  void fig1_lowGearWrites_reflectOnlyTheRemainder_oneCopyPerBlock() {
    OffloadLedger ledger = new OffloadLedger();
    for (int b = 0; b < 4; b++) {
      BlockPlacement placement = fig1Layout.place(BlockRequest.of("b" + b, 3), fig1Layout.serversOn(0));
      assertThat(placement.holders()).containsExactlyInAnyOrder(0, 1);
      assertThat(placement.missingHomes()).hasSize(1);
      ledger.record("b" + b, placement);
    }

    List<BlockMove> reflection = ledger.reflectionFor(fig1Layout.serversOn(1));

    assertThat(reflection).hasSize(4);
    assertThat(reflection).allSatisfy(move -> {
      assertThat(move.to()).isGreaterThanOrEqualTo(2);
      assertThat(move.dropSource()).isFalse();
    });
    reflection.forEach(ledger::moved);
    assertThat(ledger.blocks()).isZero();
  }

  @Test
  void twentyServersInGearsOf2_8_20_reflectOnlyCopiesOfWokenGroups() {
    ExpansionChain chain = GearServers.chain(20, 1);
    int[] groups = AccordionLayout.geometricGroups(20, 2, 3);
    assertThat(groups).containsExactly(2, 6, 12);
    AccordionLayout layout = new AccordionLayout(chain, groups, 3);
    OffloadLedger ledger = new OffloadLedger();
    int missing = 0;
    for (int b = 0; b < 1000; b++) {
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, 3), layout.serversOn(0));
      ledger.record("b" + b, placement);
      missing += placement.missingHomes().length;
    }

    List<BlockMove> toGear1 = ledger.reflectionFor(layout.serversOn(1));
    List<BlockMove> toGear2 = ledger.reflectionFor(layout.serversOn(2));

    assertThat(toGear2).hasSize(missing);
    assertThat(toGear1).allSatisfy(move -> assertThat(layout.gearOf(move.to())).isEqualTo(1));
    assertThat(toGear1.size()).isLessThan(toGear2.size());
  }

  @Test
  void everyPrimarysHomes_includeALowestGroupServer_soEveryGearHoldsEveryBlock() {
    ExpansionChain chain = GearServers.chain(20, 1);
    AccordionLayout layout = new AccordionLayout(chain, new int[] {2, 6, 12}, 2);
    for (int x = 0; x < 20; x++) {
      int[] homes = layout.homesOf(x);
      assertThat(homes).hasSize(2);
      assertThat(layout.gearOf(homes[0]) == 0 || layout.gearOf(homes[1]) == 0).isTrue();
    }
  }

  @Test
  void reflectionBatches_workedExample() {
    List<BlockMove> moves = new ArrayList<>();
    for (int b = 0; b < 5; b++) {
      moves.add(new BlockMove("x" + b, 0, 2, false));
    }
    moves.add(new BlockMove("y0", 0, 3, false));
    moves.add(new BlockMove("y1", 0, 3, false));

    List<Reflection.Batch> batches = new Reflection(4).batches(moves);

    assertThat(batches).extracting(Reflection.Batch::toString)
        .containsExactly("0 -> 2 (4 blocks)", "0 -> 2 (1 blocks)", "0 -> 3 (2 blocks)");
  }

  @Test
  void fig1_existingBlockKeepsItsLowGroupCopies_primaryInTurn_oneCopyOwed() {
    AccordionLayout layout = new AccordionLayout(fig1, new int[] {2, 2}, 3);
    ActiveSet all = layout.serversOn(1);
    int[][] expected = {{0, 1, 2}, {1, 0, 3}, {2, 0, 1}, {3, 1, 0}};
    for (int[] homes : expected) {
      BlockPlacement placement = layout.placeExisting(BlockRequest.of("b", 3), all, new int[] {0, 1});
      assertThat(homesOf(placement)).containsExactly(homes);
    }
  }

  @Test
  void fig1_existingBlockWithoutAChainedPair_keepsTheMostHolders() {
    AccordionLayout layout = new AccordionLayout(fig1, new int[] {2, 2}, 3);
    ActiveSet all = layout.serversOn(1);
    assertThat(homesOf(layout.placeExisting(BlockRequest.of("b", 3), all, new int[] {0, 2})))
        .containsExactly(0, 1, 2);
    // the turn is at 1 now: 1, 0, 3 keeps one holder, 2, 0, 1 both
    assertThat(homesOf(layout.placeExisting(BlockRequest.of("b", 3), all, new int[] {0, 2})))
        .containsExactly(2, 0, 1);
    layout.place(BlockRequest.of("x", 3), all); // the turn is at 3 now: 3, 1, 0 keeps one holder, 0, 1, 2 two
    assertThat(homesOf(layout.placeExisting(BlockRequest.of("b", 3), all, new int[] {0, 2})))
        .containsExactly(0, 1, 2);
  }

  @Test
  void blocksOwingAfterGear0_reflectNoMoreThanTheirMissingCopies_allAboveTheLowestGroup() {
    ExpansionChain chain = GearServers.chain(20, 4);
    AccordionLayout layout = new AccordionLayout(chain, new int[] {4, 8, 8}, 3);
    ActiveSet all = layout.serversOn(2);
    int missing = 0;
    int reflected = 0;
    for (int b = 0; b < 1000; b++) {
      BlockPlacement written = layout.place(BlockRequest.of("b" + b, 3), layout.serversOn(0));
      // two homes in the lowest group and the third above it: every block written in gear 0 owes a copy
      assertThat(written.owesMoves()).as("block %d", b).isTrue();
      missing += written.missingHomes().length + written.offloadedCount();
      int[] holders = written.holders();
      BlockPlacement target = layout.placeExisting(BlockRequest.of("b" + b, 3), all, holders);
      for (int home : homesOf(target)) {
        if (!written.holds(home)) {
          assertThat(layout.gearOf(home)).as("a copy owed by block %d", b).isPositive();
          reflected++;
        }
      }
    }
    assertThat(missing).isPositive();
    assertThat(reflected).isLessThanOrEqualTo(missing);
  }

  @Test
  void fromSettings_defaultLowestGroupIsAFifthOfTheServersAtLeast3_growingByTwo() {
    assertThat(AccordionLayout.defaultLowestGroup(300)).isEqualTo(60);
    assertThat(AccordionLayout.defaultLowestGroup(16)).isEqualTo(3);
    assertThat(AccordionLayout.defaultLowestGroup(12)).isEqualTo(3);
    assertThat(AccordionLayout.defaultLowestGroup(4)).isEqualTo(3);
    assertThat(AccordionLayout.defaultLowestGroup(2)).isEqualTo(2);
    assertThat(AccordionLayout.from(EafrSettings.defaults(), GearServers.chain(300, 10)).groupSizes())
        .containsExactly(60, 120, 120);
    assertThat(AccordionLayout.from(EafrSettings.defaults(), GearServers.chain(16, 2)).groupSizes())
        .containsExactly(3, 6, 7);
    assertThat(AccordionLayout.from(EafrSettings.defaults(), GearServers.chain(8, 2)).groupSizes())
        .containsExactly(3, 5);
    EafrSettings three = EafrSettings.builder().set("eafr.gear.accordion.lowest-group", "3")
        .set("eafr.gear.accordion.growth", "1").build();
    AccordionLayout equalGroups = AccordionLayout.from(three, GearServers.chain(12, 3));
    assertThat(equalGroups.groupSizes()).containsExactly(3, 3, 3, 3);
    assertThat(equalGroups.maximumGear()).isEqualTo(3);
  }

  @Test
  void fromSettings_badGroupSizesAreRefusedNamingTheKeyAndWhatIsAllowed() {
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.gear.accordion.lowest-group", "1").build())
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("eafr.gear.accordion.lowest-group = 1 is not allowed").hasMessageContaining("at least 2");
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.gear.accordion.growth", "0.5"))
        .isInstanceOf(InvalidSettingException.class).hasMessageContaining("eafr.gear.accordion.growth = 0.5");
    EafrSettings thirteen = EafrSettings.builder().set("eafr.gear.accordion.lowest-group", "13").build();
    assertThatThrownBy(() -> AccordionLayout.from(thirteen, GearServers.chain(12, 3)))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessage("eafr.gear.accordion.lowest-group = 13 is not allowed: 0 (N / 5) or 2..12: the expansion chain"
            + " has 12 servers");
  }

  @Test
  void twelveServersInGroupsOf3_6_3_aFailedLowestGroupServerWakesOnlyTheHomesAboveItsBlocks() {
    ExpansionChain chain = GearServers.chain(12, 3);
    ActiveSet none = ActiveSet.none(chain);
    // r = 3: each block keeps its chained neighbour's copy in the lowest group, so a failure there wakes nothing.
    AccordionLayout three = new AccordionLayout(chain, new int[] {3, 6, 3}, 3);
    for (int f = 0; f < 3; f++) {
      assertThat(new WakePlanner(three).forFailure(f, three.serversOn(0).minus(ActiveSet.of(chain, f)), none)
          .isEmpty()).as("failed %s", f).isTrue();
    }
    // r = 2: server 0's blocks from primaries 3, 6 (group 1: 3 + (x - 3) mod 3 = 0) and 9 (group 2, via 3) have no
    // other low copy: those three of the nine sleepers wake, and a block held at 0 and 6 is served by that group.
    AccordionLayout two = new AccordionLayout(chain, new int[] {3, 6, 3}, 2);
    WakePlanner planner = new WakePlanner(two);
    ActiveSet on = two.serversOn(0).minus(ActiveSet.of(chain, 0));
    assertThat(planner.forFailure(0, on, ActiveSet.of(chain, 0))).isEqualTo(ActiveSet.of(chain, 3, 6, 9));
    assertThat(planner.forBlock(new int[] {0, 6}, on, ActiveSet.of(chain, 0))).isEqualTo(ActiveSet.of(chain, 3, 6, 9));
  }

  /**
   * Twelve servers in groups of 3, 6 and 3 (the NameNode's test cluster; the simulator's 16 servers get 3, 6 and 7), r
   * = 3. The lowest group keeps two copies of every block, the chained pair, and the third goes above it: primary 0's
   * homes are 0, its neighbour 1, and its image in group 1, 3 + (0 mod 6) = 3 (not 0, 1, 2, the next servers of the
   * chain, which filled the lowest group). So a lowest-group server that fails in gear 0 leaves each of its blocks a
   * copy on the servers still on and a server there that lacks it (the re-replication's destination), and failures of
   * the whole lowest group leave every block its copy above. With 0, 1, 2, failures of 2, 1 and 0 (one at a time,
   * each one's blocks re-replicated to the gear-0 servers still on) lost every block of primary 0: nowhere to copy it.
   */
  @Test
  void lowestGroupOf3_r3_keepsTheChainedPairThere_andTheThirdCopyAbove() {
    ExpansionChain chain = GearServers.chain(12, 3);
    AccordionLayout layout = new AccordionLayout(chain, new int[] {3, 6, 3}, 3);
    assertThat(layout.homesOf(0)).containsExactly(0, 1, 3);
    assertThat(layout.homesOf(1)).containsExactly(1, 2, 4);
    assertThat(layout.homesOf(2)).containsExactly(2, 0, 5);
    assertThat(layout.homesOf(4)).containsExactly(4, 1, 2); // group 1's 4 -> 0 + (1 mod 3) = 1, then its neighbour
    assertThat(layout.homesOf(9)).containsExactly(9, 0, 1); // group 2's 9 -> 3 -> 0, then 0's neighbour
    ActiveSet gear0 = layout.serversOn(0);
    for (int failed = 0; failed < 3; failed++) {
      for (int primary = 0; primary < 12; primary++) {
        ActiveSet homes = ActiveSet.of(chain, layout.homesOf(primary));
        if (homes.contains(failed)) {
          ActiveSet stillOn = gear0.without(failed);
          assertThat(stillOn.minus(homes).isEmpty()).as("primary %d, %d failed", primary, failed).isFalse();
          assertThat(homes.minus(gear0).isEmpty()).as("primary %d: a copy above the lowest group", primary)
              .isFalse();
        }
      }
    }
  }

  private static int[] homesOf(BlockPlacement placement) {
    int[] homes = new int[placement.size()];
    for (int i = 0; i < homes.length; i++) {
      homes[i] = placement.home(i);
    }
    return homes;
  }
}
