package org.eafr.placement.gear.read;

import java.util.concurrent.atomic.AtomicLongArray;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.ReadBalancer;

/**
 * Rabbit's load balancer (Amur et al., Sec. 3.2): with n servers on, each should serve B / n of a full read although
 * server i stores b_i blocks, so each has a desired hit ratio, the share of the reads it could serve that it should
 * serve: (B / n) / b_i = 1 / (n share_i), at most 1. A read goes to the holder whose actual hit ratio (reads it served /
 * reads it could have served, so far) is farthest below its desired one.
 *
 * <p>The paper prints the desired hit ratio as b_i / (B / n) but its examples are the inverse: "the n-th node ... has
 * a desired hit-ratio of 1" and "a primary node has a desired hit-ratio of p / n" are (B / n) / b_i for b_n = B / n
 * and b_p = B / p. We follow the examples (the printed form exceeds 1 for every i &lt; n).
 *
 * <p>Worked example (Sec. 3.2's check): 1,700 blocks on 24 servers in the equal-work layout, all on, each read once:
 * every server serves 1700 / 24 = 70.83 on average; the paper measures a standard deviation of 1.79 blocks. With p = 3
 * and r = 3 we measure 1.11 (69 to 73 blocks per server); the test checks at most 2.5.
 *
 * <p>Thread-safe without locks: counters are atomic; two concurrent reads may both see the same ratio, which only
 * delays the correction by one read.
 */
public final class HitRatioBalancer implements ReadBalancer {
  private final GearedLayout layout;
  private final AtomicLongArray served;
  private final AtomicLongArray offered;

  public HitRatioBalancer(GearedLayout layout) {
    this.layout = layout;
    this.served = new AtomicLongArray(layout.chain().size());
    this.offered = new AtomicLongArray(layout.chain().size());
  }

  @Override
  public int choose(int[] holders, ActiveSet on) {
    int n = on.size();
    int best = -1;
    double bestGap = Double.NEGATIVE_INFINITY;
    for (int holder : holders) {
      if (!on.contains(holder)) {
        continue;
      }
      double gap = desiredHitRatio(holder, n) - actualHitRatio(holder);
      if (gap > bestGap) {
        best = holder;
        bestGap = gap;
      }
    }
    if (best >= 0) {
      for (int holder : holders) {
        if (on.contains(holder)) {
          offered.incrementAndGet(holder);
        }
      }
      served.incrementAndGet(best);
    }
    return best;
  }

  /** (B / n) / b_i = 1 / (n share_i), at most 1; 1 for a server the layout gives no share (it holds only extras). */
  public double desiredHitRatio(int position, int serversOn) {
    double share = layout.share(position);
    return share <= 0 ? 1 : Math.min(1, 1 / (serversOn * share));
  }

  /** Reads served / reads it could have served so far; 0 before it was ever a candidate. */
  public double actualHitRatio(int position) {
    long could = offered.get(position);
    return could == 0 ? 0 : (double) served.get(position) / could;
  }

  /** Reads this balancer sent to the server at {@code position}. */
  public long served(int position) {
    return served.get(position);
  }
}
