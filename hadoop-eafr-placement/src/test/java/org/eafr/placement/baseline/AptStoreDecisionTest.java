package org.eafr.placement.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

class AptStoreDecisionTest {
  private final AptStoreDecision decision = new AptStoreDecision(0.5, 2.0, 3, 10, 0.5);

  @Test
  void workedExample_unpopularFile_keepsOneReplicaOnSecondaryStorage() {
    assertThat(decision.replicas(0.4)).isEqualTo(1);
    assertThat(decision.isUnpopular(0.4)).isTrue();
  }

  @Test
  void workedExample_averageFile_keepsTheDefaultReplicationAtBothBounds() {
    assertThat(decision.replicas(0.5)).isEqualTo(3);
    assertThat(decision.replicas(2.0)).isEqualTo(3);
    assertThat(decision.isUnpopular(0.5)).isFalse();
  }

  @Test
  void workedExample_popularFile_gainsOneReplicaPerStepAboveTheHighBound() {
    assertThat(decision.replicas(2.1)).isEqualTo(4);
    assertThat(decision.replicas(2.5)).isEqualTo(4);
    assertThat(decision.replicas(3.0)).isEqualTo(5);
  }

  @Test
  void workedExample_veryPopularFile_isCappedAtTheMaximum() {
    assertThat(decision.replicas(50.0)).isEqualTo(10);
  }

  @Test
  void nanPopularity_isRejected() {
    assertThatThrownBy(() -> decision.replicas(Double.NaN)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("popularity NaN");
  }

  @Test
  void highBoundBelowTheLowBound_isRejected() {
    assertThatThrownBy(() -> new AptStoreDecision(2.0, 1.0, 3, 10, 0.5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("highPopularity 1.0").hasMessageContaining("at least lowPopularity 2.0");
  }

  @Test
  void infiniteLowBound_isRejected() {
    assertThatThrownBy(() -> new AptStoreDecision(Double.NEGATIVE_INFINITY, 1.0, 3, 10, 0.5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lowPopularity -Infinity");
  }

  @Test
  void defaultBelowOne_isRejected() {
    assertThatThrownBy(() -> new AptStoreDecision(0.5, 2.0, 0, 10, 0.5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("defaultReplicas 0");
  }

  @Test
  void maximumBelowTheDefault_isRejected() {
    assertThatThrownBy(() -> new AptStoreDecision(0.5, 2.0, 3, 2, 0.5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxReplicas 2").hasMessageContaining("defaultReplicas 3");
  }

  @Test
  void nonPositiveStep_isRejected() {
    assertThatThrownBy(() -> new AptStoreDecision(0.5, 2.0, 3, 10, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("popularityPerReplica 0.0");
  }

  @Property(tries = 1000, seed = "1403")
  void replicas_neverFallAsPopularityRisesAndStayBetweenOneAndTheMaximum(
      @ForAll @DoubleRange(min = 0.0, max = 20.0) double a, @ForAll @DoubleRange(min = 0.0, max = 20.0) double b) {
    double low = Math.min(a, b);
    double high = Math.max(a, b);

    assertThat(decision.replicas(low)).isLessThanOrEqualTo(decision.replicas(high));
    assertThat(decision.replicas(high)).isBetween(1, 10);
  }
}
