package org.eafr.placement.popularity;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ScaledThresholdTest {
  @Test
  void javadocExample_halfTimesThreeAndTimesTwo() {
    ScaledThreshold half = new ScaledThreshold(0.5);

    assertThat(half.isAbove(2, 3)).isTrue();
    assertThat(half.isAbove(1, 3)).isFalse();
    assertThat(half.isBelow(1, 3)).isTrue();
    assertThat(half.isBelow(2, 3)).isFalse();
    assertThat(half.isAbove(1, 2)).isFalse();
    assertThat(half.isBelow(1, 2)).isFalse();
  }

  @Test
  void decimalThatDoublesRoundDown_countExactlyAtItIsNeitherAboveNorBelow() {
    ScaledThreshold threshold = new ScaledThreshold(0.29);

    assertThat(threshold.isAbove(29, 100)).isFalse();
    assertThat(threshold.isBelow(29, 100)).isFalse();
    assertThat(threshold.isAbove(30, 100)).isTrue();
    assertThat(threshold.isBelow(28, 100)).isTrue();
  }

  @Test
  void scaleBeyondTheCache_givesTheSameAnswers() {
    ScaledThreshold threshold = new ScaledThreshold(0.5);

    assertThat(threshold.isAbove(50, 100)).isFalse();
    assertThat(threshold.isAbove(51, 100)).isTrue();
    assertThat(threshold.isBelow(49, 99)).isTrue();
    assertThat(threshold.isBelow(50, 99)).isFalse();
  }

  @Test
  void hugeThreshold_nothingIsAboveAndEveryCountIsBelow() {
    ScaledThreshold threshold = new ScaledThreshold(1e300);

    assertThat(threshold.isAbove(Long.MAX_VALUE - 1, 1)).isFalse();
    assertThat(threshold.isBelow(Long.MAX_VALUE, 1)).isTrue();
  }

  @Test
  void tinyThreshold_onlyZeroIsBelow() {
    ScaledThreshold threshold = new ScaledThreshold(0.001);

    assertThat(threshold.isBelow(0, 1)).isTrue();
    assertThat(threshold.isBelow(1, 1)).isFalse();
    assertThat(threshold.isAbove(1, 1)).isTrue();
    assertThat(threshold.isAbove(0, 1)).isFalse();
  }
}
