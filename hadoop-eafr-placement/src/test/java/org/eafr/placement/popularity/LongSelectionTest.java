package org.eafr.placement.popularity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class LongSelectionTest {
  @Test
  void javadocExample_kthSmallestOfFiveValues() {
    assertThat(LongSelection.kthSmallest(new long[] {5, 1, 4, 1, 3}, 5, 0)).isEqualTo(1);
    assertThat(LongSelection.kthSmallest(new long[] {5, 1, 4, 1, 3}, 5, 1)).isEqualTo(1);
    assertThat(LongSelection.kthSmallest(new long[] {5, 1, 4, 1, 3}, 5, 2)).isEqualTo(3);
    assertThat(LongSelection.kthSmallest(new long[] {5, 1, 4, 1, 3}, 5, 4)).isEqualTo(5);
  }

  @Test
  void onlyTheFirstLengthValues_areConsidered() {
    assertThat(LongSelection.kthSmallest(new long[] {7, 9, 0, 0}, 2, 0)).isEqualTo(7);
  }

  @Test
  void allEqualValues_areSelectedInOnePass() {
    long[] values = new long[1_000_000];
    Arrays.fill(values, 4);

    assertThat(LongSelection.kthSmallest(values, values.length, 250_000)).isEqualTo(4);
  }

  @Property(tries = 1000, seed = "7731")
  void selection_matchesTheSortedValueAtK(
      @ForAll @Size(min = 1, max = 300) List<@LongRange(min = 0, max = 20) Long> list,
      @ForAll @IntRange(min = 0, max = 299) int k) {
    long[] values = list.stream().mapToLong(Long::longValue).toArray();
    int index = k % values.length;
    long[] sorted = values.clone();
    Arrays.sort(sorted);

    assertThat(LongSelection.kthSmallest(values, values.length, index)).isEqualTo(sorted[index]);
  }

  @Test
  void kOutsideTheRange_isRejected() {
    assertThatThrownBy(() -> LongSelection.kthSmallest(new long[] {1, 2}, 2, 2))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("k 2 is not allowed: expected 0 to 1");
    assertThatThrownBy(() -> LongSelection.kthSmallest(new long[] {1, 2}, 3, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("length 3 is not allowed: expected 1 to 2");
  }
}
