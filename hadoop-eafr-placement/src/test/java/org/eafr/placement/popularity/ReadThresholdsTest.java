package org.eafr.placement.popularity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

class ReadThresholdsTest {
  @Test
  void javadocExample_eafrDefaults() {
    EafrSettings defaults = EafrSettings.defaults();

    assertThat(new ReadThresholds(defaults.hotMeanReads(), defaults.hotReplicaReads()))
        .isEqualTo(new ReadThresholds(20, 8));
    assertThat(new ReadThresholds(defaults.coldMeanReads(), defaults.coldReplicaReads()))
        .isEqualTo(new ReadThresholds(10, 1));
  }

  @Test
  void nonPositiveOrNonFiniteThresholds_areRejected() {
    assertThatThrownBy(() -> new ReadThresholds(0, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("meanReads 0.0 is not allowed: expected a number in (0, +inf)");
    assertThatThrownBy(() -> new ReadThresholds(1, Double.NaN)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("replicaReads NaN is not allowed: expected a number in (0, +inf)");
    assertThatThrownBy(() -> new ReadThresholds(Double.POSITIVE_INFINITY, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
