package org.eafr.placement.rate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The rates one receiver grants its senders, kept by EAFR Alg. 2: the {@link ReceiveRateController} decides each
 * sender's adjustment (Eq. 13-15), this class remembers the senders oldest connection first and applies the
 * adjustments. Used by the DataNode's receive throttler.
 *
 * <p>Choices the paper leaves open, the same as the simulator's network model:
 * <ul>
 *   <li>u_b is the sum of the rates granted (what the receiver has committed to its senders), capped at c_b: under
 *       incast the measured goodput drops while the link is congested, and reading that as free room would raise the
 *       rates.</li>
 *   <li>A new sender gets what is left of the link, c_b minus the rates granted, and at least the floor.</li>
 *   <li>Every rate stays within [floor, c_b], floor = {@link #MIN_SHARE} x c_b / p' for p' senders: the floors together
 *       never exceed the link, and no sender starves.</li>
 * </ul>
 *
 * <p>Worked example (c_b = 1000, eta_l = 0.2, eta_h = 0.5): A alone is admitted at 1000; one adjustment gives R = 0,
 * A DOWN by 0.2 to 800. B is admitted at 1000 - 800 = 200. The next adjustment sees u_b = 1000, R = 0, gap 0.2:
 * A (oldest, rank 1 of 3) DOWN by 0.2/3 to 746.667, B DOWN by 0.4/3 to 173.333.
 *
 * <p>Not thread-safe: the caller serialises admissions, removals and adjustments.
 */
public final class ReceiverRates {
  /** Share of the link that all senders' floors add up to. */
  public static final double MIN_SHARE = 0.05;

  private final ReceiveRateController controller;
  private final Map<String, Double> rates = new LinkedHashMap<>();
  private double capacity;

  /**
   * @param controller decides each adjustment
   * @param capacityBytesPerSecond c_b, finite and &gt; 0
   */
  public ReceiverRates(ReceiveRateController controller, double capacityBytesPerSecond) {
    this.controller = Objects.requireNonNull(controller, "controller");
    this.capacity = requireCapacity(capacityBytesPerSecond);
  }

  /** Adds {@code sender} as the newest connection and returns its first rate; a known sender keeps its rate. */
  public double admit(String sender) {
    Objects.requireNonNull(sender, "sender");
    Double known = rates.get(sender);
    if (known != null) {
      return known;
    }
    double rate = Math.min(capacity, Math.max(capacity - granted(), floor(rates.size() + 1)));
    rates.put(sender, rate);
    return rate;
  }

  /** Forgets a sender whose transfer ended; unknown senders are ignored. */
  public void remove(String sender) {
    rates.remove(sender);
  }

  /**
   * One round of Alg. 2: the controller's adjustment for every sender, oldest first, each applied to its rate and
   * kept within [floor, c_b]. Empty when there are no senders.
   */
  public List<RateAdjustment> adjust() {
    if (rates.isEmpty()) {
      return List.of();
    }
    List<String> oldestFirst = new ArrayList<>(rates.keySet());
    List<RateAdjustment> adjustments = controller.adjust(capacity, Math.min(granted(), capacity), oldestFirst);
    double floor = floor(oldestFirst.size());
    for (RateAdjustment adjustment : adjustments) {
      double adjusted = adjustment.applyTo(rates.get(adjustment.senderId()));
      rates.put(adjustment.senderId(), Math.min(capacity, Math.max(floor, adjusted)));
    }
    return adjustments;
  }

  /** Changes c_b (e.g. an operator's new cap); rates above it are lowered to it. */
  public void capacity(double capacityBytesPerSecond) {
    this.capacity = requireCapacity(capacityBytesPerSecond);
    rates.replaceAll((sender, rate) -> Math.min(rate, capacity));
  }

  public double capacity() {
    return capacity;
  }

  /** The rate granted to {@code sender}, or 0 when it is not known. */
  public double rate(String sender) {
    Double rate = rates.get(sender);
    return rate == null ? 0 : rate;
  }

  /** Sender to rate, oldest connection first; a copy. */
  public Map<String, Double> ratesOldestFirst() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(rates));
  }

  public int senders() {
    return rates.size();
  }

  /** The sum of the rates granted. */
  public double granted() {
    double sum = 0;
    for (double rate : rates.values()) {
      sum += rate;
    }
    return sum;
  }

  private double floor(int senders) {
    return MIN_SHARE * capacity / Math.max(1, senders);
  }

  private static double requireCapacity(double capacityBytesPerSecond) {
    if (!(capacityBytesPerSecond > 0) || Double.isInfinite(capacityBytesPerSecond)) {
      throw new IllegalArgumentException("link capacity c_b = " + capacityBytesPerSecond
          + " bytes/s is not allowed: expected a finite number > 0");
    }
    return capacityBytesPerSecond;
  }

  @Override
  public String toString() {
    return "ReceiverRates[c_b=" + capacity + ", " + rates + "]";
  }
}
