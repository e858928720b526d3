package org.eafr.placement.rate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

class ReceiveRateControllerTest {
  private static final double MB = 1_000_000;
  private final ReceiveRateController controller = new ReceiveRateController(0.2, 0.5);

  @Test
  void congestedLink_javadocExample_cutsBySixthsOfTheGap() {
    List<RateAdjustment> adjustments = controller.adjust(1000 * MB, 900 * MB, List.of("A", "B", "C"));

    assertThat(adjustments).extracting(RateAdjustment::senderId).containsExactly("A", "B", "C");
    assertThat(adjustments).extracting(RateAdjustment::direction).containsOnly(RateDirection.DOWN);
    assertThat(adjustments.get(0).factor()).isCloseTo(0.016667, within(1e-6)).isCloseTo(0.1 / 6, within(1e-9));
    assertThat(adjustments.get(1).factor()).isCloseTo(0.033333, within(1e-6)).isCloseTo(0.2 / 6, within(1e-9));
    assertThat(adjustments.get(2).factor()).isCloseTo(0.05, within(1e-9));
  }

  @Test
  void idleLink_javadocExample_raisesBySixthsOfTheGap() {
    List<RateAdjustment> adjustments = controller.adjust(1000 * MB, 200 * MB, List.of("A", "B", "C"));

    assertThat(adjustments).extracting(RateAdjustment::direction).containsOnly(RateDirection.UP);
    assertThat(adjustments.get(0).factor()).isCloseTo(0.15, within(1e-9));
    assertThat(adjustments.get(1).factor()).isCloseTo(0.1, within(1e-9));
    assertThat(adjustments.get(2).factor()).isCloseTo(0.05, within(1e-9));
  }

  @Test
  void olderConnectionsAreCutLeastAndRaisedMost() {
    List<String> oldestFirst = List.of("oldest", "middle", "newest");

    List<RateAdjustment> down = controller.adjust(1000, 950, oldestFirst);
    List<RateAdjustment> up = controller.adjust(1000, 100, oldestFirst);

    assertThat(down.get(0).factor()).isLessThan(down.get(1).factor());
    assertThat(down.get(1).factor()).isLessThan(down.get(2).factor());
    assertThat(up.get(0).factor()).isGreaterThan(up.get(1).factor());
    assertThat(up.get(1).factor()).isGreaterThan(up.get(2).factor());
  }

  @Test
  void factorsOfAllSenders_addUpToTheGap() {
    List<RateAdjustment> down = controller.adjust(1000, 950, List.of("a", "b", "c", "d"));

    assertThat(down.stream().mapToDouble(RateAdjustment::factor).sum()).isCloseTo(0.2 - 0.05, within(1e-9));
  }

  @Test
  void shareInsideTheBand_holdsEverySenderWithFactorZero() {
    List<RateAdjustment> adjustments = controller.adjust(1000, 650, List.of("A", "B"));

    assertThat(adjustments).containsExactly(new RateAdjustment("A", RateDirection.HOLD, 0),
        new RateAdjustment("B", RateDirection.HOLD, 0));
  }

  @Test
  void shareExactlyAtEitherThreshold_holds() {
    assertThat(controller.availableShare(1000, 800)).isEqualTo(0.2);
    assertThat(controller.availableShare(1000, 500)).isEqualTo(0.5);

    assertThat(controller.adjust(1000, 800, List.of("A"))).containsExactly(
        new RateAdjustment("A", RateDirection.HOLD, 0));
    assertThat(controller.adjust(1000, 500, List.of("A"))).containsExactly(
        new RateAdjustment("A", RateDirection.HOLD, 0));
  }

  @Test
  void oneSender_takesTheWholeGap() {
    List<RateAdjustment> adjustments = controller.adjust(1000, 900, List.of("only"));

    assertThat(adjustments).hasSize(1);
    assertThat(adjustments.get(0).direction()).isEqualTo(RateDirection.DOWN);
    assertThat(adjustments.get(0).factor()).isCloseTo(0.1, within(1e-9));
  }

  @Test
  void noSenders_giveNoAdjustments() {
    assertThat(controller.adjust(1000, 900, List.of())).isEmpty();
    assertThat(controller.adjust(1000, 100, List.of())).isEmpty();
  }

  @Test
  void usedAboveCapacity_isClampedToAFullLink() {
    assertThat(controller.availableShare(1000, 1500)).isEqualTo(0.0);

    List<RateAdjustment> adjustments = controller.adjust(1000, 1500, List.of("A"));

    assertThat(adjustments.get(0).direction()).isEqualTo(RateDirection.DOWN);
    assertThat(adjustments.get(0).factor()).isCloseTo(0.2, within(1e-9));
  }

  @Test
  void adjustmentApplied_cutsOrRaisesTheRateByItsFraction() {
    assertThat(new RateAdjustment("A", RateDirection.DOWN, 0.05).applyTo(60 * MB)).isCloseTo(57 * MB, within(1e-6));
    assertThat(new RateAdjustment("A", RateDirection.UP, 0.15).applyTo(60 * MB)).isCloseTo(69 * MB, within(1e-6));
    assertThat(new RateAdjustment("A", RateDirection.HOLD, 0).applyTo(60 * MB)).isEqualTo(60 * MB);
  }

  @Test
  void fromSettings_usesTheRateThresholds() {
    EafrSettings settings = EafrSettings.builder().set(EafrSettings.RATE_LOW, 0.1)
        .set(EafrSettings.RATE_HIGH, 0.3).build();

    ReceiveRateController fromSettings = ReceiveRateController.from(settings);

    assertThat(fromSettings.adjust(1000, 850, List.of("A")).get(0).direction()).isEqualTo(RateDirection.HOLD);
    assertThat(fromSettings.adjust(1000, 650, List.of("A")).get(0).factor()).isCloseTo(0.05, within(1e-9));
  }

  @Test
  void thresholdsOutOfOrderOrRange_areRejectedNamingBoth() {
    assertThatThrownBy(() -> new ReceiveRateController(0.5, 0.2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("eta_l = 0.5 and eta_h = 0.2 are not allowed: expected 0 < eta_l < eta_h < 1");
    assertThatThrownBy(() -> new ReceiveRateController(0.0, 0.5)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ReceiveRateController(0.2, 1.0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void badLinkNumbers_areRejectedNamingTheValue() {
    assertThatThrownBy(() -> controller.adjust(0, 0, List.of("A"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("link capacity c_b = 0.0 bytes/s is not allowed: expected a finite number > 0");
    assertThatThrownBy(() -> controller.adjust(1000, -1, List.of("A"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("used bandwidth u_b = -1.0 bytes/s is not allowed: expected a finite number >= 0");
    assertThatThrownBy(() -> controller.adjust(1000, Double.NaN, List.of("A")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void repeatedSender_isRejected() {
    assertThatThrownBy(() -> controller.adjust(1000, 900, List.of("A", "B", "A")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sender A is not allowed twice");
  }

  @Test
  void adjustments_areUnmodifiable() {
    List<RateAdjustment> adjustments = controller.adjust(1000, 900, List.of("A"));

    assertThatThrownBy(() -> adjustments.add(new RateAdjustment("B", RateDirection.HOLD, 0)))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
