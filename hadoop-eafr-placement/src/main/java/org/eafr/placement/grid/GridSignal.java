package org.eafr.placement.grid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A grid signal: carbon intensity (gCO2/kWh), its forecast where the source gives one, and the day-ahead price
 * (EUR/MWh) where it gives one, in slots of one fixed length (30 min for NESO, 15 min or 1 h for the German series).
 *
 * <p>Gaps: a slot the source lacks, or whose value is missing (NaN) or, for carbon, not above 0 (NESO's glitches of
 * 0.0), takes the last usable value before it (the first after it at the start of the series) and is reported as a
 * {@link GridGap}. A price may be negative (hours of surplus wind and sun), so only a missing price is a gap.
 *
 * <p>Forecast: what a scheduler may know at a given time about a slot. Carbon: the source's forecast where it has
 * one (NESO), else persistence, the value one day earlier (the same slot of yesterday is known; the first day of the
 * series, which has no yesterday, uses its own value). Price: the day-ahead price itself, which is fixed by the
 * auction the day before. ENERGY: 0 everywhere, so no slot is better than another.
 *
 * <p>Worked example ({@code GridSignalTest}): slots of 30 min from 00:00 with carbon 100, (missing), 0, 130 and no
 * price: slots 1 and 2 read 100 and are one gap of 2 slots from 00:30 to 01:30; carbon at 01:45 is 130.
 *
 * <p>Immutable.
 */
public final class GridSignal {
  private static final long DAY_MS = 86_400_000L;

  private final String name;
  private final long startMillis;
  private final long stepMillis;
  private final double[] carbon;
  private final double[] forecast;
  private final double[] price;
  private final List<GridGap> gaps;

  private GridSignal(String name, long startMillis, long stepMillis, double[] carbon, double[] forecast,
      double[] price, List<GridGap> gaps) {
    this.name = name;
    this.startMillis = startMillis;
    this.stepMillis = stepMillis;
    this.carbon = carbon;
    this.forecast = forecast;
    this.price = price;
    this.gaps = List.copyOf(gaps);
  }

  /**
   * The signal of {@code points} in slots of {@code stepMillis} from the earliest point to the latest; points off
   * the slot grid, or two in one slot, are refused naming the time.
   *
   * @throws IllegalArgumentException when there is no point with a usable carbon value or price, or a point is off
   *     the grid
   */
  public static GridSignal of(String name, long stepMillis, List<GridPoint> points) {
    if (stepMillis <= 0) {
      throw new IllegalArgumentException("slot length " + stepMillis + " ms is not allowed: expected > 0");
    }
    if (points.isEmpty()) {
      throw new IllegalArgumentException("grid signal " + name + " has no rows");
    }
    List<GridPoint> sorted = new ArrayList<>(points);
    sorted.sort(Comparator.comparingLong(GridPoint::startMillis));
    long start = sorted.get(0).startMillis();
    int slots = Math.toIntExact((sorted.get(sorted.size() - 1).startMillis() - start) / stepMillis + 1);
    double[] carbon = filled(slots);
    double[] forecast = filled(slots);
    double[] price = filled(slots);
    boolean[] seen = new boolean[slots];
    for (GridPoint p : sorted) {
      long offset = p.startMillis() - start;
      int slot = (int) (offset / stepMillis);
      if (offset % stepMillis != 0 || seen[slot]) {
        throw new IllegalArgumentException("grid signal " + name + ": the row at "
            + java.time.Instant.ofEpochMilli(p.startMillis()) + (seen[slot] ? " repeats a slot" : " is off the "
            + stepMillis / 60_000 + "-minute grid"));
      }
      seen[slot] = true;
      carbon[slot] = p.gco2PerKwh() > 0 ? p.gco2PerKwh() : Double.NaN;
      forecast[slot] = p.forecastGco2PerKwh() > 0 ? p.forecastGco2PerKwh() : Double.NaN;
      price[slot] = p.eurPerMwh();
    }
    List<GridGap> gaps = new ArrayList<>();
    boolean hasCarbon = fill("carbon", carbon, start, stepMillis, gaps);
    boolean hasForecast = fill("forecast", forecast, start, stepMillis, gaps);
    boolean hasPrice = fill("price", price, start, stepMillis, gaps);
    if (!hasCarbon && !hasPrice) {
      throw new IllegalArgumentException("grid signal " + name + " has neither a carbon intensity nor a price");
    }
    gaps.sort(Comparator.comparingLong(GridGap::fromMillis));
    return new GridSignal(name, start, stepMillis, hasCarbon ? carbon : null, hasForecast ? forecast : null,
        hasPrice ? price : null, gaps);
  }

  private static double[] filled(int slots) {
    double[] values = new double[slots];
    Arrays.fill(values, Double.NaN);
    return values;
  }

  /**
   * Fills NaN slots with the last value before them (the first after them at the start) and records each run as a
   * gap; a field with no value at all is left absent (false) and reports no gap.
   */
  private static boolean fill(String field, double[] values, long start, long step, List<GridGap> gaps) {
    int first = 0;
    while (first < values.length && Double.isNaN(values[first])) {
      first++;
    }
    if (first == values.length) {
      return false;
    }
    int runStart = -1;
    for (int i = 0; i <= values.length; i++) {
      boolean missing = i < values.length && Double.isNaN(values[i]);
      if (missing && runStart < 0) {
        runStart = i;
      } else if (!missing && runStart >= 0) {
        gaps.add(new GridGap(field, start + runStart * step, start + i * step, i - runStart));
        runStart = -1;
      }
      if (missing) {
        values[i] = i < first ? values[first] : values[i - 1];
      }
    }
    return true;
  }

  public String name() {
    return name;
  }

  public long startMillis() {
    return startMillis;
  }

  /** The end of the last slot (exclusive). */
  public long endMillis() {
    return startMillis + slots() * stepMillis;
  }

  public long stepMillis() {
    return stepMillis;
  }

  public int slots() {
    return (carbon != null ? carbon : price).length;
  }

  public boolean hasCarbon() {
    return carbon != null;
  }

  public boolean hasCarbonForecast() {
    return forecast != null;
  }

  public boolean hasPrice() {
    return price != null;
  }

  /** The runs of slots filled in, earliest first. */
  public List<GridGap> gaps() {
    return gaps;
  }

  /** Whether {@code millis} falls in a slot of the signal. */
  public boolean covers(long millis) {
    return millis >= startMillis && millis < endMillis();
  }

  /** The slot holding {@code millis}. */
  public int slot(long millis) {
    if (!covers(millis)) {
      throw new IllegalArgumentException("time " + java.time.Instant.ofEpochMilli(millis) + " is outside grid signal "
          + name + " (" + java.time.Instant.ofEpochMilli(startMillis) + " to "
          + java.time.Instant.ofEpochMilli(endMillis()) + ")");
    }
    return (int) ((millis - startMillis) / stepMillis);
  }

  /** The start of slot {@code slot}. */
  public long slotStart(int slot) {
    return startMillis + slot * stepMillis;
  }

  /** Carbon intensity at {@code millis} in gCO2/kWh; NaN when the source gives none. */
  public double carbonAt(long millis) {
    return carbon == null ? Double.NaN : carbon[slot(millis)];
  }

  /** Day-ahead price at {@code millis} in EUR/MWh; NaN when the source gives none. */
  public double priceAt(long millis) {
    return price == null ? Double.NaN : price[slot(millis)];
  }

  /** Whether the signal carries what {@code objective} needs (ENERGY needs nothing). */
  public boolean supports(Objective objective) {
    switch (objective) {
      case CARBON:
        return hasCarbon();
      case PRICE:
        return hasPrice();
      default:
        return true;
    }
  }

  /** The value {@code objective} costs in slot {@code slot}, as it turned out (0 for ENERGY). */
  public double actual(Objective objective, int slot) {
    switch (objective) {
      case CARBON:
        return carbon[slot];
      case PRICE:
        return price[slot];
      default:
        return 0;
    }
  }

  /** The value of slot {@code slot} as known ahead of it (class comment: forecast, persistence, day-ahead). */
  public double forecast(Objective objective, int slot) {
    if (objective == Objective.CARBON) {
      if (forecast != null) {
        return forecast[slot];
      }
      int yesterday = slot - (int) (DAY_MS / stepMillis);
      return carbon[yesterday >= 0 ? yesterday : slot];
    }
    return actual(objective, slot);
  }

  /**
   * The forecast of every slot from the one holding {@code fromMillis} to the one holding {@code untilMillis - 1},
   * clipped to the signal's end; at least the slot holding {@code fromMillis}.
   */
  public double[] forecast(Objective objective, long fromMillis, long untilMillis) {
    Objects.requireNonNull(objective, "objective");
    int first = slot(fromMillis);
    int last = untilMillis > fromMillis ? (int) Math.min(slots() - 1, (untilMillis - 1 - startMillis) / stepMillis)
        : first;
    double[] values = new double[Math.max(1, last - first + 1)];
    for (int i = 0; i < values.length; i++) {
      values[i] = forecast(objective, first + i);
    }
    return values;
  }

  @Override
  public String toString() {
    return "GridSignal[" + name + ", " + slots() + " slots of " + stepMillis / 60_000 + " min from "
        + java.time.Instant.ofEpochMilli(startMillis) + ", " + gaps.size() + " gap(s)]";
  }
}
