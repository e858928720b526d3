package org.eafr.placement.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class HarmonicRankWeightsTest {

  @Test
  void fourCandidates_weighTwelveSixFourThreeTwentyFifths() {
    HarmonicRankWeights weights = HarmonicRankWeights.of(4);

    assertThat(weights.size()).isEqualTo(4);
    assertThat(weights.weight(1)).isCloseTo(12.0 / 25, within(1e-15));
    assertThat(weights.weight(2)).isCloseTo(6.0 / 25, within(1e-15));
    assertThat(weights.weight(3)).isCloseTo(4.0 / 25, within(1e-15));
    assertThat(weights.weight(4)).isCloseTo(3.0 / 25, within(1e-15));
  }

  @Test
  void singleCandidate_getsWeightOne() {
    assertThat(HarmonicRankWeights.of(1).weight(1)).isEqualTo(1.0);
  }

  @Test
  void thousandCandidates_sumToOneAndFallWithRank() {
    HarmonicRankWeights weights = HarmonicRankWeights.of(1000);
    double sum = 0;
    for (int rank = 1; rank <= 1000; rank++) {
      sum += weights.weight(rank);
      if (rank > 1) {
        assertThat(weights.weight(rank)).isLessThan(weights.weight(rank - 1));
      }
    }
    assertThat(sum).isCloseTo(1.0, within(1e-12));
    assertThat(weights.weight(1) / weights.weight(1000)).isCloseTo(1000.0, within(1e-9));
  }

  @Test
  void zeroCandidates_areRejected() {
    assertThatThrownBy(() -> HarmonicRankWeights.of(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("candidates = 0").hasMessageContaining("at least 1");
  }

  @Test
  void rankOutsideOneToM_isRejected() {
    HarmonicRankWeights weights = HarmonicRankWeights.of(4);
    assertThatThrownBy(() -> weights.weight(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rank = 0").hasMessageContaining("1..4");
    assertThatThrownBy(() -> weights.weight(5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rank = 5");
  }

  @Test
  void tiedKeys_shareTheMeanWeightOfTheRanksTheySpan() {
    double[] weights = HarmonicRankWeights.of(4).byDescendingKey(new int[] {9, 5, 5, 7});

    // 9 ranks 1 (12/25), 7 ranks 2 (6/25), the 5s share ranks 3 and 4: (4/25 + 3/25) / 2 = 0.14.
    assertThat(weights).containsExactly(new double[] {0.48, 0.14, 0.14, 0.24}, within(1e-12));
  }
}
