package org.eafr.placement.power;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Integrates servers' power draw over time into energy, for EAFR's energy metric (Sec. 4: kWh per day). Each
 * {@link #record} says "from this time on, this server draws this many watts"; the draw holds until the server's next
 * sample (piecewise-constant power), so energy is counted up to each server's latest sample. To close a run, record
 * every server once more at the end time.
 *
 * <p>A mutable accumulator (one small entry per server), not thread-safe: the simulator feeds it from one thread.
 *
 * <p>Worked example: one server recorded at 115.5 W at time 0 and again at 24 h has used 115.5 W * 24 h =
 * 2772 Wh = 2.772 kWh; 300 servers at 110 W for one day use 300 * 110 W * 24 h = 792 kWh.
 */
public final class EnergyMeter {
  private static final double MILLIS_PER_HOUR = 3_600_000.0;
  private static final double MILLIS_PER_DAY = 24 * MILLIS_PER_HOUR;
  private static final double WATT_HOURS_PER_KWH = 1000.0;

  private final Map<String, Track> tracks = new LinkedHashMap<>();
  private long firstMillis = Long.MAX_VALUE;
  private long lastMillis = Long.MIN_VALUE;

  /**
   * From {@code timeMillis} on, {@code serverId} draws {@code watts}; the previous draw is counted up to now.
   *
   * @throws IllegalArgumentException when watts is negative or not finite, or time goes back for this server
   */
  public void record(String serverId, long timeMillis, double watts) {
    Objects.requireNonNull(serverId, "serverId");
    if (!(watts >= 0) || Double.isInfinite(watts)) {
      throw new IllegalArgumentException("watts " + watts + " for server " + serverId
          + " is not allowed: expected a finite number >= 0");
    }
    Track track = tracks.get(serverId);
    if (track == null) {
      tracks.put(serverId, new Track(timeMillis, watts));
    } else {
      track.advance(serverId, timeMillis, watts);
    }
    firstMillis = Math.min(firstMillis, timeMillis);
    lastMillis = Math.max(lastMillis, timeMillis);
  }

  /** Energy of all servers, in kWh. */
  public double kilowattHours() {
    double wattHours = 0;
    for (Track track : tracks.values()) {
      wattHours += track.wattHours;
    }
    return wattHours / WATT_HOURS_PER_KWH;
  }

  /** Energy of one server, in kWh; a server never recorded throws. */
  public double kilowattHours(String serverId) {
    Track track = tracks.get(serverId);
    if (track == null) {
      throw new IllegalArgumentException("server " + serverId + " is not allowed: it was never recorded; the meter"
          + " has " + tracks.size() + " servers");
    }
    return track.wattHours / WATT_HOURS_PER_KWH;
  }

  /** Energy of each server, in kWh, in the order servers were first recorded. */
  public Map<String, Double> kilowattHoursByServer() {
    Map<String, Double> byServer = new LinkedHashMap<>();
    for (Map.Entry<String, Track> entry : tracks.entrySet()) {
      byServer.put(entry.getKey(), entry.getValue().wattHours / WATT_HOURS_PER_KWH);
    }
    return Collections.unmodifiableMap(byServer);
  }

  /**
   * Energy per day, in kWh: the total divided by the metered span (earliest to latest sample of any server) in days.
   * EAFR reports this for a 2-day run.
   */
  public double kilowattHoursPerDay() {
    long span = meteredMillis();
    if (span <= 0) {
      throw new IllegalStateException("kWh per day needs samples spanning some time; the meter spans " + span
          + " ms");
    }
    return kilowattHours() / (span / MILLIS_PER_DAY);
  }

  /** From the earliest to the latest sample of any server, in milliseconds; 0 before any sample. */
  public long meteredMillis() {
    return tracks.isEmpty() ? 0 : lastMillis - firstMillis;
  }

  /** One server's latest sample and the energy it has used up to that sample. */
  private static final class Track {
    private long sinceMillis;
    private double watts;
    private double wattHours;

    private Track(long sinceMillis, double watts) {
      this.sinceMillis = sinceMillis;
      this.watts = watts;
    }

    private void advance(String serverId, long timeMillis, double newWatts) {
      if (timeMillis < sinceMillis) {
        throw new IllegalArgumentException("time " + timeMillis + " ms for server " + serverId
            + " is not allowed: expected at least its previous sample time " + sinceMillis + " ms");
      }
      wattHours += watts * ((timeMillis - sinceMillis) / MILLIS_PER_HOUR);
      sinceMillis = timeMillis;
      watts = newWatts;
    }
  }
}
