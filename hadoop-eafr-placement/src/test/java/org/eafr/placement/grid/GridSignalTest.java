package org.eafr.placement.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class GridSignalTest {
  private static final long HALF_HOUR = 1_800_000L;
  private static final long T0 = Instant.parse("2023-01-01T00:00:00Z").toEpochMilli();

  private static GridPoint carbon(int slot, double value) {
    return new GridPoint(T0 + slot * HALF_HOUR, value, Double.NaN, Double.NaN);
  }

  /** The class comment's worked example: a missing slot and a 0.0 glitch are one gap, filled with 100. */
  @Test
  void missingSlotAndZeroGlitchAreOneGapFilledWithTheValueBefore() {
    GridSignal signal = GridSignal.of("example", HALF_HOUR, List.of(carbon(0, 100), carbon(2, 0), carbon(3, 130)));

    assertThat(signal.slots()).isEqualTo(4);
    assertThat(signal.carbonAt(T0 + HALF_HOUR)).isEqualTo(100.0);
    assertThat(signal.carbonAt(T0 + 2 * HALF_HOUR)).isEqualTo(100.0);
    assertThat(signal.carbonAt(T0 + 3 * HALF_HOUR + 15 * 60_000)).isEqualTo(130.0);
    assertThat(signal.gaps()).containsExactly(new GridGap("carbon", T0 + HALF_HOUR, T0 + 3 * HALF_HOUR, 2));
    assertThat(signal.hasPrice()).isFalse();
    assertThat(signal.priceAt(T0)).isNaN();
  }

  @Test
  void leadingGapTakesTheFirstValueAfterIt() {
    GridSignal signal = GridSignal.of("lead", HALF_HOUR, List.of(carbon(0, Double.NaN), carbon(1, 90)));

    assertThat(signal.carbonAt(T0)).isEqualTo(90.0);
    assertThat(signal.gaps()).containsExactly(new GridGap("carbon", T0, T0 + HALF_HOUR, 1));
  }

  @Test
  void negativePricesAreValuesNotGaps() {
    GridSignal signal = GridSignal.of("price", HALF_HOUR, List.of(new GridPoint(T0, Double.NaN, Double.NaN, -20),
        new GridPoint(T0 + HALF_HOUR, Double.NaN, Double.NaN, 80)));

    assertThat(signal.priceAt(T0)).isEqualTo(-20.0);
    assertThat(signal.gaps()).isEmpty();
    assertThat(signal.supports(Objective.CARBON)).isFalse();
    assertThat(signal.supports(Objective.PRICE)).isTrue();
  }

  /** Without a forecast column, a carbon forecast is the value one day earlier (persistence); day one uses its own. */
  @Test
  void carbonForecastIsPersistenceWithoutAForecastColumn() {
    GridPoint[] points = new GridPoint[49];
    for (int i = 0; i < points.length; i++) {
      points[i] = carbon(i, 100 + i);
    }
    GridSignal signal = GridSignal.of("persist", HALF_HOUR, List.of(points));

    assertThat(signal.forecast(Objective.CARBON, 48)).isEqualTo(100.0);
    assertThat(signal.forecast(Objective.CARBON, 47)).isEqualTo(147.0);
    assertThat(signal.forecast(Objective.ENERGY, T0, T0 + 2 * HALF_HOUR)).containsExactly(0.0, 0.0);
  }

  @Test
  void forecastColumnIsUsedWhenGivenAndTheWindowIsClippedToTheEnd() {
    GridSignal signal = GridSignal.of("neso", HALF_HOUR, List.of(new GridPoint(T0, 100, 110, Double.NaN),
        new GridPoint(T0 + HALF_HOUR, 120, 125, Double.NaN)));

    assertThat(signal.forecast(Objective.CARBON, T0, T0 + 10 * HALF_HOUR)).containsExactly(110.0, 125.0);
    assertThat(signal.forecast(Objective.CARBON, T0 + HALF_HOUR + 1, T0 + HALF_HOUR + 1)).containsExactly(125.0);
  }

  @Test
  void offGridRowsAndTimesOutsideAreRefusedNamingTheTime() {
    assertThatThrownBy(() -> GridSignal.of("bad", HALF_HOUR, List.of(carbon(0, 1),
        new GridPoint(T0 + 60_000, 2, Double.NaN, Double.NaN))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2023-01-01T00:01:00Z");
    GridSignal signal = GridSignal.of("one", HALF_HOUR, List.of(carbon(0, 1)));
    assertThatThrownBy(() -> signal.carbonAt(T0 + HALF_HOUR)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("outside grid signal one");
    assertThat(signal.covers(T0 + HALF_HOUR)).isFalse();
  }
}
