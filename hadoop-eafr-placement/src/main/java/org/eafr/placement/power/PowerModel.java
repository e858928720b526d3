package org.eafr.placement.power;

import java.util.Arrays;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.settings.EafrSettings;

/**
 * A server's power draw in watts (EAFR Sec. 3.2.1, Table 2): awake servers (hot and standby) draw what a table of
 * (CPU utilization, watts) points gives, linearly interpolated between points; sleeping (cold) servers draw a separate
 * sleep draw; failed servers draw nothing.
 *
 * <p>Utilization is clamped to [0, 1]: a server's h / c_c exceeds 1 when reads queue, but its CPU cannot run above
 * 100 %, so a queue costs no more power than full load.
 *
 * <p>Worked example (Table 2): a hot server at utilization 0.5 lies between 40 % (110 W) and 60 % (121 W), halfway,
 * so it draws 110 + (121 - 110) * 0.5 = 115.5 W; at 0.9 it draws 129 + (135 - 129) * 0.5 = 132 W; at 0.1,
 * 93.7 + (101 - 93.7) * 0.5 = 97.35 W.
 */
public final class PowerModel {
  /**
   * The default draw of a sleeping (cold) server, in watts. Table 2's 93.7 W at 0 % CPU is an idle but awake server;
   * a server in the sleep state (ACPI S3, or powered off with only its BMC running) draws on the order of 10 W. This is
   * our assumption, not the paper's, and it is configurable: a sleep draw of 93.7 W reproduces the paper's literal
   * reading of Table 2, where a cold server is the 0 % column.
   */
  public static final double DEFAULT_SLEEP_WATTS = 10.0;

  private static final double[] TABLE2_UTILIZATIONS = {0.0, 0.2, 0.4, 0.6, 0.8, 1.0};
  private static final double[] TABLE2_WATTS = {93.7, 101, 110, 121, 129, 135};

  private final double[] utilizations;
  private final double[] watts;
  private final double sleepWatts;

  /**
   * @param utilizations CPU utilizations, strictly increasing from 0.0 to 1.0
   * @param watts the draw at each utilization: positive, finite and non-decreasing
   * @param sleepWatts the draw of a sleeping server: from 0 to the draw at 0 % utilization
   */
  public PowerModel(double[] utilizations, double[] watts, double sleepWatts) {
    this.utilizations = utilizations.clone();
    this.watts = watts.clone();
    checkTable(this.utilizations, this.watts);
    if (!(sleepWatts >= 0 && sleepWatts <= this.watts[0])) {
      throw new IllegalArgumentException("sleepWatts " + sleepWatts + " is not allowed: expected a number in [0, "
          + this.watts[0] + "], as a sleeping server cannot draw more than an idle awake one");
    }
    this.sleepWatts = sleepWatts;
  }

  /** EAFR Table 2 (HP ProLiant ML110 G5) with the given sleep draw. */
  public static PowerModel eafrTable2(double sleepWatts) {
    return new PowerModel(TABLE2_UTILIZATIONS, TABLE2_WATTS, sleepWatts);
  }

  /**
   * EAFR Table 2's curve scaled to run from {@code idleWatts} at 0 % to {@code peakWatts} at 100 % utilization (each
   * point keeps its share of Table 2's idle-to-peak span), with {@code sleepWatts} asleep: a server whose idle and
   * peak draws are measured but whose curve is not. With Table 2's own 93.7 W and 135 W it is Table 2 exactly.
   *
   * <p>Worked example: idle 100 W, peak 200 W: at 0.2 utilization Table 2 has 101 W, (101 - 93.7) / (135 - 93.7) =
   * 7.3 / 41.3 of its span, so the server draws 100 + 100 * 7.3 / 41.3 = 117.6755 W.
   */
  public static PowerModel eafrTable2(double idleWatts, double peakWatts, double sleepWatts) {
    if (!(idleWatts > 0 && peakWatts >= idleWatts) || Double.isInfinite(peakWatts)) {
      throw new IllegalArgumentException("idle " + idleWatts + " W and peak " + peakWatts + " W are not allowed:"
          + " expected 0 < idle <= peak, both finite");
    }
    double idle = TABLE2_WATTS[0];
    double scale = (peakWatts - idleWatts) / (TABLE2_WATTS[TABLE2_WATTS.length - 1] - idle);
    double[] watts = new double[TABLE2_WATTS.length];
    for (int i = 0; i < watts.length; i++) {
      // Table 2's differences from its idle draw are exact in doubles (Sterbenz), so scale 1 reproduces Table 2.
      watts[i] = idleWatts + (TABLE2_WATTS[i] - idle) * scale;
    }
    return new PowerModel(TABLE2_UTILIZATIONS, watts, sleepWatts);
  }

  /** Table 2's curve with the idle, peak and sleep draws of {@code settings} ({@code eafr.energy.*}). */
  public static PowerModel of(EafrSettings settings) {
    return eafrTable2(settings.get(EafrSettings.ENERGY_IDLE_WATTS), settings.get(EafrSettings.ENERGY_PEAK_WATTS),
        settings.get(EafrSettings.ENERGY_OFF_WATTS));
  }

  /** EAFR Table 2 with {@link #DEFAULT_SLEEP_WATTS}. */
  public static PowerModel eafrTable2() {
    return eafrTable2(DEFAULT_SLEEP_WATTS);
  }

  /** The draw of a server of {@code role} at {@code utilization} (h / c_c; clamped to [0, 1]). */
  public double watts(ServerRole role, double utilization) {
    switch (role) {
      case HOT:
      case STANDBY:
        return awakeWatts(utilization);
      case COLD:
        return sleepWatts;
      case FAILED:
        return 0.0;
      default:
        throw new IllegalArgumentException("role " + role + " has no power draw");
    }
  }

  /** The draw of {@code server} now, from its role and its utilization h / c_c. */
  public double watts(Server server) {
    return watts(server.role(), server.utilization());
  }

  /** The draw of an awake server at {@code utilization}, interpolated in the table; clamped to [0, 1]. */
  public double awakeWatts(double utilization) {
    if (Double.isNaN(utilization)) {
      throw new IllegalArgumentException("utilization NaN is not allowed: expected a number, clamped to [0, 1]");
    }
    double u = Math.min(1.0, Math.max(0.0, utilization));
    int found = Arrays.binarySearch(utilizations, u);
    if (found >= 0) {
      return watts[found];
    }
    int upper = -found - 1;
    int lower = upper - 1;
    double fraction = (u - utilizations[lower]) / (utilizations[upper] - utilizations[lower]);
    return watts[lower] + (watts[upper] - watts[lower]) * fraction;
  }

  /** The draw of an awake server at 0 % utilization. */
  public double idleWatts() {
    return watts[0];
  }

  /** The draw of a sleeping (cold) server. */
  public double sleepWatts() {
    return sleepWatts;
  }

  private static void checkTable(double[] utilizations, double[] watts) {
    if (utilizations.length != watts.length || utilizations.length < 2) {
      throw new IllegalArgumentException("power table with " + utilizations.length + " utilizations and "
          + watts.length + " watts is not allowed: expected the same number of each, at least 2");
    }
    int last = utilizations.length - 1;
    if (utilizations[0] != 0.0 || utilizations[last] != 1.0) {
      throw new IllegalArgumentException("power table utilizations " + Arrays.toString(utilizations)
          + " are not allowed: expected the first to be 0.0 and the last 1.0");
    }
    for (int i = 0; i <= last; i++) {
      checkPoint(utilizations, watts, i);
    }
  }

  private static void checkPoint(double[] utilizations, double[] watts, int i) {
    if (!(watts[i] > 0) || Double.isInfinite(watts[i])) {
      throw new IllegalArgumentException("power table watts " + watts[i] + " at utilization " + utilizations[i]
          + " is not allowed: expected a finite number above 0");
    }
    if (i > 0 && !(utilizations[i] > utilizations[i - 1])) {
      throw new IllegalArgumentException("power table utilization " + utilizations[i] + " after "
          + utilizations[i - 1] + " is not allowed: expected utilizations strictly increasing");
    }
    if (i > 0 && watts[i] < watts[i - 1]) {
      throw new IllegalArgumentException("power table watts " + watts[i] + " at utilization " + utilizations[i]
          + " after " + watts[i - 1] + " is not allowed: expected watts non-decreasing with utilization");
    }
  }
}
