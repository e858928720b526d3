package org.eafr.sim.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import org.eafr.placement.grid.GridGap;
import org.eafr.placement.grid.GridSignal;
import org.eafr.placement.grid.Objective;
import org.eafr.sim.SimSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The grid weeks shipped in the simulator's jar, read by the core's reader (resources grid/README.md). */
class ShippedGridSignalsTest {
  private static GridSignal signal(String name) {
    return GridSignals.of(SimSettings.of(Map.of("sim.grid.signal", "classpath:grid/" + name + ".csv")));
  }

  private static long t(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }

  @ParameterizedTest
  @ValueSource(strings = {"gb-2023-01-09", "gb-2023-07-10", "gb-2023-10-16", "de-2024-01-08", "de-2024-04-08",
      "de-2024-07-08", "de-2020-04-06"})
  void everyShippedWeekCoversSevenDays(String name) {
    GridSignal signal = signal(name);

    assertThat(signal.endMillis() - signal.startMillis()).isEqualTo(7 * 86_400_000L);
    assertThat(signal.hasCarbon()).isTrue();
    assertThat(signal.hasPrice()).isEqualTo(name.startsWith("de-2024"));
  }

  /** NESO's outage: 91 half-hours from 2023-10-20 22:00 to 19:00 on the 22nd, in both columns. */
  @Test
  void theOctoberWeekReportsNesosOutageAsOneGapPerColumn() {
    GridSignal signal = signal("gb-2023-10-16");

    assertThat(signal.gaps()).containsExactlyInAnyOrder(
        new GridGap("carbon", t("2023-10-20T22:00:00Z"), t("2023-10-22T19:30:00Z"), 91),
        new GridGap("forecast", t("2023-10-20T22:00:00Z"), t("2023-10-22T19:30:00Z"), 91));
    assertThat(signal.carbonAt(t("2023-10-21T12:00:00Z"))).isEqualTo(signal.carbonAt(t("2023-10-20T21:30:00Z")));
  }

  /** The first rows as shipped: 2023-01-09 00:00, forecast 62 and actual 66.0; 2024-01-08 00:00, 344.74 and 84.32. */
  @Test
  void firstRowsReadAsShipped() {
    GridSignal gb = signal("gb-2023-01-09");
    GridSignal de = signal("de-2024-01-08");

    assertThat(gb.stepMillis()).isEqualTo(1_800_000L);
    assertThat(gb.forecast(Objective.CARBON, 0)).isEqualTo(62.0);
    assertThat(gb.carbonAt(t("2023-01-09T00:29:59Z"))).isEqualTo(66.0);
    assertThat(de.stepMillis()).isEqualTo(3_600_000L);
    assertThat(de.carbonAt(t("2024-01-08T00:00:00Z"))).isEqualTo(344.74);
    assertThat(de.priceAt(t("2024-01-08T00:59:59Z"))).isEqualTo(84.32);
  }
}
