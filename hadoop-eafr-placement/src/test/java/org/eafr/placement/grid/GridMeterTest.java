package org.eafr.placement.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class GridMeterTest {
  private static final long HOUR = 3_600_000L;

  @Test
  void kwhTimesIntensityAndPriceOfTheSlot() {
    GridMeter meter = new GridMeter(GridSignal.of("m", HOUR, List.of(new GridPoint(0, 150, Double.NaN, 80),
        new GridPoint(HOUR, 100, Double.NaN, -20))));

    meter.add(10, 2.0);
    assertThat(meter.gramsCo2()).isEqualTo(300.0);
    assertThat(meter.euros()).isCloseTo(0.16, within(1e-12));
    meter.add(HOUR, 1.0);
    assertThat(meter.euros()).isCloseTo(0.14, within(1e-12));
    meter.add(5 * HOUR, 4.0);
    assertThat(meter.kwh()).isEqualTo(7.0);
    assertThat(meter.uncoveredKwh()).isEqualTo(4.0);
    assertThat(meter.gramsCo2()).isEqualTo(400.0);
  }

  @Test
  void noSignalCountsKwhOnly() {
    GridMeter meter = new GridMeter(null);
    meter.add(0, 1.5);
    assertThat(meter.kwh()).isEqualTo(1.5);
    assertThat(meter.gramsCo2()).isNaN();
    assertThat(meter.euros()).isNaN();
  }
}
