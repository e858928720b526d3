package org.eafr.placement.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class EnergyMeterTest {
  private static final long HOUR = 3_600_000L;
  private static final long DAY = 24 * HOUR;

  private final EnergyMeter meter = new EnergyMeter();

  @Test
  void workedExample_oneServerAt115point5WattsForADayUses2point772Kwh() {
    meter.record("s1", 0, 115.5);
    meter.record("s1", DAY, 115.5);

    assertThat(meter.kilowattHours()).isCloseTo(2.772, within(1e-9));
    assertThat(meter.kilowattHours("s1")).isCloseTo(2.772, within(1e-9));
  }

  @Test
  void workedExample_300ServersAt110WattsForADayUse792Kwh() {
    for (int i = 0; i < 300; i++) {
      meter.record("s" + i, 0, 110.0);
      meter.record("s" + i, DAY, 110.0);
    }

    assertThat(meter.kilowattHours()).isCloseTo(792.0, within(1e-9));
    assertThat(meter.kilowattHoursPerDay()).isCloseTo(792.0, within(1e-9));
  }

  @Test
  void drawHoldsUntilTheServersNextSample() {
    meter.record("s1", 0, 100.0);
    meter.record("s1", HOUR, 200.0);
    meter.record("s1", HOUR + HOUR / 2, 0.0);

    assertThat(meter.kilowattHours()).isCloseTo(0.1 + 0.1, within(1e-12));
  }

  @Test
  void drawAfterTheLastSample_isNotCountedUntilTheNextSample() {
    meter.record("s1", 0, 100.0);

    assertThat(meter.kilowattHours()).isEqualTo(0.0);
    assertThat(meter.meteredMillis()).isEqualTo(0);
  }

  @Test
  void twoDayRun_reportsTheMeanPerDay() {
    meter.record("s1", 0, 110.0);
    meter.record("s1", 2 * DAY, 110.0);

    assertThat(meter.kilowattHours()).isCloseTo(5.28, within(1e-9));
    assertThat(meter.kilowattHoursPerDay()).isCloseTo(2.64, within(1e-9));
  }

  @Test
  void perServerEnergy_isKeptInFirstRecordedOrder() {
    meter.record("b", 0, 100.0);
    meter.record("a", 0, 50.0);
    meter.record("b", HOUR, 100.0);
    meter.record("a", HOUR, 50.0);

    Map<String, Double> byServer = meter.kilowattHoursByServer();

    assertThat(byServer.keySet()).containsExactly("b", "a");
    assertThat(byServer.get("b")).isCloseTo(0.1, within(1e-12));
    assertThat(byServer.get("a")).isCloseTo(0.05, within(1e-12));
    assertThatThrownBy(() -> byServer.put("c", 1.0)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void sampleEarlierThanTheServersLast_isRejected() {
    meter.record("s1", 5_000, 100.0);

    assertThatThrownBy(() -> meter.record("s1", 4_999, 100.0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("time 4999 ms for server s1").hasMessageContaining("previous sample time 5000 ms");
  }

  @Test
  void otherServersMayReportEarlierTimes() {
    meter.record("s1", 5_000, 100.0);
    meter.record("s2", 1_000, 100.0);
    meter.record("s2", 5_000, 100.0);

    assertThat(meter.meteredMillis()).isEqualTo(4_000);
  }

  @Test
  void negativeOrNonFiniteWatts_areRejected() {
    assertThatThrownBy(() -> meter.record("s1", 0, -1.0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("watts -1.0 for server s1");
    assertThatThrownBy(() -> meter.record("s1", 0, Double.NaN)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("watts NaN");
    assertThatThrownBy(() -> meter.record("s1", 0, Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("watts Infinity");
  }

  @Test
  void unknownServer_isRejected() {
    assertThatThrownBy(() -> meter.kilowattHours("nope")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("server nope");
  }

  @Test
  void perDayWithoutAnyMeteredTime_isRefused() {
    meter.record("s1", 0, 100.0);

    assertThatThrownBy(meter::kilowattHoursPerDay).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("spans 0 ms");
  }

  @Property(tries = 1000, seed = "8675309")
  void totalEnergy_isTheSumOfWattsTimesDurationOverAllServers(
      @ForAll @Size(min = 1, max = 20) List<@DoubleRange(min = 0.0, max = 500.0) Double> watts,
      @ForAll @Size(min = 1, max = 20) List<@IntRange(min = 0, max = 7_200_000) Integer> gaps) {
    EnergyMeter twoServers = new EnergyMeter();
    int steps = Math.min(watts.size(), gaps.size());
    double expectedWattHours = 0;
    long[] clock = {0L, 0L};
    for (int i = 0; i < steps; i++) {
      String server = "s" + (i % 2);
      long start = clock[i % 2];
      twoServers.record(server, start, watts.get(i));
      clock[i % 2] = start + gaps.get(i);
      twoServers.record(server, clock[i % 2], 0.0);
      expectedWattHours += watts.get(i) * gaps.get(i) / (double) HOUR;
    }

    assertThat(twoServers.kilowattHours()).isCloseTo(expectedWattHours / 1000.0, within(1e-9));
    double sumByServer = twoServers.kilowattHoursByServer().values().stream().mapToDouble(Double::doubleValue).sum();
    assertThat(sumByServer).isCloseTo(twoServers.kilowattHours(), within(1e-12));
  }
}
