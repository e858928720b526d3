package org.eafr.placement.gear.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Rabbit Sec. 3.1 (Fig. 2): N = 100, B = 10^4, p = 5, r = 4. */
class EqualWorkSharesTest {
  private static final double B = 10_000;

  @Test
  void eq3_spreadIsAtLeastPTimesEToTheRMinusOne_100point43() {
    assertThat(EqualWorkShares.spreadLowerBound(5, 4)).isCloseTo(100.4277, within(1e-4));
    assertThat(EqualWorkShares.spreadUpperBound(5, 4)).isCloseTo(119.5132, within(1e-4));
  }

  @Test
  void eq1_exactSpreadIs111_withinEq2Bounds() {
    assertThat(EqualWorkShares.exactSpread(5, 4)).isEqualTo(111);
  }

  @Test
  void fullSpread_holdsBOverIBlocksOnServerI() {
    EqualWorkShares shares = EqualWorkShares.of(5, 1, 4, 106);

    assertThat(shares.scale()).isEqualTo(1.0);
    assertThat(shares.gearGroups()).isEqualTo(106);
    assertThat(B * shares.primaryShare()).isCloseTo(2000, within(1e-9));
    assertThat(B * shares.secondaryShare(1)).isCloseTo(1666.6667, within(1e-4)); // server 6
    assertThat(B * shares.secondaryShare(15)).isCloseTo(500, within(1e-9)); // server 20 = B / n with 20 on
    assertThat(B * shares.secondaryShare(95)).isCloseTo(100, within(1e-9)); // server 100
    double sum = 0;
    for (double w : shares.weights()) {
      sum += w;
    }
    assertThat(sum).isCloseTo(3.0, within(1e-12));
    // The last server (111) holds what is left of the third non-primary replica: 3 - (H(110) - H(5)).
    assertThat(B * shares.secondaryShare(106)).isCloseTo(B * 3 - B * (sum - shares.weight(106)), within(1e-6));
    assertThat(shares.weight(106)).isLessThan(1.0 / 111);
  }

  @Test
  void hundredServers_fallShortOfTheSpread_soWeightsScaleBy3Over2point904() {
    EqualWorkShares shares = EqualWorkShares.of(5, 1, 4, 95);

    assertThat(shares.scale()).isCloseTo(3 / 2.9040442, within(1e-6));
    assertThat(B * shares.secondaryShare(1)).isCloseTo(1721.74, within(0.01));
    assertThat(B * shares.secondaryShare(95)).isCloseTo(103.30, within(0.01));
  }

  @Test
  void simpleLayoutOfSec2point1_storesOnly316BlocksWhereEqualWorkStores500() {
    // Sec. 2.1: r - 1 replicas spread evenly over N - p servers; the equal-work server 20 holds B / 20.
    assertThat(B * 3 / 95).isCloseTo(315.79, within(0.01));
    assertThat(B * EqualWorkShares.of(5, 1, 4, 106).secondaryShare(15)).isEqualTo(500.0);
  }

  @Test
  void table1_gearGroupsHoldingOneSecondaryReplica_forP100() {
    int[] gearSizes = {1, 5, 10, 20, 50, 100};
    int[] needed = {173, 36, 19, 10, 5, 3};
    for (int i = 0; i < gearSizes.length; i++) {
      assertThat(EqualWorkShares.gearGroupsNeeded(100, gearSizes[i], 2)).as("g = %d", gearSizes[i])
          .isEqualTo(needed[i]);
    }
  }

  @Test
  void tooFewServers_areRefusedNamingTheNumbers() {
    assertThatThrownBy(() -> EqualWorkShares.of(5, 1, 4, 2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 gear groups of 1 servers are too few for 4 replicas with p = 5");
  }

  /** byRoom's worked example: p = 2, g = 1, r = 3, four gear groups with room 1, 1, 4, 4. */
  @Test
  void byRoom_fillsPastTheEqualWorkMinimumByRoom() {
    EqualWorkShares shares = EqualWorkShares.byRoom(2, 1, 3, new double[] {1, 1, 4, 4});

    assertThat(shares.weights()).containsExactly(new double[] {1.0 / 3, 0.25, 0.708333333, 0.708333333},
        org.assertj.core.data.Offset.offset(1e-8));
    assertThat(EqualWorkShares.of(2, 1, 3, 4).weight(1)).isCloseTo(0.70175, org.assertj.core.data.Offset.offset(1e-5));
  }

  @Test
  void byRoom_withAnUnknownRoomOrTheFullSpread_isTheSharesOfOf() {
    assertThat(EqualWorkShares.byRoom(2, 1, 3, new double[] {1, 0, 4, 4}).weights())
        .containsExactly(EqualWorkShares.of(2, 1, 3, 4).weights());
    double[] wide = new double[40];
    java.util.Arrays.fill(wide, 1);
    assertThat(EqualWorkShares.byRoom(2, 1, 3, wide).weights()).containsExactly(EqualWorkShares.of(2, 1, 3, 40)
        .weights());
  }
}
