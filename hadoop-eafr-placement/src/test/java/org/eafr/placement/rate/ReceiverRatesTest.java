package org.eafr.placement.rate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReceiverRatesTest {
  private static final double EPS = 1e-4;
  private final ReceiverRates rates = new ReceiverRates(new ReceiveRateController(0.2, 0.5), 1000);

  @Test
  void javadocExample_idleShareGoesToTheHeldBackSenders_olderFirst() {
    rates.admit("A", 500);
    rates.admit("B", 300);
    rates.admit("C", 200);
    for (int period = 1; period <= 2; period++) { // u_b = 750, R = 0.25: HOLD; C not capped yet
      List<RateAdjustment> held = rates.adjust(Map.of("A", SenderUse.heldBack(450), "B", SenderUse.heldBack(250),
          "C", SenderUse.notHeldBack(50)));
      assertThat(held).extracting(RateAdjustment::direction).containsOnly(RateDirection.HOLD);
      assertThat(rates.rate("A")).isCloseTo(491.6667, within(EPS));
      assertThat(rates.rate("B")).isCloseTo(301.6667, within(EPS));
      assertThat(rates.rate("C")).isCloseTo(206.6667, within(EPS));
    }

    List<RateAdjustment> adjustments = rates.adjust(Map.of("A", SenderUse.heldBack(500),
        "B", SenderUse.heldBack(300), "C", SenderUse.notHeldBack(50)));

    // Eq. 13: u_b = 850, R = 0.15; Eq. 14: gap 0.05 split 1:2:3, the oldest cut least.
    assertThat(adjustments).extracting(RateAdjustment::senderId).containsExactly("A", "B", "C");
    assertThat(adjustments).extracting(RateAdjustment::direction).containsOnly(RateDirection.DOWN);
    assertThat(adjustments.get(0).factor()).isCloseTo(0.05 / 6, within(1e-12));
    assertThat(adjustments.get(1).factor()).isCloseTo(0.1 / 6, within(1e-12));
    assertThat(adjustments.get(2).factor()).isCloseTo(0.15 / 6, within(1e-12));
    Map<String, Double> weights = rates.weightsOldestFirst();
    assertThat(weights.get("A")).isCloseTo(502.9586, within(EPS));
    assertThat(weights.get("B")).isCloseTo(299.2392, within(EPS));
    assertThat(weights.get("C")).isCloseTo(197.8022, within(EPS));
    assertThat(rates.rate("A")).isCloseTo(560.0457, within(EPS));
    assertThat(rates.rate("B")).isCloseTo(339.9543, within(EPS));
    assertThat(rates.rate("C")).isCloseTo(100, within(1e-9));
    assertThat(rates.granted()).isCloseTo(1000, within(1e-9));
  }

  @Test
  void aLoneSender_mayUseTheWholeLink_andANewcomerGetsTheFloorPlusItsWeight() {
    assertThat(rates.admit("A")).isEqualTo(1000.0);
    rates.adjust(Map.of("A", SenderUse.heldBack(1000))); // R = 0: DOWN, but A alone keeps the whole link
    assertThat(rates.rate("A")).isCloseTo(1000, within(1e-9));

    // Nothing is left of c_b: B's weight is its floor, 25; the 950 above the floors go 1000 : 25.
    assertThat(rates.admit("B")).isCloseTo(25 + 950 * 25 / 1025.0, within(1e-9));
    assertThat(rates.rate("A")).isCloseTo(25 + 950 * 1000 / 1025.0, within(1e-9));
    assertThat(rates.granted()).isCloseTo(1000, within(1e-9));
    assertThat(rates.ratesOldestFirst().keySet()).containsExactly("A", "B");
  }

  @Test
  void aSenderThatUsedLittle_isCappedAtTwiceItsUse_andTheOthersTakeTheRest() {
    rates.admit("A", 600);
    rates.admit("B", 400);
    assertThat(rates.rate("A")).isCloseTo(25 + 0.6 * 950, within(1e-9));

    // u_b = 695, R = 0.305: HOLD. After ReceiverRates.IDLE_PERIODS such periods B may use 2 x 100; A, held
    // back, gets the other 800.
    Map<String, SenderUse> use = Map.of("A", SenderUse.heldBack(595), "B", SenderUse.notHeldBack(100));
    for (int period = 1; period < ReceiverRates.IDLE_PERIODS; period++) {
      rates.adjust(use);
      assertThat(rates.rate("B")).as("a hiccup, not yet idle").isCloseTo(25 + 0.4 * 950, within(1e-9));
    }
    List<RateAdjustment> adjustments = rates.adjust(use);

    assertThat(adjustments).extracting(RateAdjustment::direction).containsOnly(RateDirection.HOLD);
    assertThat(rates.rate("B")).isCloseTo(200, within(1e-9));
    assertThat(rates.rate("A")).isCloseTo(800, within(1e-9));

    rates.adjust(Map.of("A", SenderUse.heldBack(500), "B", SenderUse.heldBack(200))); // HOLD; B held: no cap
    assertThat(rates.rate("B")).isCloseTo(25 + 0.4 * 950, within(1e-9));
  }

  @Test
  void nobodyHeldBack_theLinkIsSharedByWeightAllTheSame() {
    rates.admit("A", 600);
    rates.admit("B", 400);

    // u_b = 150, R = 0.85 in each period: UP by 0.35, 2:1 for the older; the weights, scaled back to 1000 each time,
    // become 623.60 : 376.40, 646.62 : 353.38, 668.98 : 331.02.
    List<RateAdjustment> adjustments = List.of();
    for (int period = 1; period <= ReceiverRates.IDLE_PERIODS; period++) {
      adjustments = rates.adjust(Map.of("A", SenderUse.notHeldBack(100), "B", SenderUse.notHeldBack(50)));
    }

    assertThat(adjustments.get(0)).isEqualTo(new RateAdjustment("A", RateDirection.UP, 0.7 / 3));
    assertThat(adjustments.get(1).factor()).isCloseTo(0.35 / 3, within(1e-12));
    assertThat(rates.weightsOldestFirst().get("A")).isCloseTo(668.9816, within(EPS));
    // Both capped (A at 200, B at 100): the remaining 700 is shared by weight on top.
    assertThat(rates.rate("A")).isCloseTo(668.2871, within(EPS));
    assertThat(rates.rate("B")).isCloseTo(331.7129, within(EPS));
    assertThat(rates.granted()).isCloseTo(1000, within(1e-9));
  }

  @Test
  void aSenderThatEnds_leavesItsShareToTheOthersAtOnce_andToTheNextNewcomer() {
    rates.admit("A", 600);
    rates.admit("B", 400);

    rates.remove("A");

    assertThat(rates.rate("B")).isCloseTo(1000, within(1e-9));
    assertThat(rates.rate("A")).isZero();
    // Until the next round, what A left is the next newcomer's weight: 600 against B's 400.
    assertThat(rates.admit("C")).isCloseTo(25 + 0.6 * 950, within(1e-9));
  }

  @Test
  void repeatedRoundsOnAFullLink_moveShareToTheOlderConnections() {
    rates.admit("A");
    rates.admit("B");
    rates.admit("C");
    for (int i = 0; i < 50; i++) {
      Map<String, SenderUse> use = new LinkedHashMap<>();
      rates.ratesOldestFirst().forEach((sender, rate) -> use.put(sender, SenderUse.heldBack(rate)));
      rates.adjust(use);
      assertThat(rates.granted()).isCloseTo(1000, within(1e-6));
    }
    assertThat(rates.rate("A")).isGreaterThan(rates.rate("B"));
    assertThat(rates.rate("B")).isGreaterThan(rates.rate("C"));
    assertThat(rates.rate("C")).isGreaterThanOrEqualTo(ReceiverRates.MIN_SHARE * 1000 / 3);
  }

  @Test
  void ratesStayAtOrAboveTheFloor() {
    ReceiverRates tight = new ReceiverRates(new ReceiveRateController(0.96, 0.99), 1000);
    tight.admit("A", 990);
    tight.admit("B", 10);
    for (int i = 0; i < 100; i++) {
      tight.adjust(Map.of("A", SenderUse.heldBack(900), "B", SenderUse.heldBack(50)));
    }
    assertThat(tight.rate("B")).isGreaterThanOrEqualTo(ReceiverRates.MIN_SHARE * 1000 / 2);
    assertThat(tight.granted()).isCloseTo(1000, within(1e-6));
  }

  @Test
  void lowerCapacity_scalesTheRatesToIt_andAdmittingTwiceKeepsTheRate() {
    rates.admit("A", 600);
    rates.admit("B", 400);
    rates.capacity(500);
    assertThat(rates.rate("A")).isCloseTo(12.5 + 0.6 * 475, within(1e-9));
    assertThat(rates.rate("B")).isCloseTo(12.5 + 0.4 * 475, within(1e-9));
    assertThat(rates.admit("A")).isCloseTo(297.5, within(1e-9));
    assertThat(rates.senders()).isEqualTo(2);
    assertThat(rates.rate("unknown")).isZero();
  }

  @Test
  void noSenders_noAdjustments_andNothingGranted() {
    assertThat(rates.adjust(Map.of())).isEmpty();
    assertThat(rates.granted()).isZero();
  }

  @Test
  void badCapacity_isRejectedNamingTheValue() {
    assertThatThrownBy(() -> rates.capacity(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("link capacity c_b = 0.0 bytes/s is not allowed: expected a finite number > 0");
  }

  @Test
  void badUse_isRejectedNamingTheValue() {
    assertThatThrownBy(() -> SenderUse.heldBack(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("used rate -1.0 bytes/s is not allowed: expected a finite number >= 0");
  }
}
