package org.eafr.placement.grid;

import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.power.PowerModel;

/**
 * The energy of moving data between two servers: a copy keeps its source and its destination busy for bytes / link
 * seconds, each at the power model's span from idle to full utilization (EAFR Table 2: 135 - 93.7 = 41.3 W). This is
 * the energy the background data movement itself costs, apart from the servers' idle draw, which the gear (not the
 * move) decides.
 *
 * <p>Worked example ({@code MoveEnergyTest}): Table 2, a 1 Gbit/s link (125,000,000 bytes/s), 1 GB moved: 8 s at
 * each end x 41.3 W = 660.8 J = 0.00018356 kWh (rounded).
 */
public final class MoveEnergy {
  private final double spanWatts;
  private final double linkBytesPerSecond;

  public MoveEnergy(double spanWatts, double linkBytesPerSecond) {
    if (!(spanWatts >= 0) || !(linkBytesPerSecond > 0) || Double.isInfinite(spanWatts + linkBytesPerSecond)) {
      throw new IllegalArgumentException("span " + spanWatts + " W and link " + linkBytesPerSecond
          + " bytes/s are not allowed: expected a finite span >= 0 and a finite link > 0");
    }
    this.spanWatts = spanWatts;
    this.linkBytesPerSecond = linkBytesPerSecond;
  }

  /** The span of {@code power} (a hot server at full utilization less idle) over a link of the given speed. */
  public static MoveEnergy of(PowerModel power, double linkBytesPerSecond) {
    return new MoveEnergy(power.watts(ServerRole.HOT, 1.0) - power.watts(ServerRole.HOT, 0.0), linkBytesPerSecond);
  }

  public double joules(long bytes) {
    return 2 * spanWatts * bytes / linkBytesPerSecond;
  }

  public double kwh(long bytes) {
    return joules(bytes) / 3.6e6;
  }
}
