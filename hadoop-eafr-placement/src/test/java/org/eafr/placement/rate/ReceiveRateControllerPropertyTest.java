package org.eafr.placement.rate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

class ReceiveRateControllerPropertyTest {
  private static final double ETA_LOW = 0.2;
  private static final double ETA_HIGH = 0.5;
  private final ReceiveRateController controller = new ReceiveRateController(ETA_LOW, ETA_HIGH);

  @Property(tries = 1000, seed = "7")
  void factorsSumToTheGapAndFavourOlderConnections(
      @ForAll @DoubleRange(min = 1, max = 1e10) double capacity,
      @ForAll @DoubleRange(min = 0, max = 1.2) double usedFraction,
      @ForAll @IntRange(min = 1, max = 50) int senderCount) {
    List<String> senders = new ArrayList<>();
    for (int i = 0; i < senderCount; i++) {
      senders.add("s" + i);
    }
    double share = controller.availableShare(capacity, capacity * usedFraction);

    List<RateAdjustment> adjustments = controller.adjust(capacity, capacity * usedFraction, senders);

    double gap = share < ETA_LOW ? ETA_LOW - share : share > ETA_HIGH ? share - ETA_HIGH : 0;
    assertThat(adjustments.stream().mapToDouble(RateAdjustment::factor).sum()).isCloseTo(gap, within(1e-9));
    for (int i = 1; i < senderCount; i++) {
      RateAdjustment older = adjustments.get(i - 1);
      RateAdjustment newer = adjustments.get(i);
      assertThat(newer.direction()).isEqualTo(older.direction());
      if (older.direction() == RateDirection.DOWN) {
        assertThat(older.factor()).isLessThan(newer.factor());
      } else if (older.direction() == RateDirection.UP) {
        assertThat(older.factor()).isGreaterThan(newer.factor());
      }
    }
  }
}
