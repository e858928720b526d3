package org.eafr.sim.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {
  @Test
  void meanPercentilesAndShareAboveOnAHandComputedCase() {
    LatencyHistogram histogram = new LatencyHistogram(10_000);
    // 4 ms, 5 ms, 6 ms, 12 ms, 20 ms: mean 9.4 ms; nearest rank p50 = 3rd = 6 ms; p1 = 1st; p99 = 5th; 2 of 5 > 10 ms.
    for (long micros : new long[] {4_000, 5_000, 6_000, 12_000, 20_000}) {
      histogram.record(micros);
    }
    assertThat(histogram.count()).isEqualTo(5);
    assertThat(histogram.mean()).isEqualTo(9_400.0);
    assertThat(histogram.percentile(1)).isEqualTo(4_000.0);
    assertThat(histogram.percentile(50)).isEqualTo(6_000.0);
    assertThat(histogram.percentile(99)).isEqualTo(20_000.0);
    assertThat(histogram.shareAbove()).isEqualTo(0.4);
  }

  @Test
  void aLatencyExactlyAtTheThresholdIsNotAboveIt() {
    LatencyHistogram histogram = new LatencyHistogram(10_000);
    histogram.record(10_000);
    assertThat(histogram.shareAbove()).isZero();
  }

  @Test
  void longLatenciesKeepOnePercentPrecision() {
    LatencyHistogram histogram = new LatencyHistogram(10_000);
    histogram.record(2_500_000);
    assertThat(histogram.percentile(50)).isCloseTo(2_500_000.0, within(25_000.0)).isLessThanOrEqualTo(2_500_000.0);
  }

  @Test
  void emptyHistogramReportsZeros() {
    LatencyHistogram histogram = new LatencyHistogram(10_000);
    assertThat(histogram.mean()).isZero();
    assertThat(histogram.percentile(99)).isZero();
    assertThat(histogram.shareAbove()).isZero();
  }

  @Test
  void sizeGroupsAreTheNearestPowerOfTenMegabytes() {
    assertThat(RunStats.sizeGroup(100_000)).isEqualTo(0);
    assertThat(RunStats.sizeGroup(2_000_000)).isEqualTo(0);
    assertThat(RunStats.sizeGroup(4_000_000)).isEqualTo(1);
    assertThat(RunStats.sizeGroup(1_000_000_000)).isEqualTo(3);
    assertThat(RunStats.sizeGroup(10_000_000_000L)).isEqualTo(4);
  }

  @Test
  void utilizationPercentilesAreNearestRank() {
    double[] values = {0.9, 0.1, 0.5, 0.3};
    assertThat(Percentiles.of(values, 4, 1)).isEqualTo(0.1);
    assertThat(Percentiles.of(values, 4, 50)).isEqualTo(0.3);
    assertThat(Percentiles.of(values, 4, 99)).isEqualTo(0.9);
  }
}
