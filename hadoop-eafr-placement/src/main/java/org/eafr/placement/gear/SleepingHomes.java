package org.eafr.placement.gear;

import java.util.Objects;

/**
 * Whether a block that a NameNode counts short of replicas is in fact whole, its missing replicas asleep at the homes
 * the layout gave them. A NameNode learns replicas only from block reports; after a restart, or on a standby started
 * while groups slept, the servers asleep have never reported, so in gear 0 nearly every block looks short by r - 1
 * replicas and HDFS would copy them all onto the few servers on (a copy storm). A block whose missing replicas sleep
 * where the layout puts them is held back instead; it is whole again once its group wakes and reports.
 *
 * <p>The rule, for a block with live replicas on {@code live} and {@code missing} replicas asked for: every home of a
 * block lies in {@link GearedLayout#homeMates} of each of its homes (equal-work: its primary's recovery group and
 * the primaries it serves, Rabbit Sec. 3.5; Accordion: the homes of the primaries sharing that home, Sec. 3.2), so
 * the missing homes are among the <em>candidates</em>, the intersection of the live holders' mates, less every server
 * known to hold the block. The block is held back when
 * <ul>
 *   <li>no candidate has failed (a server that should be on and is not: a replica there is lost, not asleep, and the
 *       NameNode re-replicates it as HDFS always does), and</li>
 *   <li>at least {@code missing} candidates are unseen: asleep, or on but not yet reported to this NameNode, so that
 *       each missing replica can be one of theirs.</li>
 * </ul>
 * A block with no live holder in the chain is never held back (it has no replica on: the gear service wakes its
 * group); nor is one whose live holders share no home mates (not placed by the layout). Where a block's replicas
 * are away from home (written in a gear that left its home asleep, moved by hand), the answer rests on the homes of
 * its live replicas: a replica lost on a failed server outside them waits for the group's wake to be copied.
 *
 * <p>Worked example ({@code SleepingHomesTest}; 12 servers s0..s11, equal-work with p = 4, g = 2, r = 3: recovery
 * group 0 = s4, s6, s8, s10 serving primaries s0 and s2). In gear 0 after a restart, s4..s11 unseen: a block live on
 * s0 and short by 2 is held back (candidates s4, s6, s8, s10, all unseen). In gear 1 (s0..s5 on) with s4 known: a
 * block live on s0 and s4 short by 1 is held back (candidates s6, s8, s10); with s4 failed instead, a block live on
 * s0 short by 2 is copied (s4 is a candidate and has failed). A block live on s0 and s5 (two recovery groups) is
 * copied: its holders share no mates.
 *
 * <p>Cost: O(r N / 64) word operations per block over bit sets, no allocation beyond them; pure and thread-safe.
 */
public final class SleepingHomes {
  private SleepingHomes() {
  }

  /**
   * @param layout the layout the block was placed by
   * @param live chain positions of the servers with a live replica (-1 for one outside the chain)
   * @param known chain positions of every other server the NameNode knows holds the block, in any state
   * @param missing the replicas the NameNode would copy
   * @param unseen servers whose replicas the NameNode cannot see: asleep, or on but not yet reported
   * @param failed servers that should be on and are not
   * @return whether every missing replica can be asleep at a home, so the block need not be copied
   */
  public static boolean missingAsleep(GearedLayout layout, int[] live, int[] known, int missing, ActiveSet unseen,
      ActiveSet failed) {
    if (missing < 1) {
      return false;
    }
    ActiveSet candidates = candidates(layout, live, known);
    return !candidates.isEmpty() && candidates.intersection(failed).isEmpty()
        && candidates.intersection(unseen).size() >= missing;
  }

  /**
   * The servers that may hold a block's other home replicas: the intersection of {@link GearedLayout#homeMates} of
   * each of {@code homes} (chain positions of servers holding it; -1 for one outside the chain is skipped), less
   * {@code homes} and {@code known}; empty when no home is in the chain. A NameNode that cannot see replicas on
   * sleeping servers looks for the group holding a block here (the block with no live replica that must wake it).
   */
  public static ActiveSet candidates(GearedLayout layout, int[] homes, int[] known) {
    Objects.requireNonNull(layout, "layout");
    ActiveSet candidates = null;
    for (int home : homes) {
      if (home >= 0) {
        ActiveSet mates = layout.homeMates(home);
        candidates = candidates == null ? mates : candidates.intersection(mates);
      }
    }
    if (candidates == null) {
      return ActiveSet.none(layout.chain());
    }
    for (int[] holders : new int[][] {homes, known}) {
      for (int holder : holders) {
        if (candidates.contains(holder)) {
          candidates = candidates.without(holder);
        }
      }
    }
    return candidates;
  }
}
