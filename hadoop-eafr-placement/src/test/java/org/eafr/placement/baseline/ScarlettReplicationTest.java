package org.eafr.placement.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ScarlettReplicationTest {
  private final ScarlettReplication scarlett = new ScarlettReplication(1);

  @Test
  void workedExample_fivePeakReadersWithCushionOne_wantSixReplicas() {
    assertThat(scarlett.desiredReplicas(5)).isEqualTo(6);
  }

  @Test
  void workedExample_oneReaderAtATime_keepsTheFloorOfThree() {
    assertThat(scarlett.desiredReplicas(1)).isEqualTo(3);
  }

  @Test
  void fileNeverRead_keepsTheFloor() {
    assertThat(scarlett.desiredReplicas(0)).isEqualTo(3);
  }

  @Test
  void customFloor_replacesThree() {
    ScarlettReplication lowFloor = new ScarlettReplication(0, 1);

    assertThat(lowFloor.desiredReplicas(0)).isEqualTo(1);
    assertThat(lowFloor.desiredReplicas(2)).isEqualTo(2);
    assertThat(lowFloor.floor()).isEqualTo(1);
    assertThat(lowFloor.cushion()).isEqualTo(0);
  }

  @Test
  void negativePeak_isRejected() {
    assertThatThrownBy(() -> scarlett.desiredReplicas(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("peakConcurrentAccesses -1");
  }

  @Test
  void negativeCushion_isRejected() {
    assertThatThrownBy(() -> new ScarlettReplication(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cushion -1").hasMessageContaining("at least 0");
  }

  @Test
  void floorBelowOne_isRejected() {
    assertThatThrownBy(() -> new ScarlettReplication(1, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("floor 0").hasMessageContaining("at least 1");
  }

  @Property(tries = 1000, seed = "2011")
  void desiredReplicas_coverPeakPlusCushionAndNeverFallBelowTheFloor(
      @ForAll @IntRange(min = 0, max = 10_000) int peak, @ForAll @IntRange(min = 0, max = 10) int cushion,
      @ForAll @IntRange(min = 1, max = 5) int floor) {
    int replicas = new ScarlettReplication(cushion, floor).desiredReplicas(peak);

    assertThat(replicas).isGreaterThanOrEqualTo(peak + cushion).isGreaterThanOrEqualTo(floor);
    assertThat(replicas == peak + cushion || replicas == floor).isTrue();
  }
}
