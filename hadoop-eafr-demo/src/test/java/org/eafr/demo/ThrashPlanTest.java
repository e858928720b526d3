package org.eafr.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ThrashPlanTest {
  @Test
  void aHundredRoundsRestartTheNameNodeOnceInItsGearAndOnceInGearZero_interruptOneRelayout_andDrawEveryFault() {
    ThrashPlan plan = ThrashPlan.of(1, 100);

    assertThat(plan.rounds()).hasSize(100);
    assertThat(plan.count(ThrashFault.NAMENODE_RESTART)).isEqualTo(1);
    assertThat(plan.count(ThrashFault.NAMENODE_RESTART_GEAR_0)).isEqualTo(1);
    assertThat(plan.count(ThrashFault.RELAYOUT_INTERRUPTED)).isEqualTo(1);
    for (ThrashFault fault : ThrashFault.repeatable()) {
      assertThat(plan.count(fault)).as(fault.label()).isGreaterThanOrEqualTo(1);
    }
    assertThat(plan.rounds().stream().map(ThrashPlan.Round::number).toList())
        .isEqualTo(java.util.stream.IntStream.rangeClosed(1, 100).boxed().toList());
  }

  @Test
  void tenRoundsCoverEveryKindOfFault() {
    for (long seed = 0; seed < 50; seed++) {
      Set<ThrashFault> drawn = ThrashPlan.of(seed, 10).rounds().stream().map(ThrashPlan.Round::fault)
          .collect(Collectors.toCollection(() -> EnumSet.noneOf(ThrashFault.class)));
      assertThat(drawn).as("seed " + seed).isEqualTo(EnumSet.allOf(ThrashFault.class));
    }
  }

  @Test
  void threeRoundsAreTheOncePerRunRounds_oneRoundRestartsInItsGear() {
    List<ThrashFault> faults = ThrashPlan.of(1, 3).rounds().stream().map(ThrashPlan.Round::fault).toList();

    assertThat(faults).containsExactlyInAnyOrder(ThrashFault.NAMENODE_RESTART, ThrashFault.NAMENODE_RESTART_GEAR_0,
        ThrashFault.RELAYOUT_INTERRUPTED);
    assertThat(ThrashPlan.of(1, 1).rounds()).extracting(ThrashPlan.Round::fault)
        .containsExactly(ThrashFault.NAMENODE_RESTART);
  }

  @Test
  void theSameSeedReplaysTheSameRoundsAndAnotherSeedDiffers() {
    assertThat(ThrashPlan.of(42, 100)).isEqualTo(ThrashPlan.of(42, 100));
    assertThat(ThrashPlan.of(43, 100).rounds()).isNotEqualTo(ThrashPlan.of(42, 100).rounds());
  }

  @Test
  void noRoundsIsRefusedNamingTheValue() {
    assertThatThrownBy(() -> ThrashPlan.of(1, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rounds must be at least 1, not 0");
  }
}
