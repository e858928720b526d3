package org.eafr.placement.gear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.eafr.placement.gear.accordion.AccordionLayout;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

/**
 * A chain extended by appending servers keeps what its layout gave the servers already in it: the gears, the
 * recovery groups, Accordion's homes, and the automatic defaults computed from the size it was fixed with.
 */
class LayoutExtensionTest {
  private static final EafrSettings P4_G2_R3 = EafrSettings.builder().set(EafrSettings.GEAR_PRIMARIES, 4)
      .set(EafrSettings.GEAR_GROUP_SIZE, 2).set(EafrSettings.GEAR_REPLICAS, 3).build();

  @Test
  void equalWork_12to16_keepsGears0to4_andRescalesTheWeights_asTheWorkedExample() {
    EqualWorkLayout before = EqualWorkLayout.from(P4_G2_R3, chain(12), 12);
    EqualWorkLayout after = EqualWorkLayout.from(P4_G2_R3, chain(16), 12);

    assertThat(before.maximumGear()).isEqualTo(4);
    assertThat(after.maximumGear()).isEqualTo(6);
    assertKept(before, after);
    assertThat(before.shares().weight(1)).isCloseTo(0.70175, within(1e-5));
    assertThat(after.shares().weight(1)).isCloseTo(0.54741, within(1e-5));
  }

  @Test
  void equalWork_defaultPrimaries_stayThoseOfTheSizeTheChainWasFixedWith() {
    EafrSettings auto = EafrSettings.builder().set(EafrSettings.GEAR_PRIMARIES, 0)
        .set(EafrSettings.GEAR_GROUP_SIZE, 2).set(EafrSettings.GEAR_REPLICAS, 3).build();
    EqualWorkLayout before = EqualWorkLayout.from(auto, chain(60));
    EqualWorkLayout after = EqualWorkLayout.from(auto, chain(80), 60);

    assertThat(before.primaries()).isEqualTo(8);
    assertThat(EqualWorkLayout.from(auto, chain(80)).primaries()).as("fixed anew on 80").isEqualTo(10);
    assertThat(after.primaries()).isEqualTo(8);
    assertKept(before, after);
  }

  @Test
  void accordion_12to16_keepsTheLowerGroups_andEveryHomeOfTheServersAlreadyThere() {
    EafrSettings auto = EafrSettings.builder().set(EafrSettings.GEAR_ACCORDION_LOWEST_GROUP, 0)
        .set(EafrSettings.GEAR_REPLICAS, 3).build();
    AccordionLayout before = AccordionLayout.from(auto, chain(12), 12);
    AccordionLayout after = AccordionLayout.from(auto, chain(20), 12);

    assertThat(before.groupSizes()).containsExactly(3, 6, 3);
    assertThat(after.groupSizes()).containsExactly(3, 6, 11);
    assertThat(AccordionLayout.from(auto, chain(20)).groupSizes()).as("fixed anew on 20").containsExactly(4, 8, 8);
    assertKept(before, after);
    for (int primary = 0; primary < 12; primary++) {
      assertThat(after.homesOf(primary)).as("homes of primary %d", primary).containsExactly(before.homesOf(primary));
    }
  }

  /** Every gear but the highest of {@code before} keeps the same servers, and each old server the same recovery. */
  private static void assertKept(GearedLayout before, GearedLayout after) {
    for (int gear = 0; gear < before.maximumGear(); gear++) {
      assertThat(after.serversOn(gear).ids()).as("gear %d", gear).isEqualTo(before.serversOn(gear).ids());
    }
    assertThat(after.serversOn(before.maximumGear()).ids()).containsAll(before.serversOn(before.maximumGear()).ids());
    for (int position = 0; position < before.chain().size(); position++) {
      assertThat(after.gearOf(position)).as("gear of %d", position).isEqualTo(before.gearOf(position));
      assertThat(after.recoveryGroup(position).ids()).as("recovery group of %d", position)
          .containsAll(before.recoveryGroup(position).ids());
    }
  }

  private static ExpansionChain chain(int servers) {
    return ExpansionChain.rackInterleaved(GearServers.servers(servers, 3)); // s0, s1, ...: a prefix of a longer one
  }
}
