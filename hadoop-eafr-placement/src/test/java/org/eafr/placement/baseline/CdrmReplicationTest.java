package org.eafr.placement.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Scale;
import org.junit.jupiter.api.Test;

class CdrmReplicationTest {
  private final CdrmReplication cdrm = new CdrmReplication();

  @Test
  void eafrSettingAtFailureProbability0point1_keepsTwoReplicas() {
    assertThat(CdrmReplication.availability(0.1, 2)).isCloseTo(0.99, within(1e-12));
    assertThat(cdrm.requiredReplicas(0.1, 0.98)).isEqualTo(2);
  }

  @Test
  void eafrSettingAtFailureProbability0point2_isHeldAtTheMinimumOfTwo() {
    assertThat(new CdrmReplication(1, 32).requiredReplicas(0.2, 0.8)).isEqualTo(1);
    assertThat(cdrm.requiredReplicas(0.2, 0.8)).isEqualTo(2);
  }

  @Test
  void stricterTarget_addsAThirdReplica() {
    assertThat(CdrmReplication.availability(0.2, 2)).isCloseTo(0.96, within(1e-12));
    assertThat(CdrmReplication.availability(0.2, 3)).isCloseTo(0.992, within(1e-12));
    assertThat(cdrm.requiredReplicas(0.2, 0.99)).isEqualTo(3);
  }

  @Test
  void coinFlipServers_needFourReplicasFor0point9() {
    assertThat(CdrmReplication.availability(0.5, 3)).isEqualTo(0.875);
    assertThat(CdrmReplication.availability(0.5, 4)).isEqualTo(0.9375);
    assertThat(cdrm.requiredReplicas(0.5, 0.9)).isEqualTo(4);
  }

  @Test
  void targetMetExactlyOnPaper_isMetDespiteRounding() {
    assertThat(CdrmReplication.availability(0.9, 2)).isLessThan(0.19);

    assertThat(new CdrmReplication(1, 32).requiredReplicas(0.9, 0.19)).isEqualTo(2);
  }

  @Test
  void targetBeyondTheCap_isRejectedNamingWhatTheCapGives() {
    CdrmReplication capped = new CdrmReplication(2, 4);

    assertThatThrownBy(() -> capped.requiredReplicas(0.5, 0.99)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("requiredAvailability 0.99").hasMessageContaining("failureProbability 0.5")
        .hasMessageContaining("at most 0.9375").hasMessageContaining("cap of 4 replicas");
  }

  @Test
  void failureProbabilityOutsideTheOpenUnitInterval_isRejected() {
    for (double p : new double[] {0.0, 1.0, -0.1, Double.NaN}) {
      assertThatThrownBy(() -> cdrm.requiredReplicas(p, 0.9)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("failureProbability " + p).hasMessageContaining("(0, 1)");
    }
  }

  @Test
  void requiredAvailabilityOutsideTheOpenUnitInterval_isRejected() {
    for (double a : new double[] {0.0, 1.0, 1.5}) {
      assertThatThrownBy(() -> cdrm.requiredReplicas(0.1, a)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("requiredAvailability " + a).hasMessageContaining("(0, 1)");
    }
  }

  @Test
  void minimumBelowOne_isRejected() {
    assertThatThrownBy(() -> new CdrmReplication(0, 5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("minReplicas 0");
  }

  @Test
  void capBelowTheMinimum_isRejected() {
    assertThatThrownBy(() -> new CdrmReplication(3, 2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxReplicas 2").hasMessageContaining("minReplicas 3");
  }

  @Test
  void defaults_areTwoToThirtyTwo() {
    assertThat(cdrm.minReplicas()).isEqualTo(2);
    assertThat(cdrm.maxReplicas()).isEqualTo(32);
  }

  @Property(tries = 1000, seed = "20100920")
  void requiredReplicas_isTheSmallestCountMeetingTheTarget(
      @ForAll @DoubleRange(min = 0.001, max = 0.9) @Scale(6) double p,
      @ForAll @DoubleRange(min = 0.001, max = 0.999) @Scale(6) double a,
      @ForAll @IntRange(min = 1, max = 4) int min) {
    CdrmReplication policy = new CdrmReplication(min, 1000);

    int r = policy.requiredReplicas(p, a);

    assertThat(r).isGreaterThanOrEqualTo(min);
    assertThat(CdrmReplication.availability(p, r)).isGreaterThanOrEqualTo(a - CdrmReplication.TOLERANCE);
    if (r > min) {
      assertThat(CdrmReplication.availability(p, r - 1)).isLessThan(a - CdrmReplication.TOLERANCE);
    }
  }
}
