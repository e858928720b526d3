package org.eafr.placement.gear.shift;

import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.eafr.placement.gear.ExpansionChain;

/**
 * Which replica a reflection move copies to a home that lacks the block (Accordion Sec. 3.4): a live holder away from
 * home on the home's rack when there is one, so that HDFS's rack rule lets the source's copy be the excess it deletes
 * once the home holds the block; else any live holder away from home. A holder outside the expansion chain is never a
 * source (a move is between chain positions).
 *
 * <p>Worked example ({@code MoveSourceTest}; 12 servers on racks r0, r1, r2 dealt round-robin, so s2 and s5 share
 * r2): a block held by s0, s1, s2 with homes s0, s5, s9 moves to s5 from s2 (its rack), and to s9 (rack r0) from s1,
 * the first live holder away from home, since s0 is a home and no holder away from home is on r0.
 */
public final class MoveSource {
  private MoveSource() {
  }

  /**
   * The holder of {@code holders} (none of {@code homes}, {@code live}) to copy to {@code to}; empty when no live
   * holder away from home exists.
   */
  public static Optional<String> pick(ExpansionChain chain, List<String> holders, List<String> homes, String to,
      Predicate<String> live) {
    String rack = chain.rackName(chain.requirePosition(to));
    Optional<String> any = Optional.empty();
    for (String holder : holders) {
      int position = chain.position(holder);
      if (homes.contains(holder) || position < 0 || !live.test(holder)) {
        continue;
      }
      if (chain.rackName(position).equals(rack)) {
        return Optional.of(holder);
      }
      any = any.isPresent() ? any : Optional.of(holder);
    }
    return any;
  }
}
