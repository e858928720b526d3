package org.eafr.placement.destination;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.settings.EafrSettings;

/**
 * When a copy would finish at each destination, for links of different speeds ({@code eafr.destination.finish-ratio}
 * r): (bytes already scheduled to the destination and not yet received, {@link TransferBacklog}, plus the copy) / V,
 * V being the destination's expected speed (EAFR Eq. 9, {@link TransferSpeeds}). Candidates expected to finish later
 * than r times the soonest are cut, so neither Eq. 10-12's roulette ({@link DestinationSelector}) nor Alg. 4's round
 * robin (the recovery planner) sends a copy down a link that would take several times longer, while copies scheduled
 * in one burst still spread over the fast links as their queues grow. r = 0 cuts nothing (the papers as written).
 *
 * <p>Worked example (r = 2, a 16 MB copy, MB = 10^6 bytes): A at 12.5 MB/s with 16 MB queued finishes in 2.56 s, B at
 * 12.5 MB/s with nothing queued in 1.28 s, C and D at 3.125 MB/s with nothing queued in 5.12 s; C and D exceed
 * 2 x 1.28 s and are cut, A (exactly 2 x 1.28 s) stays.
 */
public final class FinishTimes {
  /** Cuts nothing. */
  public static final FinishTimes OFF = new FinishTimes(0, (source, destination) -> 1, TransferBacklog.NONE);

  private final double ratio;
  private final TransferSpeeds speeds;
  private final TransferBacklog backlog;

  /**
   * @param ratio r: 0 (cut nothing) or a finite number of at least 1
   * @param speeds each destination's expected speed, bytes per second
   * @param backlog bytes already scheduled to each destination
   */
  public FinishTimes(double ratio, TransferSpeeds speeds, TransferBacklog backlog) {
    if (!(ratio == 0 || ratio >= 1 && ratio < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException("finishRatio (r) = " + ratio + " is not allowed: expected 0 or a finite"
          + " number >= 1");
    }
    this.ratio = ratio;
    this.speeds = Objects.requireNonNull(speeds, "speeds");
    this.backlog = Objects.requireNonNull(backlog, "backlog");
  }

  /** r from {@code eafr.destination.finish-ratio}. */
  public static FinishTimes from(EafrSettings settings, TransferSpeeds speeds, TransferBacklog backlog) {
    return new FinishTimes(settings.finishRatio(), speeds, backlog);
  }

  /** Whether candidates are ranked and cut by finish time (r &gt;= 1). */
  public boolean enabled() {
    return ratio > 0;
  }

  /** Expected seconds for a copy of {@code bytes} (at least 1) from {@code sourceId} to finish; infinite at speed 0. */
  public double seconds(String sourceId, Server destination, long bytes) {
    double speed = speeds.expectedSpeed(sourceId, destination.id());
    if (!(speed >= 0)) {
      throw new IllegalArgumentException("expected speed " + speed + " B/s from " + sourceId + " to "
          + destination.id() + " is not allowed: expected a number >= 0");
    }
    double queued = (double) backlog.queuedBytes(destination.id()) + Math.max(1, bytes);
    return speed > 0 ? queued / speed : Double.POSITIVE_INFINITY;
  }

  /**
   * The candidates expected to finish within r times the soonest, in their order: all of them when cutting is off or
   * none can finish.
   */
  public List<Server> inTime(String sourceId, long bytes, List<Server> candidates) {
    if (!enabled() || candidates.isEmpty()) {
      return candidates;
    }
    double[] finish = new double[candidates.size()];
    double soonest = Double.POSITIVE_INFINITY;
    for (int i = 0; i < finish.length; i++) {
      finish[i] = seconds(sourceId, candidates.get(i), bytes);
      soonest = Math.min(soonest, finish[i]);
    }
    if (soonest == Double.POSITIVE_INFINITY) {
      return candidates;
    }
    List<Server> inTime = new ArrayList<>(candidates.size());
    for (int i = 0; i < finish.length; i++) {
      if (finish[i] <= ratio * soonest) {
        inTime.add(candidates.get(i));
      }
    }
    return inTime;
  }
}
