package org.eafr.placement.gear;

import java.util.Objects;

/**
 * Which replica moves keep a geared layout: the question HDFS's Balancer and Mover ask the placement policy before
 * each move ({@code isMovable}). A Balancer evens out disk use, and the layouts fill lower gears more on purpose (the
 * equal-work layout's server i holds B / i, Rabbit Sec. 3.1; Accordion's lowest group holds two copies of
 * everything, Sec. 3.2), so its natural moves go up the chain and would take blocks out of gear 0.
 *
 * <p>A move of a block's replica from {@code source} to {@code target} keeps the layout when
 * <ol>
 *   <li>it goes no higher: {@link GearedLayout#gearOf} the target is at most the source's. Gears are nested, so every
 *       gear that kept the replica on still does, and a gear that held a replica of every block still holds one;</li>
 *   <li>it stays among the block's home mates: when the source is a {@link GearedLayout#homeMates home mate} of
 *       every other holder in the chain (the block is where the layout put it), the target must be one too, so the
 *       block stays within its recovery group (Sec. 3.5: a failed primary wakes the group that holds the rest of its
 *       blocks). A block already away from its homes is held to the first rule only.</li>
 * </ol>
 * A source outside the chain keeps nothing of the layout: any move is allowed; a target outside it is refused.
 *
 * <p>Worked example ({@code LayoutMovesTest}; 12 servers s0..s11, equal-work with p = 4, g = 2: recovery group 0 =
 * s4, s6, s8, s10 serving primaries s0 and s2). A block on s0, s4 and s6: s0 to s2 is allowed (a primary of the same
 * group); s0 to s8 is refused (out of gear 0), and so is s4 to s8 (gear 1 to gear 3); s8 to s4 would be allowed for
 * a block on s0, s6 and s8 (down the chain, same group); s0 to s1 is refused (another recovery group).
 *
 * <p>O(N / 64) per move over bit sets; pure and thread-safe.
 */
public final class LayoutMoves {
  private LayoutMoves() {
  }

  /**
   * @param holders chain positions of the servers holding the block now, the source among them (-1: not in the
   *     chain; the target, which HDFS's Dispatcher lists with them, is skipped)
   * @param source chain position of the replica to move, -1 outside the chain
   * @param target chain position it would move to, -1 outside the chain
   */
  public static boolean keeps(GearedLayout layout, int[] holders, int source, int target) {
    Objects.requireNonNull(layout, "layout");
    if (source < 0) {
      return true;
    }
    if (target < 0 || layout.gearOf(target) > layout.gearOf(source)) {
      return false;
    }
    boolean atHome = true;
    boolean targetAtHome = true;
    for (int holder : holders) {
      if (holder >= 0 && holder != source && holder != target) {
        ActiveSet mates = layout.homeMates(holder);
        atHome &= mates.contains(source);
        targetAtHome &= mates.contains(target);
      }
    }
    return !atHome || targetAtHome;
  }
}
