package org.eafr.namenode.relayout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.layout.CapacityPrimaries;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.policy.GearedPolicies;
import org.eafr.placement.gear.policy.LayoutContext;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

/** LowestGearRoom's worked examples: 12 DataNodes, r = 3, 10 GB reserves. */
class LowestGearRoomTest {
  private static final long GB = 1_000_000_000L;
  private static final long RESERVE = 10 * GB;

  private static EqualWorkLayout layout() {
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      servers.add(Server.builder("dn" + i).rack("r" + i % 2).build());
    }
    return new EqualWorkLayout(ExpansionChain.of(servers), 4, 1, 3);
  }

  private static Map<String, Long> capacities(long gb) {
    return capacities(12, gb);
  }

  private static Map<String, Long> capacities(int dataNodes, long gb) {
    Map<String, Long> capacities = new HashMap<>();
    for (int i = 0; i < dataNodes; i++) {
      capacities.put("dn" + i, gb * GB);
    }
    return capacities;
  }

  /** eafr-geared's settings with p primaries, a read floor of 0.5 and 10 GB reserves. */
  private static EafrSettings floorOfHalf(int primaries) {
    return EafrSettings.defaults().toBuilder().set("eafr.gear.primaries", String.valueOf(primaries))
        .set("eafr.gear.eafr.read-floor", "0.5").set("eafr.storage-reserve.bytes", String.valueOf(RESERVE)).build();
  }

  /** The layouts eafr-geared builds with {@code core} on 24 DataNodes of 100 GB on 2 racks, by p. */
  private static IntFunction<GearedLayout> eafrGeared(EafrSettings core) {
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      servers.add(Server.builder("dn" + i).rack("r" + i % 2).storageCapacity(100 * GB).build());
    }
    ExpansionChain chain = ExpansionChain.of(servers);
    GearedLayout any = GearedPolicies.EAFR_GEARED.layout(new LayoutContext(core, chain, 24, Clock.systemUTC(),
        () -> new Random(1)));
    return LowestGearRoom.grownBy(GearedPolicies.EAFR_GEARED, core, any, 24);
  }

  /** 1.2 TB stored on 12 x 90 GB usable: gear 0 is short, and so is every layout (the copies fill the cluster). */
  @Test
  void aLowestGearShortOfOneCopy_saysHowMuchItHolds() {
    LowestGearRoom room = LowestGearRoom.of(layout(), capacities(100), 1_200 * GB, 3, RESERVE, 0.05, 1);

    assertThat(room.heldShare()).isEqualTo(360.0 / 420.0);
    assertThat(room.holdsOneCopy()).isFalse();
    assertThat(room.text()).startsWith("lowest gear (4 DataNodes, 360.0 GB usable) holds 86% of one copy (400.0 GB"
        + " stored / r, with 5% headroom)");
    assertThat(room.toJsonMap()).containsEntry("oneCopyBytes", 400 * GB)
        .containsEntry("lowestGearUsableBytes", 360 * GB).containsEntry("primariesNeeded", null);
  }

  /**
   * Worked example (1): gear 0's storage holds 120% of a copy of 300 GB, but equal-work puts (1 / 5) x 2 / (1/5 + ..
   * + 1/12) of the copy on the fifth DataNode, which fills at 90 GB: the layout holds 76% of it, and no p holds it.
   */
  @Test
  void aLayoutWhoseSharesOverflowAPrimaryPastTheLowestGear_isShortThoughGearZeroHoldsTheCopy() {
    LowestGearRoom room = LowestGearRoom.of(layout(), capacities(100), 900 * GB, 3, RESERVE, 0, 1);

    double harmonic = 0;
    for (int n = 5; n <= 12; n++) {
      harmonic += 1.0 / n;
    }
    assertThat(room.heldShare()).isEqualTo(360.0 / 300.0);
    assertThat(room.layoutHeldShare()).isCloseTo(90.0 / (2 / harmonic / 5) / 300, within(1e-9));
    assertThat(room.holdsOneCopy()).isFalse();
    assertThat(room.primariesNeeded()).isEmpty();
    assertThat(room.text()).isEqualTo("lowest gear (4 DataNodes, 360.0 GB usable) holds 120% of one copy (300.0 GB"
        + " stored / r, with 0% headroom); the layout's shares hold 76% of it: the whole expansion chain cannot hold"
        + " one copy with that headroom; add DataNodes\n");
  }

  /**
   * Worked example (2), CapacityPrimaries' own: 4 DataNodes of 750 GB then 20 of 250 GB, p = 2 by capacity, a copy of
   * 1.4 TB. Gear 0's 1.48 TB holds it, but the fifth DataNode (the first of 250 GB, 240 GB usable) takes the
   * equal-work minimum B / 5 and fills at 1.2 TB, 86% of the copy; p = 5 holds it.
   */
  @Test
  void theLayoutAwareP_growsUntilTheDataNodesPastThePrimariesHoldTheirShares() {
    List<Server> servers = new ArrayList<>();
    Map<String, Long> capacities = new HashMap<>();
    for (int i = 0; i < 24; i++) {
      long capacity = (i < 4 ? 750 : 250) * GB;
      servers.add(Server.builder("s" + i).rack("r0").storageCapacity(capacity).build());
      capacities.put("s" + i, capacity);
    }
    EqualWorkLayout layout = new EqualWorkLayout(ExpansionChain.of(servers), 2, 1, 3, 24, true, RESERVE);

    LowestGearRoom room = LowestGearRoom.of(layout, capacities, 4_200 * GB, 3, RESERVE, 0, 1);

    assertThat(room.heldShare()).isEqualTo(1_480.0 / 1_400.0);
    assertThat(layout.share(4)).isCloseTo(1.0 / 5, within(1e-12));
    assertThat(room.layoutHeldShare()).isCloseTo(1_200.0 / 1_400.0, within(1e-9));
    assertThat(room.primariesNeeded()).hasValue(5);
    assertThat(room.text()).isEqualTo("lowest gear (2 DataNodes, 1.48 TB usable) holds 106% of one copy (1.40 TB"
        + " stored / r, with 0% headroom); the layout's shares hold 86% of it: grow p to 5 ('hdfs eafr relayout"
        + " grow' grows the layout and relays out its blocks)\n");
  }

  /**
   * Worked example (3): eafr-geared with a read floor of 0.5 on 24 DataNodes of 100 GB, p = 3, a copy of 240 GB. Gear
   * 0's 270 GB holds it, but the layout spreads over the floor's 12 DataNodes and its shares hold 95% of it. Rabbit's
   * equal-work layout over all 24 would hold it with the same p = 3, which the check once named and grow then refused
   * ("p must be more"); the layouts eafr-geared builds for a larger p (the floor still 12 DataNodes, the equal-work
   * minimum B / n on a later one of the same size) hold less, so no p does.
   */
  @Test
  void aReadFloorSpread_isTheLayoutTheGrownPIsCheckedOn_soGrowNeverNamesThePInForce() {
    EafrSettings core = floorOfHalf(3);
    GearedLayout floored = eafrGeared(core).apply(3);
    IntFunction<GearedLayout> grownTo = LowestGearRoom.grownBy(GearedPolicies.EAFR_GEARED, core, floored, 24);

    LowestGearRoom room = LowestGearRoom.of(floored, grownTo, capacities(24, 100), 720 * GB, 3, RESERVE, 0, 1);

    long[] usable = new long[24];
    Arrays.fill(usable, 90 * GB);
    assertThat(CapacityPrimaries.copyHeld(new EqualWorkLayout(floored.chain(), 3, 1, 3), usable, 0)).isGreaterThan(240.0 * GB);
    for (int p = 4; p <= 10; p++) {
      assertThat(grownTo.apply(p).serversOn(0).size()).isEqualTo(p);
      assertThat(CapacityPrimaries.copyHeld(grownTo.apply(p), usable, 0)).as("p = %d", p).isLessThan(240.0 * GB);
    }
    assertThat(room.heldShare()).isEqualTo(270.0 / 240.0);
    assertThat(room.holdsOneCopy()).isFalse();
    assertThat(room.primariesNeeded()).isEmpty();
    assertThat(room.text()).isEqualTo("lowest gear (3 DataNodes, 270.0 GB usable) holds 113% of one copy (240.0 GB"
        + " stored / r, with 0% headroom); the layout's shares hold 95% of it: the whole expansion chain cannot hold"
        + " one copy with that headroom; add DataNodes\n");
  }

  /** The same floor with a copy of 200 GB: p = 3 holds it where the 180 GB of p = 2 do not, and grow names 3. */
  @Test
  void aReadFloorSpread_growsToTheLeastLargerPWhoseFlooredLayoutHoldsTheCopy() {
    EafrSettings core = floorOfHalf(2);
    GearedLayout floored = eafrGeared(core).apply(2);

    LowestGearRoom room = LowestGearRoom.of(floored, LowestGearRoom.grownBy(GearedPolicies.EAFR_GEARED, core,
        floored, 24), capacities(24, 100), 600 * GB, 3, RESERVE, 0, 1);

    assertThat(room.primariesNeeded()).hasValue(3);
    assertThat(room.text()).endsWith(": grow p to 3 ('hdfs eafr relayout grow' grows the layout and relays out its"
        + " blocks)\n");
  }

  @Test
  void aLowestGearThatHoldsTheCopy_namesNoGrowth() {
    LowestGearRoom room = LowestGearRoom.of(layout(), capacities(200), 1_200 * GB, 3, RESERVE, 0.05, 1);

    assertThat(room.holdsOneCopy()).isTrue();
    assertThat(room.text()).startsWith("lowest gear (4 DataNodes, 760.0 GB usable) holds 181% of one copy")
        .doesNotContain("grow p").doesNotContain("the layout's shares");
  }

  @Test
  void dataNodesThatReportNoCapacity_countAsTheMeanOfThoseThatDo() {
    Map<String, Long> capacities = capacities(100);
    capacities.put("dn1", 0L);
    capacities.remove("dn2");

    LowestGearRoom room = LowestGearRoom.of(layout(), capacities, 1_200 * GB, 3, RESERVE, 0.05, 1);

    assertThat(room.toJsonMap()).containsEntry("lowestGearUsableBytes", 360 * GB);
  }

  @Test
  void aCopyTheWholeChainCannotHold_saysToAddDataNodes() {
    LowestGearRoom room = LowestGearRoom.of(layout(), capacities(100), 3_600 * GB, 3, RESERVE, 0.05, 1);

    assertThat(room.text()).endsWith("the whole expansion chain cannot hold one copy with that headroom; add"
        + " DataNodes\n");
    assertThat(room.toJsonMap()).containsEntry("primariesNeeded", null);
  }
}
