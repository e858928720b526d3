package org.eafr.placement.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class GridCsvTest {
  private static long t(String iso) {
    return Instant.parse(iso).toEpochMilli();
  }

  private static GridSignal read(String csv, String zone) throws IOException {
    return GridCsv.read(new StringReader(csv), "test.csv", zone);
  }

  /** NESO's rows as shipped, with an empty actual (a gap) and the forecast column kept. */
  @Test
  void readsNesoWithForecastAndAnEmptyActual() throws IOException {
    GridSignal signal = read("from,to,forecast,actual,index\n"
        + "2023-01-26 13:00:00+00:00,2023-01-26 13:30:00+00:00,150,148.0,moderate\n"
        + "2023-01-26 13:30:00+00:00,2023-01-26 14:00:00+00:00,152,,moderate\n", null);

    assertThat(signal.stepMillis()).isEqualTo(1_800_000L);
    assertThat(signal.carbonAt(t("2023-01-26T13:45:00Z"))).isEqualTo(148.0);
    assertThat(signal.forecast(Objective.CARBON, 1)).isEqualTo(152.0);
    assertThat(signal.gaps()).hasSize(1);
    assertThat(signal.gaps().get(0).field()).isEqualTo("carbon");
  }

  @Test
  void readsLetsWaitAwhileAsUtcQuarterHours() throws IOException {
    GridSignal signal = read("time,DE\n2020-04-06 00:00:00,300.5\n2020-04-06 00:15:00,290.25\n", null);

    assertThat(signal.stepMillis()).isEqualTo(900_000L);
    assertThat(signal.carbonAt(t("2020-04-06T00:20:00Z"))).isEqualTo(290.25);
    assertThat(signal.hasCarbonForecast()).isFalse();
  }

  @Test
  void readsTheDerivedGermanSeriesWithPrice() throws IOException {
    GridSignal signal = read("timestamp_utc,carbon_intensity_gco2eq_per_kwh_lifecycle_production,"
        + "de_lu_day_ahead_eur_per_mwh\n2024-01-08T00:00:00Z,400.00,90.10\n2024-01-08T01:00:00Z,380.00,-5.00\n",
        null);

    assertThat(signal.stepMillis()).isEqualTo(3_600_000L);
    assertThat(signal.carbonAt(t("2024-01-08T01:59:59Z"))).isEqualTo(380.0);
    assertThat(signal.priceAt(t("2024-01-08T01:00:00Z"))).isEqualTo(-5.0);
  }

  @Test
  void readsOneZoneOfThePriceFileAndNamesTheZonesOfAMissingOne() throws IOException {
    String csv = "timestamp_utc,DE_LU_eur_per_mwh,FR_eur_per_mwh\n2024-01-08T00:00:00Z,90.1,60.0\n"
        + "2024-01-08T01:00:00Z,80.0,50.5\n";

    assertThat(read(csv, "fr").priceAt(t("2024-01-08T01:00:00Z"))).isEqualTo(50.5);
    assertThat(read(csv, null).priceAt(t("2024-01-08T00:00:00Z"))).isEqualTo(90.1);
    assertThatThrownBy(() -> read(csv, "NL")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NL_eur_per_mwh").hasMessageContaining("[DE_LU, FR]");
  }

  @Test
  void badInputNamesTheSourceLineAndColumn() {
    assertThatThrownBy(() -> read("time,DE\n2020-04-06 00:00:00,300\n2020-04-06 00:15:00,abc\n", null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("test.csv line 3 column DE: 'abc'");
    assertThatThrownBy(() -> read("time,DE\nyesterday,300\n", null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 2 column time: 'yesterday'");
    assertThatThrownBy(() -> read("when,what\n", null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a known grid signal format");
  }
}
