package org.eafr.placement.gear;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.junit.jupiter.api.Test;

/** The worked example of {@link WakePlanner}: 12 servers, equal-work with p = 4, g = 2, r = 3, in gear 0. */
class WakePlannerTest {
  private final ExpansionChain chain = GearServers.chain(12, 3);
  private final EqualWorkLayout layout = new EqualWorkLayout(chain, 4, 2, 3);
  private final WakePlanner planner = new WakePlanner(layout);

  @Test
  void aFailedPrimaryInGearZeroWakesItsRecoveryGroupOnly() {
    ActiveSet failed = ActiveSet.of(chain, 2);
    ActiveSet on = layout.serversOn(0).minus(failed);

    assertThat(planner.forFailure(2, on, failed).ids()).containsExactly("s4", "s6", "s8", "s10");
    assertThat(planner.forFailure(1, layout.serversOn(0).without(1), ActiveSet.of(chain, 1)).ids())
        .containsExactly("s5", "s7", "s9", "s11");
  }

  @Test
  void aFailedNonPrimaryWakesNothing_andAGroupAlreadyOnIsNotWokenAgain() {
    ActiveSet on = layout.serversOn(1).without(4);
    assertThat(planner.forFailure(4, on, ActiveSet.of(chain, 4)).isEmpty()).isTrue();

    ActiveSet allOn = layout.serversOn(layout.maximumGear()).without(2);
    assertThat(planner.forFailure(2, allOn, ActiveSet.of(chain, 2)).isEmpty()).isTrue();
  }

  @Test
  void aBlockWithNoLiveReplicaWakesTheRecoveryGroupThatHoldsIt() {
    ActiveSet failed = ActiveSet.of(chain, 2);
    ActiveSet on = layout.serversOn(0).minus(failed);

    assertThat(planner.forBlock(new int[] {2, 6, 10}, on, failed).ids()).containsExactly("s4", "s6", "s8", "s10");
  }

  @Test
  void anOffloadedBlockWakesTheGroupHoldingItNotTheFailedPrimarysGroup() {
    ActiveSet failed = ActiveSet.of(chain, 0);
    ActiveSet on = layout.serversOn(0).minus(failed);

    assertThat(planner.forFailure(0, on, failed).ids()).containsExactly("s4", "s6", "s8", "s10");
    assertThat(planner.forBlock(new int[] {0, 7, 9}, on, failed).ids()).containsExactly("s5", "s7", "s9", "s11");
    assertThat(planner.forBlock(new int[] {0, 7, 9}, on.with(7), failed).isEmpty()).isTrue();
  }

  @Test
  void theSmallestGroupWins_aHolderInNoGroupIsAGroupOfItsOwn() {
    ActiveSet failed = ActiveSet.of(chain, 0);
    // Group 0 partly on already (s4, s6): 2 to wake, against 4 for group 1.
    ActiveSet on = layout.serversOn(0).minus(failed).with(4).with(6);
    assertThat(planner.forBlock(new int[] {0, 8, 9}, on, failed).ids()).containsExactly("s8", "s10");

    // A primary in maintenance holds the block alone: wake that one server.
    ActiveSet primariesDown = ActiveSet.of(chain, 1, 3);
    assertThat(planner.forBlock(new int[] {3}, layout.serversOn(0).minus(primariesDown), ActiveSet.none(chain))
        .ids()).containsExactly("s3");
  }

  @Test
  void nothingToWakeWhenAHolderIsOnOrEveryHolderFailed() {
    ActiveSet on = layout.serversOn(0);
    assertThat(planner.forBlock(new int[] {1, 5, 7}, on, ActiveSet.none(chain)).isEmpty()).isTrue();
    ActiveSet failed = ActiveSet.of(chain, 2, 6, 10);
    assertThat(planner.forBlock(new int[] {2, 6, 10}, on.minus(failed), failed).ids()).isEqualTo(List.of());
  }
}
