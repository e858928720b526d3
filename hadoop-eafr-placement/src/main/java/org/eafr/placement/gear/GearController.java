package org.eafr.placement.gear;

import java.time.Clock;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.eafr.placement.settings.EafrSettings;

/**
 * Chooses the gear to run from the measured load (SpringFS Sec. 5.2: servers needed = load / one server's throughput;
 * Accordion Sec. 3.3's gear controller), with hysteresis, a minimum dwell time, an optional forecast and an
 * availability floor.
 *
 * <ol>
 *   <li>Demand d = the load's {@link LoadSample#serversNeeded servers needed}; with a forecast of D days, d is raised
 *       to the busiest load seen in the same hour of the day on the last D days (so a morning ramp is met before it
 *       arrives).</li>
 *   <li>Up: if the current gear's servers on (minus failed ones) times the target utilization u are below d, shift
 *       at once to the lowest gear whose servers x u carry d. Shifting up is never delayed: a late gear-up costs
 *       latency, a late gear-down only watts.</li>
 *   <li>Down: the lowest gear whose servers x (u - h) carry d, h the down margin (hysteresis: a load that just fits a
 *       gear does not send it down and then straight back up), and only when the minimum dwell time has passed since
 *       the last shift. So the controller never shifts down within the dwell time of any shift: it cannot flap.</li>
 *   <li>Lowest gear (0 unless given): no load takes the controller below it (EAFR on gears' read floor).</li>
 *   <li>Floor: the target gear is raised until the {@link GearFloor} finds no block without a live replica on the
 *       servers that stay on (once the cleanup work is done). A gear never leaves a block without a live replica.</li>
 * </ol>
 *
 * <p>The servers a gear keeps on are its gear set plus the recovery groups of failed servers (Rabbit Sec. 3.5), minus
 * the failed servers. The decision names the servers to wake and those that may sleep once their cleanup work is done.
 *
 * <p>Worked example (u = 0.8, h = 0.1, dwell 10 min; gears of 5, 10, 15 and 20 servers): a load needing 9.5 servers
 * in gear 1 (10 servers, 8 carried at u) shifts up to gear 2 (12 carried). Ten minutes later a load of 6 servers: gear
 * 1 carries 10 x 0.7 = 7 >= 6, so shift down to gear 1. A load of 7.5 in gear 2 holds (gear 1 would carry only 7 at u -
 * h).
 *
 * <p>Thread-safe: {@link #decide} and {@link #manual} are synchronized (a NameNode runs them from one monitor thread,
 * an admin command may race with it). The clock is injected.
 */
public final class GearController {
  private static final long HOUR_MS = 3_600_000L;
  private static final long DAY_MS = 24 * HOUR_MS;

  private final GearedLayout layout;
  private final LoadSample perServer;
  private double targetUtilization;
  private final double downMargin;
  private final long minDwellMillis;
  private final int forecastDays;
  private final Clock clock;
  private final int lowestGear;
  /** Busiest demand per (day mod forecastDays + 1, hour); NaN when not seen. Row index = day % rows. */
  private final double[][] hourlyPeak;
  private final long[] rowDay;

  private int gear;
  private long lastShiftMillis;

  /**
   * @param perServer one server's throughput, the denominators of servers needed
   * @param targetUtilization u in (0, 1]: the share of a gear's servers the load may keep busy
   * @param downMargin h in [0, u): a lower gear must carry the load at u - h
   * @param minDwellMillis no gear-down within this time of the last shift
   * @param forecastDays D >= 0: earlier days whose same hour the forecast looks at; 0 disables the forecast
   * @param initialGear the gear running now
   */
  public GearController(GearedLayout layout, LoadSample perServer, double targetUtilization, double downMargin,
      long minDwellMillis, int forecastDays, int initialGear, Clock clock) {
    this(layout, perServer, targetUtilization, downMargin, minDwellMillis, forecastDays, initialGear, 0, clock);
  }

  /**
   * A controller that never decides a gear below {@code lowestGear} (EAFR on gears' read floor,
   * {@link org.eafr.placement.gear.eafr.ReadFloor}); an operator's {@link #manual} gear may still go below it.
   *
   * @param lowestGear in [0, {@code initialGear}]
   */
  public GearController(GearedLayout layout, LoadSample perServer, double targetUtilization, double downMargin,
      long minDwellMillis, int forecastDays, int initialGear, int lowestGear, Clock clock) {
    this.layout = Objects.requireNonNull(layout, "layout");
    this.perServer = Objects.requireNonNull(perServer, "perServer");
    if (perServer.serversNeeded(new LoadSample(1, 1, 1, 1, 1)) == 0) {
      throw new IllegalArgumentException("per-server throughput " + perServer
          + " is not allowed: expected at least one capacity above 0");
    }
    if (!(targetUtilization > 0 && targetUtilization <= 1)) {
      throw new IllegalArgumentException("target utilization " + targetUtilization
          + " is not allowed: expected a number in (0, 1]");
    }
    if (!(downMargin >= 0 && downMargin < targetUtilization)) {
      throw new IllegalArgumentException("down margin " + downMargin + " is not allowed: expected a number in [0, "
          + targetUtilization + ")");
    }
    if (minDwellMillis < 0 || forecastDays < 0) {
      throw new IllegalArgumentException("min dwell " + minDwellMillis + " ms and forecast days " + forecastDays
          + " are not allowed: expected both >= 0");
    }
    this.targetUtilization = targetUtilization;
    this.downMargin = downMargin;
    this.minDwellMillis = minDwellMillis;
    this.forecastDays = forecastDays;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.hourlyPeak = new double[forecastDays + 1][24];
    this.rowDay = new long[forecastDays + 1];
    for (double[] row : hourlyPeak) {
      Arrays.fill(row, Double.NaN);
    }
    Arrays.fill(rowDay, Long.MIN_VALUE);
    this.gear = GearedLayout.checkGear(layout, initialGear);
    if (lowestGear < 0 || lowestGear > initialGear) {
      throw new IllegalArgumentException("lowest gear " + lowestGear + " is not allowed: expected 0.." + initialGear
          + " (the initial gear)");
    }
    this.lowestGear = lowestGear;
    this.lastShiftMillis = clock.millis();
  }

  /** A controller with u, h, the dwell time and the forecast days of {@code settings}. */
  public static GearController from(EafrSettings settings, GearedLayout layout, LoadSample perServer, int initialGear,
      Clock clock) {
    return from(settings, layout, perServer, initialGear, 0, clock);
  }

  /** As {@link #from(EafrSettings, GearedLayout, LoadSample, int, Clock)}, never below {@code lowestGear}. */
  public static GearController from(EafrSettings settings, GearedLayout layout, LoadSample perServer, int initialGear,
      int lowestGear, Clock clock) {
    return new GearController(layout, perServer, settings.get(EafrSettings.GEAR_TARGET_UTILIZATION),
        settings.get(EafrSettings.GEAR_DOWN_MARGIN), settings.get(EafrSettings.GEAR_MIN_DWELL_MS),
        settings.get(EafrSettings.GEAR_FORECAST_DAYS), initialGear, lowestGear, clock);
  }

  /** The target utilization u the next decision uses. */
  public synchronized double targetUtilization() {
    return targetUtilization;
  }

  /**
   * Moves u for the next decisions (the grid's steering, {@code org.eafr.placement.grid.UtilizationSteering}); checked
   * as in the constructor: in (0, 1] and above the down margin. The availability floor and the lowest gear still bound
   * every decision.
   */
  public synchronized void targetUtilization(double u) {
    if (!(u > downMargin && u <= 1)) {
      throw new IllegalArgumentException("target utilization " + u + " is not allowed: expected a number in ("
          + downMargin + ", 1] (above the down margin)");
    }
    this.targetUtilization = u;
  }

  /** The gear of the last decision. */
  public synchronized int gear() {
    return gear;
  }

  /**
   * Decides the gear for {@code load}, with {@code on} the servers on now and {@code failed} the failed ones; the
   * floor is asked about each gear considered. Records the shift.
   */
  public synchronized GearDecision decide(LoadSample load, ActiveSet on, ActiveSet failed, GearFloor floor) {
    long now = clock.millis();
    double demand = remember(now, load.serversNeeded(perServer));
    int loadGear = Math.max(lowestGear, lowestGearCarrying(demand, targetUtilization, failed));
    GearReason reason;
    int target;
    if (loadGear > gear) {
      target = loadGear;
      reason = GearReason.UP_FOR_LOAD;
    } else {
      int downGear = Math.min(gear, Math.max(lowestGear,
          lowestGearCarrying(demand, targetUtilization - downMargin, failed)));
      if (downGear < gear && now - lastShiftMillis >= minDwellMillis) {
        target = downGear;
        reason = GearReason.DOWN_FOR_LOAD;
      } else {
        target = gear;
        reason = downGear < gear ? GearReason.HELD_BY_DWELL : GearReason.HOLD;
      }
    }
    UnavailableBlock floorBlock = null;
    for (Optional<UnavailableBlock> gap = floor.firstUnavailable(staysOn(target, failed));
        gap.isPresent() && target < layout.maximumGear();
        gap = floor.firstUnavailable(staysOn(target, failed))) {
      floorBlock = gap.get();
      target++;
      reason = GearReason.RAISED_BY_AVAILABILITY;
    }
    return commit(now, target, reason, demand, on, failed, floor, floorBlock);
  }

  /**
   * An operator's gear: refused (nothing changes) when it would leave a block without a live replica, naming the
   * block; otherwise the decision to reach it. A gear that lets no server of {@code on} sleep (a gear up, or the gear
   * running) is never refused: it cannot make a block less available, and a block that already lacks a live replica
   * (its holders failed or sleep) is what waking more servers may cure.
   */
  public synchronized GearDecision manual(int requested, ActiveSet on, ActiveSet failed, GearFloor floor) {
    GearedLayout.checkGear(layout, requested);
    ActiveSet stays = staysOn(requested, failed);
    Optional<UnavailableBlock> gap = on.minus(stays).isEmpty() ? Optional.empty() : floor.firstUnavailable(stays);
    if (gap.isPresent()) {
      throw new IllegalStateException("gear " + requested + " refused: " + gap.get().message());
    }
    return commit(clock.millis(), requested, GearReason.MANUAL, Double.NaN, on, failed, floor, null);
  }

  /** The servers gear {@code target} keeps on: its set plus the recovery groups of failed servers, minus failed. */
  public ActiveSet staysOn(int target, ActiveSet failed) {
    ActiveSet result = layout.serversOn(target);
    for (int f = failed.next(0); f >= 0; f = failed.next(f + 1)) {
      result = result.union(layout.recoveryGroup(f));
    }
    return result.minus(failed);
  }

  private GearDecision commit(long now, int target, GearReason reason, double demand, ActiveSet on, ActiveSet failed,
      GearFloor floor, UnavailableBlock floorBlock) {
    ActiveSet stays = staysOn(target, failed);
    ActiveSet maySleep = on.minus(stays);
    CleanupWork cleanup = maySleep.isEmpty() ? CleanupWork.none() : floor.cleanupFor(stays);
    GearDecision decision = new GearDecision(gear, target, reason, demand, stays, stays.minus(on), maySleep, cleanup,
        floorBlock);
    if (target != gear) {
      gear = target;
      lastShiftMillis = now;
    }
    return decision;
  }

  private int lowestGearCarrying(double demand, double utilization, ActiveSet failed) {
    for (int g = 0; g < layout.maximumGear(); g++) {
      if (layout.serversOn(g).minus(failed).size() * utilization >= demand) {
        return g;
      }
    }
    return layout.maximumGear();
  }

  /** Records {@code needed} for this hour and returns it raised to the same hour's peak on earlier days. */
  private double remember(long now, double needed) {
    if (forecastDays == 0) {
      return needed;
    }
    long day = Math.floorDiv(now, DAY_MS);
    int hour = (int) (Math.floorMod(now, DAY_MS) / HOUR_MS);
    int row = (int) Math.floorMod(day, (long) hourlyPeak.length);
    if (rowDay[row] != day) {
      Arrays.fill(hourlyPeak[row], Double.NaN);
      rowDay[row] = day;
    }
    double forecast = 0;
    for (int r = 0; r < hourlyPeak.length; r++) {
      if (r != row && rowDay[r] >= day - forecastDays && !Double.isNaN(hourlyPeak[r][hour])) {
        forecast = Math.max(forecast, hourlyPeak[r][hour]);
      }
    }
    double seen = hourlyPeak[row][hour];
    hourlyPeak[row][hour] = Double.isNaN(seen) ? needed : Math.max(seen, needed);
    return Math.max(needed, forecast);
  }
}
