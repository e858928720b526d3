package org.eafr.placement.gear.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

class EqualWorkLayoutTest {

  @Test
  void table1_asPrinted_forP100() {
    int[] gearSizes = {1, 5, 10, 20, 50, 100};
    int[] printed = {174, 37, 20, 11, 6, 4};
    for (int i = 0; i < gearSizes.length; i++) {
      assertThat(EqualWorkLayout.table1RecoveryGroupSize(100, gearSizes[i])).as("g = %d", gearSizes[i])
          .isEqualTo(printed[i]);
    }
  }

  @Test
  void table1_layoutWithGearSize10_hasRecoveryGroupsOf19Servers_andAFailedPrimaryWakesOnlyItsGroup() {
    ExpansionChain chain = GearServers.chain(300, 1);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 100, 10, 2);

    assertThat(layout.gearGroups()).isEqualTo(19);
    ActiveSet group = layout.recoveryGroup(13); // primary 13 maps to recovery group 3
    assertThat(group.size()).isEqualTo(19);
    for (int p = group.next(0); p >= 0; p = group.next(p + 1)) {
      assertThat(layout.recoveryGroupOf(p)).isEqualTo(3);
    }
    assertThat(layout.recoveryGroup(150).isEmpty()).isTrue();
  }

  @Test
  void gears_areNested_gear0IsThePrimaries_eachGearAddsOneGearGroup() {
    ExpansionChain chain = GearServers.chain(100, 1);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 10, 5, 3);

    assertThat(layout.serversOn(0)).isEqualTo(ActiveSet.firstN(chain, 10));
    for (int gear = 1; gear <= layout.maximumGear(); gear++) {
      assertThat(layout.serversOn(gear - 1).isSubsetOf(layout.serversOn(gear))).isTrue();
    }
    assertThat(layout.serversOn(1).size()).isEqualTo(15);
    assertThat(layout.serversOn(layout.maximumGear())).isEqualTo(ActiveSet.all(chain));
    assertThat(layout.gearOf(9)).isZero();
    assertThat(layout.gearOf(10)).isEqualTo(1);
    assertThat(layout.gearOf(14)).isEqualTo(1);
    assertThat(layout.gearOf(15)).isEqualTo(2);
  }

  @Test
  void aGearThatDoesNotExist_isRefusedNamingTheRange() {
    EqualWorkLayout layout = new EqualWorkLayout(GearServers.chain(30, 1), 4, 1, 2);

    assertThatThrownBy(() -> layout.serversOn(99)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("gear 99 does not exist: layout equal-work has gears 0.." + layout.maximumGear());
  }

  @Test
  void primariesNotAMultipleOfTheGroupSize_areRefused() {
    assertThatThrownBy(() -> new EqualWorkLayout(GearServers.chain(100, 1), 10, 3, 3))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("p = 10 primaries and gear groups of g = 3")
        .hasMessageContaining("p a multiple of g");
  }

  @Test
  void allOn_everyReplicaAtHome_primaryOnAPrimary_distinct_twoRacks() {
    ExpansionChain chain = ExpansionChain.rackInterleaved(GearServers.servers(60, 3));
    EqualWorkLayout layout = new EqualWorkLayout(chain, 8, 1, 3);
    ActiveSet all = ActiveSet.all(chain);

    for (int b = 0; b < 2000; b++) {
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, 3), all);
      assertThat(placement.size()).isEqualTo(3);
      assertThat(placement.offloadedCount()).isZero();
      assertThat(placement.holder(0)).isLessThan(8);
      assertThat(placement.holder(1)).isGreaterThanOrEqualTo(8);
      Set<Integer> racks = new HashSet<>();
      for (int i = 0; i < 3; i++) {
        racks.add(chain.rack(placement.holder(i)));
      }
      assertThat(racks).hasSizeGreaterThanOrEqualTo(2);
    }
    // The primary is chosen on another rack than the non-primaries whenever one of the group's primaries is, so no
    // non-primary had to give way (dealing primaries in turn, about 1 block in 9 did on three racks: 168).
    assertThat(layout.rackSwaps()).isZero();
  }

  @Test
  void gear0_offloadsNonPrimariesToOtherPrimaries_andKeepsTheirHomes() {
    ExpansionChain chain = GearServers.chain(60, 2);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 8, 1, 3);

    BlockPlacement placement = layout.place(BlockRequest.of("b", 3), layout.serversOn(0));

    assertThat(placement.size()).isEqualTo(3);
    assertThat(placement.isOffloaded(0)).isFalse();
    for (int i = 1; i < 3; i++) {
      assertThat(placement.isOffloaded(i)).isTrue();
      assertThat(placement.holder(i)).isLessThan(8);
      assertThat(placement.home(i)).isGreaterThanOrEqualTo(8);
    }
  }

  @Test
  void tooFewServersOn_placesFewerReplicas() {
    ExpansionChain chain = GearServers.chain(30, 1);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 4, 1, 3);

    assertThat(layout.place(BlockRequest.of("b", 3), ActiveSet.of(chain, 0, 1)).size()).isEqualTo(2);
  }

  @Test
  void fromSettings_defaultPrimariesFillTheCluster() {
    ExpansionChain chain = GearServers.chain(300, 1);
    EqualWorkLayout layout = EqualWorkLayout.from(EafrSettings.defaults(), chain);

    // p = 300 / e^2 = 40.6 -> 40; the spread of 40 primaries and 3 replicas is 298 servers.
    assertThat(layout.primaries()).isEqualTo(40);
    assertThat(layout.groupSize()).isEqualTo(1);
    assertThat(40 + layout.gearGroups()).isEqualTo(EqualWorkShares.exactSpread(40, 3));
  }

  /**
   * The class comment's worked example of the low tier (p = 2, g = 1, r = 3 on 19 servers of one rack): gear groups
   * 1-4 (w = 1/3, 1/4, 1/5, 1/6, W = 0.95) are the low tier, no block takes two of them, and after 600 blocks the
   * lowest non-primary is in gear 1..4 for 200, 150, 121, 100 blocks (600 w within one) and above gear 4 for 29
   * (600 (1 - W) = 30). The blocks whose every non-primary is off at gear k = 1..4 (n = 3..6 servers on) are 400, 250,
   * 129, 29, against 600 p / n = 400, 300, 240, 200.
   */
  @Test
  void lowTier_workedExample_atMostOneLowNonPrimaryPerBlock_lowestDealtByItsWeights() {
    ExpansionChain chain = GearServers.chain(19, 1);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 2, 1, 3);
    long[] byLowest = lowestNonPrimaryGears(layout, 600);

    assertThat(layout.gearGroups()).isEqualTo(17);
    assertThat(java.util.Arrays.copyOfRange(byLowest, 1, 6)).containsExactly(200, 150, 121, 100, 9);
    long[] offAt = new long[5];
    for (int gear = 1; gear <= 4; gear++) {
      for (int lowest = gear + 1; lowest < byLowest.length; lowest++) {
        offAt[gear] += byLowest[lowest];
      }
    }
    assertThat(offAt).containsExactly(0, 400, 250, 129, 29);
  }

  /**
   * The `rabbit` scenario's r = 4 shape (N = 300 on 10 racks, rack-interleaved, p = 15, g = 5, 15,000 blocks): the
   * low tier is gear groups 1-5 (the weights, scaled by 1.054 for the 57 gear groups there is room for, add up to
   * 0.932), so at 45 and 60 servers on (gears 6 and 9) only 920 and 840 blocks (6.1% and 5.6%) have no non-primary
   * on, against p / n = 33.3% and 25% (dealt independently per replica: 37.3% and 28.2%).
   */
  @Test
  void lowTier_rabbitScenarioR4_blocksWithEveryNonPrimaryOff_wellBelowPOverN() {
    ExpansionChain chain = ExpansionChain.rackInterleaved(GearServers.servers(300, 10));
    EqualWorkLayout layout = new EqualWorkLayout(chain, 15, 5, 4);
    long[] byLowest = lowestNonPrimaryGears(layout, 15_000);

    assertThat(layout.gearGroups()).isEqualTo(57);
    assertThat(java.util.Arrays.copyOfRange(byLowest, 1, 11)).containsExactly(3955, 3165, 2635, 2260, 1975, 90, 0,
        80, 0, 95);
    assertThat(java.util.Arrays.stream(byLowest, 7, byLowest.length).sum()).isEqualTo(1010 - 90);
    assertThat(java.util.Arrays.stream(byLowest, 10, byLowest.length).sum()).isEqualTo(840);
  }

  /** How many of {@code blocks} blocks, placed with every server on, have their lowest non-primary in each gear. */
  private static long[] lowestNonPrimaryGears(EqualWorkLayout layout, int blocks) {
    long[] byLowest = new long[layout.maximumGear() + 1];
    int replicas = layout.shares().replicas();
    for (int b = 0; b < blocks; b++) {
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, replicas), ActiveSet.all(layout.chain()));
      int lowest = Integer.MAX_VALUE;
      for (int i = 1; i < placement.size(); i++) {
        lowest = Math.min(lowest, layout.gearOf(placement.home(i)));
      }
      byLowest[lowest]++;
    }
    return byLowest;
  }
}
