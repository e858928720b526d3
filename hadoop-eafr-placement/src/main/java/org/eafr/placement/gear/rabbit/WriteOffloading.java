package org.eafr.placement.gear.rabbit;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;

/**
 * Rabbit's write offloading (Amur et al., Sec. 3.3, after Everest; as SpringFS Sec. 2 and Fig. 2 describe it): every
 * block's primary replica goes to one of the p primaries, so when the primary replicas arrive faster than the p
 * primaries can write them, the primaries are the write bottleneck, and Rabbit "offloads writes that would go to
 * heavily loaded servers across all active servers". An offloaded primary replica is written to a non-primary that is
 * on; its home stays the dealt primary. It is not moved back while its holder is on (Rabbit: the layout is corrected
 * "when there is idle disk bandwidth", that is when the holder is about to be deactivated); before its holder sleeps
 * it is cleanup work, moved to a server that stays on (SpringFS Sec. 2: "before Rabbit shrinks the system size,
 * cleanup work is required to migrate some primary replicas to the remaining active servers").
 *
 * <ol>
 *   <li>Each interval, from the last interval's primary write rate W (the client's bytes, every replica's / r) and one
 *       server's write throughput w: the share of primary replicas the primaries cannot absorb,
 *       f = max(0, 1 - p w / W) ({@link #offloadedShare}).</li>
 *   <li>Each block adds f to a credit; a block that brings the credit to 1 is offloaded (and 1 is taken off), so
 *       exactly the share f of the primary replicas is offloaded, spread evenly in time.</li>
 *   <li>The offloaded primary replica goes to the next server on past the primaries, round robin over all of them (the
 *       load spread "across all active servers"), passing over servers that hold the block, are excluded or have no
 *       room. With none, the primary replica stays where the layout put it.</li>
 * </ol>
 *
 * <p>Worked example (SpringFS Sec. 5's cluster: 30 servers, p = 4, all on, each server writes 100 MB/s): a write-only
 * burst at HDFS's full speed writes the primary replicas at N / 3 = 10 servers' worth, W = 1,000 MB/s, so
 * f = 1 - 4 x 100 / 1,000 = 0.6. Of ten blocks dealt primaries 0, 1, 2, 3, 0, ... and secondaries at 12 and 20, the
 * 2nd, 4th, 5th, 7th, 9th and 10th (six) are offloaded, to servers 4, 5, 6, 7, 8 and 9 in turn. Shrinking to the first
 * 8 servers then needs the two blocks on 8 and 9 cleaned up (no other holder stays on); shrinking to the 4 primaries,
 * all six. Rabbit without offloading (f = 0) needs no cleanup at any size.
 *
 * <p>Thread-safe: the credit and the round-robin cursor are guarded by this object's lock. O(1) per block when the
 * servers on past the primaries are contiguous (nested gears), O(N) at worst.
 */
public final class WriteOffloading {
  private static final double EPSILON = 1e-9;

  private final int primaries;
  private double share;
  private double credit;
  private int cursor;

  /** @param primaries p: chain positions 0 .. p - 1 are the primaries (gear 0 of the equal-work layout) */
  public WriteOffloading(int primaries) {
    if (primaries < 1) {
      throw new IllegalArgumentException("p = " + primaries + " is not allowed: expected at least 1 primary");
    }
    this.primaries = primaries;
    this.cursor = primaries;
  }

  /**
   * The share of primary replicas the p primaries cannot absorb, max(0, 1 - p w / W).
   *
   * @param primaryWriteBytesPerSecond W, the rate of primary-replica bytes (the client's write rate), at least 0
   * @param serverWriteBytesPerSecond w, one server's write throughput, above 0
   * @param primaries p, at least 1
   */
  public static double offloadedShare(double primaryWriteBytesPerSecond, double serverWriteBytesPerSecond,
      int primaries) {
    if (!(serverWriteBytesPerSecond > 0) || !(primaryWriteBytesPerSecond >= 0) || primaries < 1) {
      throw new IllegalArgumentException("primary writes " + primaryWriteBytesPerSecond + " B/s, "
          + serverWriteBytesPerSecond + " B/s per server and p = " + primaries + " are not allowed: expected writes"
          + " >= 0, a server rate > 0 and p >= 1");
    }
    double capacity = primaries * serverWriteBytesPerSecond;
    return primaryWriteBytesPerSecond <= capacity ? 0 : 1 - capacity / primaryWriteBytesPerSecond;
  }

  /** Sets f for the coming interval, in [0, 1]. */
  public synchronized void share(double offloaded) {
    if (!(offloaded >= 0 && offloaded <= 1)) {
      throw new IllegalArgumentException("offloaded share " + offloaded + " is not allowed: expected 0 to 1");
    }
    share = offloaded;
  }

  /** f, the share of primary replicas offloaded in this interval. */
  public synchronized double share() {
    return share;
  }

  /**
   * The placement {@code dealt} (the layout's, for {@code request} under {@code on}) with its primary replica
   * offloaded when this block's turn has come; otherwise {@code dealt} itself.
   */
  public BlockPlacement apply(BlockPlacement dealt, BlockRequest request, ActiveSet on) {
    if (dealt.size() == 0 || dealt.holder(0) >= primaries) {
      return dealt;
    }
    int target;
    synchronized (this) {
      credit += share;
      if (credit < 1 - EPSILON) {
        return dealt;
      }
      credit = Math.max(0, credit - 1);
      target = nextTarget(dealt, request, on);
      if (target < 0) {
        return dealt;
      }
      cursor = target + 1;
    }
    int[] holders = dealt.holders();
    int[] homes = new int[holders.length];
    int[] displaced = new int[holders.length];
    for (int i = 0; i < holders.length; i++) {
      homes[i] = dealt.home(i);
      displaced[i] = dealt.displacedHome(i);
    }
    holders[0] = target;
    return new BlockPlacement(dealt.chain(), holders, homes, dealt.missingHomes(),
        dealt.displacedCount() > 0 ? displaced : new int[0]);
  }

  /**
   * The moves reflection may make now: all of {@code owed} but those that bring an offloaded primary replica home
   * (to a primary). Those move only as cleanup, before their holder sleeps.
   */
  public List<BlockMove> beforeCleanup(List<BlockMove> owed) {
    List<BlockMove> now = new ArrayList<>(owed.size());
    for (BlockMove move : owed) {
      if (move.to() >= primaries) {
        now.add(move);
      }
    }
    return now;
  }

  /** The next server on past the primaries, from the cursor round robin, that can take the block; -1 when none. */
  private int nextTarget(BlockPlacement dealt, BlockRequest request, ActiveSet on) {
    int size = dealt.chain().size();
    int start = cursor >= size ? primaries : cursor;
    for (int p = on.next(start); p >= 0; p = on.next(p + 1)) {
      if (canTake(dealt, request, p)) {
        return p;
      }
    }
    for (int p = on.next(primaries); p >= 0 && p < start; p = on.next(p + 1)) {
      if (canTake(dealt, request, p)) {
        return p;
      }
    }
    return -1;
  }

  private static boolean canTake(BlockPlacement dealt, BlockRequest request, int position) {
    if (dealt.holds(position) || request.excludes(position) || !request.fits(position)) {
      return false;
    }
    for (int missing : dealt.missingHomes()) {
      if (missing == position) {
        return false;
      }
    }
    return true;
  }
}
