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
}
