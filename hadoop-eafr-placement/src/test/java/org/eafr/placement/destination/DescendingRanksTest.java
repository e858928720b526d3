package org.eafr.placement.destination;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class DescendingRanksTest {

  @Test
  void largerKeysRankFirst_andEqualKeysKeepCandidateOrder() {
    assertThat(DescendingRanks.of(new int[] {5, 9, 5, 7})).containsExactly(3, 1, 4, 2);
  }

  @Test
  void extremeKeys_doNotOverflow() {
    assertThat(DescendingRanks.of(new int[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1}))
        .containsExactly(4, 1, 2, 3);
  }

  @Test
  void allEqualKeys_rankInCandidateOrder() {
    assertThat(DescendingRanks.of(new int[] {4, 4, 4})).containsExactly(1, 2, 3);
  }

  @Test
  void noKeys_giveNoRanks() {
    assertThat(DescendingRanks.of(new int[0])).isEmpty();
  }

  @Property(tries = 1000, seed = "7311")
  void ranksArePermutation_orderedByKeyThenPosition(
      @ForAll @Size(max = 60) int[] keys, @ForAll @IntRange(min = 0, max = 3) int spread) {
    int[] narrowed = new int[keys.length];
    for (int i = 0; i < keys.length; i++) {
      narrowed[i] = spread == 0 ? keys[i] : Math.floorMod(keys[i], spread + 1); // small ranges force ties
    }
    int[] ranks = DescendingRanks.of(narrowed);

    boolean[] seen = new boolean[ranks.length];
    for (int rank : ranks) {
      assertThat(rank).isBetween(1, ranks.length);
      assertThat(seen[rank - 1]).isFalse();
      seen[rank - 1] = true;
    }
    for (int i = 0; i < ranks.length; i++) {
      for (int j = i + 1; j < ranks.length; j++) {
        boolean earlierRanksFirst = narrowed[i] >= narrowed[j]; // i < j: ties go to the earlier position
        assertThat(ranks[i] < ranks[j]).isEqualTo(earlierRanksFirst);
      }
    }
  }
}
