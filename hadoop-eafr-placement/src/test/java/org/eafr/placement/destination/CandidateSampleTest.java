package org.eafr.placement.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import java.util.function.IntPredicate;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

class CandidateSampleTest {
  private static final IntPredicate EVEN = member -> member % 2 == 0;

  @Test
  void workedExample_skipsTheIneligibleAndTheRepeated_andReturnsAscending() {
    ScriptedRandom draws = ScriptedRandom.intDraws(3, 4, 4, 8, 0);

    assertThat(new CandidateSample(3, draws).draw(10, EVEN)).containsExactly(0, 4, 8);
    assertThat(draws.draws()).isEqualTo(5);
  }

  @Test
  void sizeAll_takesEveryEligibleMemberWithoutADraw() {
    ScriptedRandom draws = ScriptedRandom.intDraw(0);

    assertThat(new CandidateSample(CandidateSample.ALL, draws).draw(7, EVEN)).containsExactly(0, 2, 4, 6);
    assertThat(draws.draws()).isZero();
  }

  @Test
  void poolNoLargerThanTheSample_takesEveryEligibleMember() {
    assertThat(new CandidateSample(5, new Random(1)).draw(5, EVEN)).containsExactly(0, 2, 4);
  }

  @Test
  void fewEligibleMembers_fallsBackToExaminingAll_andStillFillsTheSample() {
    IntPredicate onlyTwo = member -> member == 17 || member == 993;
    // Eight tries of a 1,000-member pool all land on ineligible members: every member is examined instead.
    ScriptedRandom draws = ScriptedRandom.intDraws(1, 2, 3, 4, 5, 6, 7, 8);

    assertThat(new CandidateSample(2, draws).draw(1_000, onlyTwo)).containsExactly(17, 993);
  }

  @Test
  void noEligibleMember_givesAnEmptySample() {
    assertThat(new CandidateSample(4, new Random(1)).draw(100, member -> false)).isEmpty();
    assertThat(new CandidateSample(4, new Random(1)).draw(0, member -> true)).isEmpty();
  }

  @Test
  void seededSamples_drawEveryEligibleMemberEquallyOften() {
    CandidateSample sample = new CandidateSample(4, new Random(2024));
    int[] counts = new int[40];
    for (int i = 0; i < 10_000; i++) {
      for (int member : sample.draw(40, EVEN)) {
        counts[member]++;
      }
    }

    // 20 eligible members, 4 drawn per sample: 2,000 draws expected for each; none for the odd members.
    for (int member = 0; member < counts.length; member++) {
      if (member % 2 == 0) {
        assertThat(counts[member]).as("member %d", member).isBetween(1_880, 2_120);
      } else {
        assertThat(counts[member]).as("member %d", member).isZero();
      }
    }
  }

  @Test
  void negativeSizeOrPool_isRefusedNamingTheValue() {
    assertThatThrownBy(() -> new CandidateSample(-1, new Random(1)))
        .hasMessage("sample size d = -1 is not allowed: expected 0 (all) or more");
    assertThatThrownBy(() -> new CandidateSample(2, new Random(1)).draw(-3, EVEN))
        .hasMessage("poolSize = -3 is not allowed: expected at least 0");
  }

  @Test
  void fromSettings_readsTheSampleSize() {
    EafrSettings settings = EafrSettings.builder().set("eafr.destination.sample-size", "8").build();

    assertThat(CandidateSample.from(settings, new Random(1)).size()).isEqualTo(8);
    assertThat(CandidateSample.from(EafrSettings.defaults(), new Random(1)).size()).isEqualTo(16);
  }
}
