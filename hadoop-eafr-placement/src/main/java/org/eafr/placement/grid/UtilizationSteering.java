package org.eafr.placement.grid;

import java.util.Objects;
import org.eafr.placement.settings.InvalidSettingException;

/**
 * Moves the gear controller's target utilization u with the grid: up (fewer servers on, reads queue a little more)
 * in the dirtiest or dearest hours of the forecast horizon, down in the cleanest or cheapest, within
 * [u - {@code eafr.grid.utilization.lower}, u + {@code eafr.grid.utilization.raise}] (never above 1).
 *
 * <p>With f the forecast from now over the horizon, p = (f[0] - min f) / (max f - min f) (0.5 when flat), and the
 * target is u - lower + (lower + raise) x p. It never rises above u while the last period's mean read latency is
 * above {@code eafr.grid.read-latency-bound.ms}; energy only or no usable signal leaves u. u only scales the load the
 * controller must carry: the controller's availability floor and read floor still decide which gears may run, so no
 * target makes a block unavailable.
 *
 * <p>Worked example ({@code UtilizationSteeringTest}): u = 0.8, lower = raise = 0.1, a forecast of 250, 100, 300,
 * 200 gCO2/kWh from now: p = (250 - 100) / 200 = 0.75, target 0.7 + 0.2 x 0.75 = 0.85; with a latency bound of 50 ms
 * and a last mean of 60 ms, 0.8; when now is the cleanest slot (100), 0.7.
 */
public final class UtilizationSteering {
  private final GridSettings settings;
  private final DeferralScheduler scheduler;
  private final GridSignal signal;

  public UtilizationSteering(GridSettings settings, GridSignal signal) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.signal = signal;
    this.scheduler = new DeferralScheduler(settings, signal);
  }

  /**
   * The target utilization at {@code now} for the operator's {@code u} and down margin {@code h}, given the last
   * period's mean read latency (NaN when no read was served).
   *
   * @throws InvalidSettingException when u - lower would not stay above h (the controller needs u > h)
   */
  public double target(long now, double u, double h, double lastReadMeanMs) {
    double lower = settings.get(GridSettings.UTILIZATION_LOWER);
    double raise = settings.get(GridSettings.UTILIZATION_RAISE);
    if (u - lower <= h) {
      throw new InvalidSettingException(GridSettings.UTILIZATION_LOWER.key(), String.valueOf(lower),
          "at most u - h = " + (u - h) + " minus a little: the target utilization must stay above the down margin");
    }
    if ((lower == 0 && raise == 0) || !scheduler.usable(now) || settings.objective() == Objective.ENERGY) {
      return u;
    }
    double[] forecast = signal.forecast(settings.objective(), now, now + settings.get(GridSettings.HORIZON_MS));
    double min = forecast[0];
    double max = forecast[0];
    for (double f : forecast) {
      min = Math.min(min, f);
      max = Math.max(max, f);
    }
    double position = max > min ? (forecast[0] - min) / (max - min) : 0.5;
    double target = Math.min(1.0, u - lower + (lower + raise) * position);
    if (scheduler.overLatencyBound(lastReadMeanMs)) {
      target = Math.min(target, u);
    }
    return target;
  }
}
