package org.eafr.placement.gear;

import static org.assertj.core.api.Assertions.assertThat;

import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.junit.jupiter.api.Test;

/** The worked example of {@link LayoutMoves}: 12 servers, equal-work with p = 4, g = 2, r = 3. */
class LayoutMovesTest {
  private final ExpansionChain chain = GearServers.chain(12, 3);
  private final EqualWorkLayout layout = new EqualWorkLayout(chain, 4, 2, 3);
  private final int[] block = {0, 4, 6};

  @Test
  void aPrimaryReplicaMayMoveToAnotherPrimaryOfItsGroupOnly() {
    assertThat(LayoutMoves.keeps(layout, block, 0, 2)).isTrue();
    assertThat(LayoutMoves.keeps(layout, block, 0, 1)).isFalse();
    // The Balancer lists the target with the holders: the same answers.
    assertThat(LayoutMoves.keeps(layout, new int[] {0, 4, 6, 2}, 0, 2)).isTrue();
    assertThat(LayoutMoves.keeps(layout, new int[] {0, 4, 6, 1}, 0, 1)).isFalse();
  }

  @Test
  void noReplicaMovesUpTheChain_downWithinTheGroupIsAllowed() {
    assertThat(LayoutMoves.keeps(layout, block, 0, 8)).isFalse();
    assertThat(LayoutMoves.keeps(layout, block, 4, 8)).isFalse();
    assertThat(LayoutMoves.keeps(layout, new int[] {0, 6, 8}, 8, 4)).isTrue();
    assertThat(LayoutMoves.keeps(layout, new int[] {0, 6, 8}, 8, 5)).isFalse();
  }

  @Test
  void aBlockAwayFromItsHomesIsHeldToTheGearRuleOnly_theChainsEdges() {
    int[] offloaded = {0, 5, 7};
    assertThat(LayoutMoves.keeps(layout, offloaded, 7, 4)).isTrue();
    assertThat(LayoutMoves.keeps(layout, offloaded, 5, 9)).isFalse();

    assertThat(LayoutMoves.keeps(layout, new int[] {-1, 0}, -1, 9)).isTrue();
    assertThat(LayoutMoves.keeps(layout, block, 4, -1)).isFalse();
  }
}
