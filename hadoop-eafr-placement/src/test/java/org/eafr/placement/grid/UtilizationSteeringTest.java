package org.eafr.placement.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eafr.placement.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

class UtilizationSteeringTest {
  private static final long HOUR = 3_600_000L;

  /** The worked example's forecast from 00:00: 250, 100, 300, 200 gCO2/kWh, hourly. */
  private static GridSignal signal() {
    double[] values = {250, 100, 300, 200};
    List<GridPoint> points = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      points.add(new GridPoint(i * HOUR, values[i], values[i], Double.NaN));
    }
    return GridSignal.of("steer", HOUR, points);
  }

  private static UtilizationSteering steering(String objective) {
    return new UtilizationSteering(GridSettings.of(Map.of("eafr.grid.objective", objective,
        "eafr.grid.utilization.lower", "0.1", "eafr.grid.utilization.raise", "0.1",
        "eafr.grid.read-latency-bound.ms", "50", "eafr.grid.horizon.ms", String.valueOf(4 * HOUR))), signal());
  }

  @Test
  void dirtierThanMostOfTheHorizonRaisesU() {
    assertThat(steering("carbon").target(0, 0.8, 0.1, 40)).isCloseTo(0.85, within(1e-12));
  }

  @Test
  void aReadLatencyAboveTheBoundKeepsUFromRising() {
    assertThat(steering("carbon").target(0, 0.8, 0.1, 60)).isEqualTo(0.8);
  }

  /** From 01:00 the horizon is 100, 300, 200: now is the cleanest, so u goes to its lowest. */
  @Test
  void theCleanestSlotLowersU() {
    assertThat(steering("carbon").target(HOUR, 0.8, 0.1, 60)).isCloseTo(0.7, within(1e-12));
  }

  @Test
  void energyOnlyOrNoPriceLeavesU() {
    assertThat(steering("energy").target(0, 0.8, 0.1, 40)).isEqualTo(0.8);
    assertThat(steering("price").target(0, 0.8, 0.1, 40)).isEqualTo(0.8);
  }

  @Test
  void aLowerThatReachesTheDownMarginIsRefusedNamingTheKey() {
    assertThatThrownBy(() -> steering("carbon").target(0, 0.2, 0.1, 40))
        .isInstanceOf(InvalidSettingException.class).hasMessageContaining("eafr.grid.utilization.lower");
  }
}
