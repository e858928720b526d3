package org.eafr.placement.gear;

import static org.assertj.core.api.Assertions.assertThat;

import org.eafr.placement.gear.accordion.AccordionLayout;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.junit.jupiter.api.Test;

/** The worked example of {@link SleepingHomes}: 12 servers, equal-work with p = 4, g = 2, r = 3; and Accordion's. */
class SleepingHomesTest {
  private static final int[] NONE = {};
  private final ExpansionChain chain = GearServers.chain(12, 3);
  private final EqualWorkLayout layout = new EqualWorkLayout(chain, 4, 2, 3);
  private final ActiveSet noneFailed = ActiveSet.none(chain);

  @Test
  void homeMatesAreTheRecoveryGroupAndForANonPrimaryItsPrimariesToo() {
    assertThat(layout.homeMates(0).ids()).containsExactly("s4", "s6", "s8", "s10");
    assertThat(layout.homeMates(3).ids()).containsExactly("s5", "s7", "s9", "s11");
    assertThat(layout.homeMates(4).ids()).containsExactly("s0", "s2", "s6", "s8", "s10");
  }

  @Test
  void inGearZeroAfterARestartABlockOnItsPrimaryIsHeldBack() {
    ActiveSet unseen = ActiveSet.all(chain).minus(layout.serversOn(0));

    assertThat(SleepingHomes.missingAsleep(layout, new int[] {0}, NONE, 2, unseen, noneFailed)).isTrue();
    // Five missing replicas cannot all sleep in a group of four.
    assertThat(SleepingHomes.missingAsleep(layout, new int[] {0}, NONE, 5, unseen, noneFailed)).isFalse();
    // Nothing sleeps unseen (no restart): HDFS's own re-replication.
    assertThat(SleepingHomes.missingAsleep(layout, new int[] {0}, NONE, 2, ActiveSet.none(chain), noneFailed))
        .isFalse();
  }

  @Test
  void inGearOneAKnownServerIsNoCandidate_aFailedCandidateMeansCopy() {
    ActiveSet unseen = ActiveSet.all(chain).minus(layout.serversOn(1));

    assertThat(SleepingHomes.missingAsleep(layout, new int[] {0, 4}, NONE, 1, unseen, noneFailed)).isTrue();
    // s6 known to hold it (e.g. a corrupt replica), s8 and s10 unseen: one missing fits, three do not.
    assertThat(SleepingHomes.missingAsleep(layout, new int[] {0, 4}, new int[] {6}, 1, unseen, noneFailed))
        .isTrue();
    assertThat(SleepingHomes.missingAsleep(layout, new int[] {0}, new int[] {6}, 3, unseen, noneFailed)).isFalse();

    ActiveSet s4Failed = ActiveSet.of(chain, 4);
    assertThat(SleepingHomes.missingAsleep(layout, new int[] {0}, NONE, 2, unseen, s4Failed)).isFalse();
    // A failed server outside the block's candidates changes nothing.
    assertThat(SleepingHomes.missingAsleep(layout, new int[] {0}, NONE, 2, unseen, ActiveSet.of(chain, 5)))
        .isTrue();
  }

  @Test
  void holdersInTwoRecoveryGroupsOrNoneInTheChainAreCopied() {
    ActiveSet unseen = ActiveSet.all(chain).minus(layout.serversOn(1));

    assertThat(SleepingHomes.missingAsleep(layout, new int[] {0, 5}, NONE, 1, unseen, noneFailed)).isFalse();
    assertThat(SleepingHomes.missingAsleep(layout, new int[] {-1}, NONE, 1, unseen, noneFailed)).isFalse();
    assertThat(SleepingHomes.missingAsleep(layout, NONE, NONE, 1, unseen, noneFailed)).isFalse();
  }

  @Test
  void candidatesAreTheHoldersCommonMatesLessEveryKnownHolder() {
    assertThat(SleepingHomes.candidates(layout, new int[] {0}, NONE).ids()).containsExactly("s4", "s6", "s8", "s10");
    assertThat(SleepingHomes.candidates(layout, new int[] {2, 6}, new int[] {8}).ids()).containsExactly("s4",
        "s10");
    assertThat(SleepingHomes.candidates(layout, new int[] {-1}, NONE).isEmpty()).isTrue();
  }

  @Test
  void aServerPastTheLastGearGroupMayShareABlockWithAnyServer() {
    EqualWorkLayout withSpare = new EqualWorkLayout(GearServers.chain(13, 3), 4, 2, 3);
    assertThat(withSpare.homeMates(12).size()).isEqualTo(12);
  }

  @Test
  void accordionLooksAmongTheHomesOfThePrimariesSharingTheLiveCopies() {
    // Fig. 1's four nodes: groups of 2 and 2, r = 3; homes by primary 0: 0, 1, 2; 1: 1, 0, 3; 2: 2, 0, 1; 3: 3, 1, 0.
    ExpansionChain four = GearServers.chain(4, 1);
    AccordionLayout accordion = new AccordionLayout(four, new int[] {2, 2}, 3);
    assertThat(accordion.homeMates(2).positions()).containsExactly(0, 1);
    assertThat(accordion.homeMates(0).positions()).containsExactly(1, 2, 3);

    ActiveSet unseen = ActiveSet.of(four, 2, 3);
    // Live on the low gear's pair 0 and 1, one copy missing: it can be on 2 or 3, both asleep.
    assertThat(SleepingHomes.missingAsleep(accordion, new int[] {0, 1}, NONE, 1, unseen, ActiveSet.none(four)))
        .isTrue();
    // With node 3 failed in the high gear, the missing copy may be the one lost there.
    assertThat(SleepingHomes.missingAsleep(accordion, new int[] {0, 1}, NONE, 1, ActiveSet.of(four, 2),
        ActiveSet.of(four, 3))).isFalse();
  }
}
