package org.eafr.placement.rate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReceiverRatesTest {
  private final ReceiverRates rates = new ReceiverRates(new ReceiveRateController(0.2, 0.5), 1000);

  @Test
  void javadocExample_olderConnectionIsCutLeast() {
    assertThat(rates.admit("A")).isEqualTo(1000.0);
    List<RateAdjustment> first = rates.adjust();
    assertThat(first).containsExactly(new RateAdjustment("A", RateDirection.DOWN, 0.2));
    assertThat(rates.rate("A")).isCloseTo(800, within(1e-9));

    assertThat(rates.admit("B")).isCloseTo(200, within(1e-9));
    List<RateAdjustment> second = rates.adjust();

    assertThat(second).extracting(RateAdjustment::senderId).containsExactly("A", "B");
    assertThat(rates.rate("A")).isCloseTo(746.666667, within(1e-6));
    assertThat(rates.rate("B")).isCloseTo(173.333333, within(1e-6));
    assertThat(rates.ratesOldestFirst().keySet()).containsExactly("A", "B");
  }

  @Test
  void repeatedAdjustments_settleInsideTheBand_withTheOlderConnectionFaster() {
    rates.admit("A");
    rates.adjust();
    rates.admit("B");
    rates.admit("C");
    for (int i = 0; i < 200; i++) {
      rates.adjust();
    }
    double share = (1000 - rates.granted()) / 1000;
    assertThat(share).isBetween(0.2 - 1e-6, 0.5);
    assertThat(rates.rate("A")).isGreaterThan(rates.rate("B"));
    assertThat(rates.rate("B")).isGreaterThan(rates.rate("C"));
  }

  @Test
  void idleLink_raisesTheOldestMost() {
    rates.admit("A");
    rates.adjust(); // A 800
    rates.admit("B"); // 200
    rates.remove("A"); // B alone at 200: R = 0.8, gap 0.3, UP by 0.3
    List<RateAdjustment> adjustments = rates.adjust();
    assertThat(adjustments).extracting(RateAdjustment::direction).containsExactly(RateDirection.UP);
    assertThat(adjustments.get(0).factor()).isCloseTo(0.3, within(1e-9));
    assertThat(rates.rate("B")).isCloseTo(260, within(1e-9));
  }

  @Test
  void newSender_onAFullyGrantedLink_getsTheFloor() {
    rates.admit("A"); // 1000: nothing left
    assertThat(rates.admit("B")).isCloseTo(ReceiverRates.MIN_SHARE * 1000 / 2, within(1e-9));
  }

  @Test
  void ratesStayAtOrAboveTheFloor() {
    ReceiverRates tight = new ReceiverRates(new ReceiveRateController(0.96, 0.99), 1000);
    tight.admit("A"); // Alg. 2 alone would cut A to 40, below the floor of 50
    for (int i = 0; i < 100; i++) {
      tight.adjust();
    }
    assertThat(tight.rate("A")).isCloseTo(ReceiverRates.MIN_SHARE * 1000, within(1e-9));
  }

  @Test
  void lowerCapacity_capsEveryRate_andAdmittingTwiceKeepsTheRate() {
    rates.admit("A");
    rates.capacity(300);
    assertThat(rates.rate("A")).isEqualTo(300.0);
    assertThat(rates.admit("A")).isEqualTo(300.0);
    assertThat(rates.senders()).isEqualTo(1);
    assertThat(rates.rate("unknown")).isZero();
  }

  @Test
  void noSenders_noAdjustments() {
    assertThat(rates.adjust()).isEmpty();
  }

  @Test
  void badCapacity_isRejectedNamingTheValue() {
    assertThatThrownBy(() -> rates.capacity(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("link capacity c_b = 0.0 bytes/s is not allowed: expected a finite number > 0");
  }
}
