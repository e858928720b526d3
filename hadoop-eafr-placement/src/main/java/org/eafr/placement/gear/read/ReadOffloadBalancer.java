package org.eafr.placement.gear.read;

import java.util.Objects;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ReadBalancer;

/**
 * SpringFS's read offloading (Xu et al., Sec. 3): a read goes to the holder that received the fewest requests recently
 * (reads and writes, {@link RecentLoad}), so that the low-numbered servers, which take most writes, serve fewer
 * reads and need less write offloading; ties go to the higher-numbered server. The one exception: a reader that holds
 * a copy itself reads it locally.
 *
 * <p>Worked example: holders 1, 7 and 12, with recent loads 30 (server 1 took the primary writes), 4 and 4: the read
 * goes to 12 (least loaded, and higher-numbered than 7 at a tie). If server 7 reads, it reads its own copy.
 *
 * <p>Thread-safe: the load tracker is.
 */
public final class ReadOffloadBalancer implements ReadBalancer {
  private final RecentLoad load;

  /** @param load the tracker the layout also records its writes in */
  public ReadOffloadBalancer(RecentLoad load) {
    this.load = Objects.requireNonNull(load, "load");
  }

  @Override
  public int choose(int[] holders, ActiveSet on) {
    return chooseFor(-1, holders, on);
  }

  /** As {@link #choose}, for a reader at chain position {@code reader} (-1 when the reader holds no data). */
  public int chooseFor(int reader, int[] holders, ActiveSet on) {
    int best = -1;
    double bestLoad = Double.POSITIVE_INFINITY;
    for (int holder : holders) {
      if (!on.contains(holder)) {
        continue;
      }
      if (holder == reader) {
        best = holder;
        break;
      }
      double recent = load.load(holder);
      if (recent < bestLoad || (recent == bestLoad && holder > best)) {
        best = holder;
        bestLoad = recent;
      }
    }
    if (best >= 0) {
      load.record(best);
    }
    return best;
  }
}
