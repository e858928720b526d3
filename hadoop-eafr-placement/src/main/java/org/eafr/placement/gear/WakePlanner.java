package org.eafr.placement.gear;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which sleeping servers to wake, out of turn, when data is needed that no server on can serve (Rabbit, Amur et al.,
 * Sec. 3.5: "a failed primary wakes only its recovery group", not the cluster).
 *
 * <ul>
 *   <li>{@link #forFailure}: a server that should be on has failed. Its recovery group's servers that sleep are woken
 *       (for the equal-work layout: a primary's recovery group, which holds every non-primary replica of its blocks;
 *       a failed non-primary wakes nothing, since each of its blocks keeps its replica on a primary).</li>
 *   <li>{@link #forBlock}: a block (to read, or to re-replicate) has no replica on a server that is on, and some of
 *       its holders sleep. The smallest group that holds one of them is woken: of the layout's recovery groups that
 *       contain a sleeping holder, the one with the fewest servers still to wake (ties: the one reaching lowest in the
 *       chain, i.e. the lowest gear); a sleeping holder in no recovery group (a primary, a server past the last gear
 *       group) is a group of its own. A whole recovery group rather than one holder, because the blocks a failure
 *       leaves without a live replica are that group's blocks: one wake serves them all instead of one per read.</li>
 * </ul>
 * Servers that are on or have failed are never in an answer (only sleepers can be woken); an empty answer means
 * nothing needs waking, or nothing that sleeps holds the block.
 *
 * <p>Worked example ({@code WakePlannerTest}): 12 servers s0..s11, equal-work with p = 4, g = 2 (gear 0 = s0..s3;
 * recovery group 0 = s4, s6, s8, s10 serving primaries s0 and s2; recovery group 1 = s5, s7, s9, s11). In gear 0,
 * primary s2 fails: {@code forFailure(s2)} wakes s4, s6, s8, s10 (4 of the 8 sleepers, not the cluster). A block held
 * at s2, s6 and s10 has no live replica: {@code forBlock} wakes the same group. A block written while gear 3 was on
 * and offloaded to s0, s7 and s9 (held outside its recovery group) is not served by s0's group when s0 fails:
 * {@code forBlock} wakes s5, s7, s9 and s11, the group that holds it; once s7 is on, the block needs nothing.
 *
 * <p>O(p + r * g) per call over precomputed groups; immutable and thread-safe.
 */
public final class WakePlanner {
  private final GearedLayout layout;
  /** The layout's distinct non-empty recovery groups, in the order of the first primary they serve. */
  private final List<ActiveSet> groups;

  public WakePlanner(GearedLayout layout) {
    this.layout = Objects.requireNonNull(layout, "layout");
    this.groups = recoveryGroups(layout);
  }

  private static List<ActiveSet> recoveryGroups(GearedLayout layout) {
    List<ActiveSet> groups = new ArrayList<>();
    ActiveSet lowest = layout.serversOn(0);
    for (int p = lowest.next(0); p >= 0; p = lowest.next(p + 1)) {
      ActiveSet group = layout.recoveryGroup(p);
      if (!group.isEmpty() && !groups.contains(group)) {
        groups.add(group);
      }
    }
    return groups;
  }

  /**
   * The sleeping servers to wake because the server at chain position {@code failed} has failed: its recovery group
   * minus the servers {@code on} and the {@code failedServers}.
   */
  public ActiveSet forFailure(int failed, ActiveSet on, ActiveSet failedServers) {
    return layout.recoveryGroup(failed).minus(on).minus(failedServers);
  }

  /**
   * The sleeping servers to wake so that a block held at chain positions {@code holders} gets a replica on a server
   * that is on; empty when a holder is on already, or when no holder sleeps (every one failed: nothing to wake).
   */
  public ActiveSet forBlock(int[] holders, ActiveSet on, ActiveSet failedServers) {
    ActiveSet none = ActiveSet.none(layout.chain());
    for (int holder : holders) {
      if (on.contains(holder)) {
        return none;
      }
    }
    ActiveSet best = none;
    int bestCost = Integer.MAX_VALUE;
    for (int holder : holders) {
      if (holder < 0 || failedServers.contains(holder)) {
        continue;
      }
      boolean grouped = false;
      for (ActiveSet group : groups) {
        if (group.contains(holder)) {
          grouped = true;
          ActiveSet toWake = group.minus(on).minus(failedServers);
          if (smaller(toWake, bestCost, best)) {
            best = toWake;
            bestCost = toWake.size();
          }
        }
      }
      ActiveSet alone = ActiveSet.of(layout.chain(), holder);
      if (!grouped && smaller(alone, bestCost, best)) {
        best = alone;
        bestCost = 1;
      }
    }
    return best;
  }

  /** Fewer servers to wake, or as many reaching lower in the chain (a lower gear). */
  private static boolean smaller(ActiveSet candidate, int bestCost, ActiveSet best) {
    return candidate.size() < bestCost || candidate.size() == bestCost && candidate.next(0) < best.next(0);
  }
}
