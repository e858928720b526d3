package org.eafr.placement.popularity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class IntervalReadsTest {
  private final FileReads f1 = FileReads.builder("f1").replicaReads("s1", 12).build();

  @Test
  void javadocExample_trackedFileIsExact_untrackedFileIsZeroToFloor() {
    IntervalReads interval = IntervalReads.of(List.of(f1), 3);

    assertThat(interval.reads("f1")).isSameAs(f1);
    assertThat(interval.reads("f1").readsUpperBound()).isEqualTo(12);
    assertThat(interval.reads("f9")).isEqualTo(FileReads.untracked("f9", 3));
    assertThat(interval.reads("f9").replicaReadsUpperBound("s1")).isEqualTo(3);
    assertThat(interval.isTracked("f1")).isTrue();
    assertThat(interval.isTracked("f9")).isFalse();
    assertThat(interval.trackedFiles()).isEqualTo(1);
    assertThat(interval.floor()).isEqualTo(3);
  }

  @Test
  void badInput_isRejectedNamingTheValue() {
    assertThatThrownBy(() -> IntervalReads.of(List.of(f1, f1), 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("trackedFiles lists file f1 twice");
    assertThatThrownBy(() -> IntervalReads.of(List.of(), -1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("floor -1 is not allowed: expected >= 0");
  }
}
