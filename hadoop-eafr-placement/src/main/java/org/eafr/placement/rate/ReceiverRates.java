package org.eafr.placement.rate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The rates one receiver grants its senders, kept by EAFR Alg. 2 and work-conserving: the {@link
 * ReceiveRateController} decides each sender's adjustment (Eq. 13-15), this class remembers the senders oldest
 * connection first, applies the adjustments, and splits the whole link among the senders. Used by the DataNode's
 * receive throttler.
 *
 * <p>Each sender has a <em>weight</em>, its rate as Alg. 2 moves it, and an <em>allowed rate</em>, what it may send
 * now. Whenever there are senders, the allowed rates add up to c_b:
 * <ul>
 *   <li>Every sender has a floor, {@link #MIN_SHARE} x c_b / p' for p' senders (the floors together are 5% of the
 *       link, and no sender starves); the rest of c_b is shared in proportion to the weights, so the older connection
 *       keeps the larger share as Alg. 2 intends.</li>
 *   <li>A sender that its rate has not held back for {@link #IDLE_PERIODS} periods in a row (idle, or limited by TCP
 *       or its source) gets at most {@link #HEADROOM} times the most it delivered in one of them, at least the
 *       floor; the share it does not use goes to the senders that were held back, in proportion to their weights.
 *       When nobody is held back the whole rest is shared by weight (the rates only cap, they reserve nothing).</li>
 *   <li>A sender that ends frees its share at once: the others' rates are split again.</li>
 * </ul>
 *
 * <p>Choices the paper leaves open:
 * <ul>
 *   <li>u_b (Eq. 13) is the bytes per second the senders delivered in the last period, as the paper's bandwidth
 *       estimator measures it. With the allowed rates always summing to c_b, Alg. 2 no longer decides how much of
 *       the link is used, only how it is divided: DOWN (Eq. 14, the link full) cuts the newest connections most, UP
 *       (Eq. 15, room left) raises the oldest most; after either the weights are scaled back to sum to c_b, so older
 *       connections gain share round by round. In [eta_l, eta_h] the shares hold.</li>
 *   <li>A new sender's weight is what is left of c_b (the share of a sender that ended since the last round), at
 *       least the floor: it is the newest connection, last in Alg. 2's order, and gains share as older ones end.</li>
 * </ul>
 *
 * <p>Worked example (c_b = 1000, eta_l = 0.2, eta_h = 0.5; A oldest, B, C newest with weights 500, 300, 200). In
 * each of two periods A delivers 450 and B 250, both held back, C 50, not held back: u_b = 750, R = 0.25, in
 * [eta_l, eta_h], so the weights hold and the floors plus shares by weight stay 491.6667, 301.6667, 206.6667. In the
 * third period A delivers 500 and B 300, both held back; C again 50, its third period in a row not held back, so it
 * is capped now. Eq. 13: u_b = 850,
 * R = 0.15 &lt; eta_l, gap 0.05, sum k = 6. Eq. 14: beta_A = 1/6 x 0.05, beta_B = 2/6 x 0.05, beta_C = 3/6 x 0.05, so
 * the weights become 495.8333, 295, 195 and, scaled to sum to 1000, 502.9586, 299.2392, 197.8022. Floors are
 * 50/3 = 16.6667 each, which leaves 950 to share by weight; C's share, 950 x 0.197802 = 187.9, is more than the
 * 2 x 50 = 100 - 16.6667 it may add to its floor, so C gets 100 and A and B share the remaining 866.6667 by weight:
 * A 16.6667 + 866.6667 x 502.9586 / 802.1978 = 560.0457, B 339.9543. Allowed: A 560.0457, B 339.9543, C 100, sum
 * 1000.
 *
 * <p>Not thread-safe: the caller serialises admissions, removals and adjustments.
 */
public final class ReceiverRates {
  /** Share of the link that all senders' floors add up to. */
  public static final double MIN_SHARE = 0.05;
  /**
   * The smallest weight, as a share of c_b. Weights are not held at the floor: repeated cuts keep the newer
   * connections in age order however small their weights get (the floor is in the allowed rates), so that when the
   * oldest ends, the next oldest takes its share. This bound only keeps the scaling finite.
   */
  static final double MIN_WEIGHT_SHARE = 1e-12;
  /**
   * A sender whose rate did not hold it back for this many periods in a row is capped; fewer are a hiccup (a
   * scheduling delay, a lost packet), not a sender that needs less.
   */
  public static final int IDLE_PERIODS = 3;
  /** A capped sender may use this many times the most it delivered in one of those periods. */
  public static final double HEADROOM = 2;

  private final ReceiveRateController controller;
  private final Map<String, Double> weights = new LinkedHashMap<>(); // oldest first
  private final Map<String, Idle> idle = new HashMap<>(); // senders not held back in their last period(s)
  private final Map<String, Double> allowed = new LinkedHashMap<>(); // oldest first
  private double capacity;

  /**
   * @param controller decides each adjustment
   * @param capacityBytesPerSecond c_b, finite and &gt; 0
   */
  public ReceiverRates(ReceiveRateController controller, double capacityBytesPerSecond) {
    this.controller = Objects.requireNonNull(controller, "controller");
    this.capacity = requireCapacity(capacityBytesPerSecond);
  }

  /**
   * Adds {@code sender} as the newest connection, splits the link again and returns the sender's allowed rate; a
   * known sender keeps its rate.
   */
  public double admit(String sender) {
    return admit(sender, Math.max(capacity - sum(weights), floor(weights.size() + 1)));
  }

  /** Admits {@code sender} with the given weight (the worked examples of the tests start from chosen weights). */
  double admit(String sender, double weight) {
    Objects.requireNonNull(sender, "sender");
    if (!weights.containsKey(sender)) {
      weights.put(sender, weight);
      split();
    }
    return allowed.get(sender);
  }

  /** Forgets a sender whose transfer ended and gives its share to the others; unknown senders are ignored. */
  public void remove(String sender) {
    if (weights.remove(sender) != null) {
      idle.remove(sender);
      split();
    }
  }

  /**
   * One round of Alg. 2 with what each sender did in the last period: the controller's adjustment for every sender,
   * oldest first, applied to its weight; then the link is split again. A sender missing from {@code use} counts as
   * held back (it may use its full share). Empty when there are no senders.
   *
   * @param use per sender id, what it delivered in the last period
   */
  public List<RateAdjustment> adjust(Map<String, SenderUse> use) {
    Objects.requireNonNull(use, "use");
    if (weights.isEmpty()) {
      return List.of();
    }
    double used = 0;
    for (String sender : weights.keySet()) {
      SenderUse u = use.get(sender);
      used += u == null ? 0 : u.bytesPerSecond();
      if (u == null || u.isHeldBack()) {
        idle.remove(sender);
      } else {
        idle.computeIfAbsent(sender, s -> new Idle()).add(u.bytesPerSecond());
      }
    }
    List<String> oldestFirst = new ArrayList<>(weights.keySet());
    List<RateAdjustment> adjustments = controller.adjust(capacity, Math.min(used, capacity), oldestFirst);
    double least = MIN_WEIGHT_SHARE * capacity;
    for (RateAdjustment adjustment : adjustments) {
      double adjusted = adjustment.applyTo(weights.get(adjustment.senderId()));
      weights.put(adjustment.senderId(), Math.min(capacity, Math.max(least, adjusted)));
    }
    scale(weights, capacity / sum(weights));
    split();
    return adjustments;
  }

  /** Changes c_b (e.g. an operator's new cap): the weights are scaled to it and the link is split again. */
  public void capacity(double capacityBytesPerSecond) {
    double old = capacity;
    this.capacity = requireCapacity(capacityBytesPerSecond);
    scale(weights, capacity / old);
    split();
  }

  public double capacity() {
    return capacity;
  }

  /** The rate {@code sender} is allowed now, or 0 when it is not known. */
  public double rate(String sender) {
    Double rate = allowed.get(sender);
    return rate == null ? 0 : rate;
  }

  /** Sender to allowed rate, oldest connection first; a copy. */
  public Map<String, Double> ratesOldestFirst() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(allowed));
  }

  /** Sender to weight (its rate as Alg. 2 moves it), oldest connection first; a copy. */
  public Map<String, Double> weightsOldestFirst() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(weights));
  }

  public int senders() {
    return weights.size();
  }

  /** The sum of the allowed rates: c_b whenever there are senders, 0 otherwise. */
  public double granted() {
    return sum(allowed);
  }

  /**
   * Splits c_b: the floor to each sender, the rest by weight, up to the cap of each sender that was not held back
   * (water-filling: a sender whose share would pass its cap gets the cap, and the others share what is left).
   */
  private void split() {
    allowed.clear();
    if (weights.isEmpty()) {
      return;
    }
    double floor = floor(weights.size());
    Map<String, Double> extra = new LinkedHashMap<>();
    Map<String, Double> open = new LinkedHashMap<>(weights);
    double rest = capacity - floor * weights.size();
    boolean capped = true;
    while (capped && !open.isEmpty()) {
      capped = false;
      double perWeight = perWeight(rest, open);
      for (Map.Entry<String, Double> sender : new ArrayList<>(open.entrySet())) {
        Idle streak = idle.get(sender.getKey());
        double room = (streak == null ? Double.POSITIVE_INFINITY : streak.cap()) - floor;
        if (perWeight * sender.getValue() > room) {
          double given = Math.max(0, room);
          extra.put(sender.getKey(), given);
          rest -= given;
          open.remove(sender.getKey());
          capped = true;
        }
      }
    }
    // Nobody left who wants more (everyone was capped): the rest is shared by weight all the same.
    Map<String, Double> takers = open.isEmpty() ? weights : open;
    double perWeight = perWeight(rest, takers);
    for (Map.Entry<String, Double> sender : weights.entrySet()) {
      double share = takers.containsKey(sender.getKey()) ? perWeight * takers.get(sender.getKey()) : 0;
      allowed.put(sender.getKey(), floor + extra.getOrDefault(sender.getKey(), 0.0) + share);
    }
  }

  /** A sender's run of periods in which its rate did not hold it back, and the most it delivered in one. */
  private static final class Idle {
    private int periods;
    private double peak;

    void add(double bytesPerSecond) {
      periods++;
      peak = Math.max(peak, bytesPerSecond);
    }

    /** What the sender may use: unlimited until the run is {@link #IDLE_PERIODS} long, then HEADROOM x peak. */
    double cap() {
      return periods < IDLE_PERIODS ? Double.POSITIVE_INFINITY : HEADROOM * peak;
    }
  }

  /** Bytes per second for each unit of weight when {@code rest} is shared by {@code among}'s weights. */
  private static double perWeight(double rest, Map<String, Double> among) {
    double total = sum(among);
    return total > 0 ? rest / total : 0;
  }

  private double floor(int senders) {
    return MIN_SHARE * capacity / Math.max(1, senders);
  }

  private static double sum(Map<String, Double> values) {
    double sum = 0;
    for (double value : values.values()) {
      sum += value;
    }
    return sum;
  }

  private static void scale(Map<String, Double> values, double factor) {
    values.replaceAll((sender, value) -> value * factor);
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
    return "ReceiverRates[c_b=" + capacity + ", allowed " + allowed + ", weights " + weights + "]";
  }
}
