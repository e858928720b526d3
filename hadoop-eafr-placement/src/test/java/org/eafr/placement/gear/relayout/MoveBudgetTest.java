package org.eafr.placement.gear.relayout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.eafr.placement.gear.BlockMove;
import org.junit.jupiter.api.Test;

/** The worked example of {@link MoveBudget}. */
class MoveBudgetTest {
  @Test
  void perServerAndTotalLimits() {
    MoveBudget budget = new MoveBudget(1, 2);
    BlockMove first = new BlockMove("a", 0, 4, true);
    assertThat(budget.tryStart(first)).isTrue();
    assertThat(budget.tryStart(new BlockMove("b", 0, 5, true))).isFalse();
    assertThat(budget.tryStart(new BlockMove("c", 1, 6, true))).isTrue();
    BlockMove fourth = new BlockMove("d", 2, 7, true);
    assertThat(budget.tryStart(fourth)).isFalse();
    budget.finish(first);
    assertThat(budget.tryStart(fourth)).isTrue();
    assertThat(budget.inFlight()).isEqualTo(2);
  }

  @Test
  void aBudgetBelowOneIsRefused() {
    assertThatThrownBy(() -> new MoveBudget(0, 2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0 per server");
  }
}
