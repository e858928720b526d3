package org.eafr.placement.rate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.eafr.placement.settings.EafrSettings;

/**
 * Receive-side rate adjustment against TCP incast (EAFR, Lin and Shen, Sec. 3.4, Alg. 2, Eq. 13-15).
 *
 * <p>The receiver measures its free share of link bandwidth R = (c_b - u_b) / c_b (Eq. 13). Below eta_l it slows its
 * p' senders down by beta_i = i / sum_{k=1..p'} k * (eta_l - R) (Eq. 14); above eta_h it speeds them up by
 * delta_i = i / sum_{k=1..p'} k * (R - eta_h) (Eq. 15); in [eta_l, eta_h] (both ends included) it holds. The factors
 * of all senders add up to the gap (eta_l - R or R - eta_h). A measured u_b above c_b (estimator noise) is clamped to
 * R = 0, a fully used link, rather than rejected.
 *
 * <p>Priority: the paper gives older connections priority but hands the largest factor to the largest rank i. We make
 * the priority hold in both directions: the OLDEST connection is cut LEAST when congested (rank i = 1 for DOWN) and
 * raised MOST when there is room (rank i = p' for UP), so long-running transfers finish first.
 *
 * <p>Worked example (eta_l = 0.2, eta_h = 0.5, senders A oldest, B, C newest, sum k = 6): c_b = 1000 MB/s,
 * u_b = 900 MB/s gives R = 0.1, gap 0.1: beta_A = 1/6 * 0.1 = 0.016667, beta_B = 0.033333, beta_C = 0.05. With
 * u_b = 200 MB/s, R = 0.8, gap 0.3: delta_A = 3/6 * 0.3 = 0.15, delta_B = 0.1, delta_C = 0.05.
 *
 * <p>O(p') per call. Stateless and thread-safe.
 */
public final class ReceiveRateController {
  private final double etaLow;
  private final double etaHigh;

  /**
   * @param etaLow eta_l: below this free share of the link, senders slow down
   * @param etaHigh eta_h: above this free share of the link, senders speed up
   */
  public ReceiveRateController(double etaLow, double etaHigh) {
    if (!(0 < etaLow && etaLow < etaHigh && etaHigh < 1)) {
      throw new IllegalArgumentException("eta_l = " + etaLow + " and eta_h = " + etaHigh
          + " are not allowed: expected 0 < eta_l < eta_h < 1");
    }
    this.etaLow = etaLow;
    this.etaHigh = etaHigh;
  }

  /** Thresholds from eafr.rate.low-threshold and eafr.rate.high-threshold. */
  public static ReceiveRateController from(EafrSettings settings) {
    return new ReceiveRateController(settings.rateLowThreshold(), settings.rateHighThreshold());
  }

  /**
   * Eq. 13: R = (c_b - u_b) / c_b, clamped to 0 when u_b exceeds c_b.
   *
   * @param capacityBytesPerSecond c_b, the receive link's capacity; finite and &gt; 0
   * @param usedBytesPerSecond u_b, the incoming traffic measured on it; finite and &gt;= 0
   */
  public double availableShare(double capacityBytesPerSecond, double usedBytesPerSecond) {
    if (!(capacityBytesPerSecond > 0) || Double.isInfinite(capacityBytesPerSecond)) {
      throw new IllegalArgumentException("link capacity c_b = " + capacityBytesPerSecond
          + " bytes/s is not allowed: expected a finite number > 0");
    }
    if (!(usedBytesPerSecond >= 0) || Double.isInfinite(usedBytesPerSecond)) {
      throw new IllegalArgumentException("used bandwidth u_b = " + usedBytesPerSecond
          + " bytes/s is not allowed: expected a finite number >= 0");
    }
    return Math.max(0, (capacityBytesPerSecond - usedBytesPerSecond) / capacityBytesPerSecond);
  }

  /**
   * One adjustment per sender, in the given order (Alg. 2).
   *
   * @param capacityBytesPerSecond c_b, finite and &gt; 0
   * @param usedBytesPerSecond u_b, finite and &gt;= 0
   * @param sendersOldestFirst ids of the senders with a connection to this receiver, oldest connection first; no
   *     repeats; may be empty (then the result is empty)
   * @return an unmodifiable list, one entry per sender in the same order
   */
  public List<RateAdjustment> adjust(double capacityBytesPerSecond, double usedBytesPerSecond,
      List<String> sendersOldestFirst) {
    double share = availableShare(capacityBytesPerSecond, usedBytesPerSecond);
    requireDistinct(sendersOldestFirst);
    if (share < etaLow) {
      return spread(sendersOldestFirst, RateDirection.DOWN, etaLow - share);
    }
    if (share > etaHigh) {
      return spread(sendersOldestFirst, RateDirection.UP, share - etaHigh);
    }
    return hold(sendersOldestFirst);
  }

  /** Eq. 14/15: splits {@code gap} over the senders in proportion to their rank i. */
  private static List<RateAdjustment> spread(List<String> sendersOldestFirst, RateDirection direction, double gap) {
    int count = sendersOldestFirst.size();
    double rankSum = count * (count + 1L) / 2.0;
    List<RateAdjustment> adjustments = new ArrayList<>(count);
    for (int age = 0; age < count; age++) {
      // DOWN: the oldest (age 0) has rank 1, the smallest cut. UP: the oldest has rank p', the largest raise.
      int rank = direction == RateDirection.DOWN ? age + 1 : count - age;
      adjustments.add(new RateAdjustment(sendersOldestFirst.get(age), direction, rank / rankSum * gap));
    }
    return Collections.unmodifiableList(adjustments);
  }

  private static List<RateAdjustment> hold(List<String> senders) {
    List<RateAdjustment> adjustments = new ArrayList<>(senders.size());
    for (String sender : senders) {
      adjustments.add(new RateAdjustment(sender, RateDirection.HOLD, 0));
    }
    return Collections.unmodifiableList(adjustments);
  }

  private static void requireDistinct(List<String> senders) {
    Set<String> seen = new HashSet<>();
    for (String sender : Objects.requireNonNull(senders, "sendersOldestFirst")) {
      if (!seen.add(Objects.requireNonNull(sender, "sender id"))) {
        throw new IllegalArgumentException("sender " + sender + " is not allowed twice in " + senders
            + ": expected each connection once, oldest first");
      }
    }
  }

  @Override
  public String toString() {
    return "ReceiveRateController[eta_l=" + etaLow + ", eta_h=" + etaHigh + "]";
  }
}
