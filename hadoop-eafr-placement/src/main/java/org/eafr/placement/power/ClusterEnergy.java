package org.eafr.placement.power;

import java.time.Clock;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;

/**
 * A cluster's power draw now and its energy since the first sample, beside the same cluster with every server kept
 * on: the always-on baseline power-proportional layouts are measured against (Rabbit Sec. 5, SpringFS Sec. 5.2), in
 * EAFR's energy unit (Sec. 4, kWh). Each {@link #sample} gives every server's role and utilization; each draws what
 * the {@link PowerModel} says. In the baseline a sleeping (cold) server is awake and idle, and every other server draws
 * as it does now (the same work on the same servers; a failed server draws nothing either way), so the saving is what
 * sleeping servers save: idle minus sleep draw, per sleeping server, over time. Draws hold until the next sample
 * (piecewise constant, integrated by {@link EnergyMeter}); time comes from the injected {@link Clock}.
 *
 * <p>Thread-safe: samples and reads are serialized.
 *
 * <p>Worked example (Table 2, 10 W asleep): 4 servers awake at utilization 0, 0.1, 0.5 and 1.0 draw 93.7 + 97.35 +
 * 115.5 + 135 = 441.55 W and 8 asleep draw 80 W: 521.55 W now; all on, the 8 would draw 8 * 93.7 = 749.6 W instead,
 * 1191.15 W in all. Held for 2 hours: 1.0431 kWh used, 2.3823 kWh all on, 1.3392 kWh saved (8 * 83.7 W * 2 h).
 *
 * <p>Where a server's draw was measured (its BMC's reading), the measurement replaces the model's figure for it, now
 * and in the all-on baseline (the same server doing the same work), except that a sleeping server counts as the
 * model's idle draw there. Worked example: an awake server at utilization 0 measured at 120 W, a second the model
 * draws at 93.7 W, a sleeping one measured at 8 W: 221.7 W now, of which 128 W measured; all on 120 + 93.7 + 93.7 =
 * 307.4 W. Held for 1 hour: 0.2217 kWh used, 0.128 kWh of it measured, 0.0857 kWh saved (93.7 - 8 W for 1 h).
 */
public final class ClusterEnergy {
  private static final String USED = "used";
  private static final String ALL_ON = "all-on";
  private static final String MEASURED = "measured";

  private final PowerModel model;
  private final Clock clock;
  private final EnergyMeter meter = new EnergyMeter();
  private Sample last;

  public ClusterEnergy(PowerModel model, Clock clock) {
    this.model = Objects.requireNonNull(model, "model");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.last = new Sample(clock.millis(), 0, 0, 0, 0, 0, 0, 0);
  }

  /** Records the draw of {@code servers} from now on, all from the model; returns it with the energy up to now. */
  public Sample sample(Collection<Server> servers) {
    return sample(servers, Map.of());
  }

  /**
   * Records the draw of {@code servers} from now on, each server whose id {@code measuredWatts} holds drawing that
   * (its BMC's reading) and the others what the model says; returns it with the energy up to now.
   */
  public synchronized Sample sample(Collection<Server> servers, Map<String, Double> measuredWatts) {
    long now = Math.max(clock.millis(), last.timeMillis); // a clock stepped back must not undo energy
    double watts = 0;
    double allOnWatts = 0;
    double measured = 0;
    for (Server server : servers) {
      Double reading = measuredWatts.get(server.id());
      double draw = reading == null ? model.watts(server) : reading;
      watts += draw;
      measured += reading == null ? 0 : reading;
      allOnWatts += server.role() == ServerRole.COLD ? model.idleWatts() : draw;
    }
    meter.record(USED, now, watts);
    meter.record(ALL_ON, now, allOnWatts);
    meter.record(MEASURED, now, measured);
    last = new Sample(now, servers.size(), watts, allOnWatts, meter.kilowattHours(USED), meter.kilowattHours(ALL_ON),
        measured, meter.kilowattHours(MEASURED));
    return last;
  }

  /** The latest sample (before the first: nothing drawn, at construction time). */
  public synchronized Sample last() {
    return last;
  }

  /** What {@code server} would draw if it were kept on: awake and idle when it sleeps, else as now. */
  public double allOnWatts(Server server) {
    return server.role() == ServerRole.COLD ? model.idleWatts() : model.watts(server);
  }

  public PowerModel model() {
    return model;
  }

  /** One sample: the draw from its time on, and the energy up to its time. */
  public static final class Sample {
    private final long timeMillis;
    private final int servers;
    private final double watts;
    private final double allOnWatts;
    private final double kilowattHours;
    private final double allOnKilowattHours;
    private final double measuredWatts;
    private final double measuredKilowattHours;

    Sample(long timeMillis, int servers, double watts, double allOnWatts, double kilowattHours,
        double allOnKilowattHours, double measuredWatts, double measuredKilowattHours) {
      this.measuredWatts = measuredWatts;
      this.measuredKilowattHours = measuredKilowattHours;
      this.timeMillis = timeMillis;
      this.servers = servers;
      this.watts = watts;
      this.allOnWatts = allOnWatts;
      this.kilowattHours = kilowattHours;
      this.allOnKilowattHours = allOnKilowattHours;
    }

    public long timeMillis() {
      return timeMillis;
    }

    public int servers() {
      return servers;
    }

    /** The cluster's draw now, in watts. */
    public double watts() {
      return watts;
    }

    /** The draw with every server kept on, in watts. */
    public double allOnWatts() {
      return allOnWatts;
    }

    /** Energy used since the first sample, in kWh. */
    public double kilowattHours() {
      return kilowattHours;
    }

    /** Energy the cluster would have used with every server on, in kWh. */
    public double allOnKilowattHours() {
      return allOnKilowattHours;
    }

    /** The part of {@link #watts} that was measured (BMC readings); the rest is the model's. */
    public double measuredWatts() {
      return measuredWatts;
    }

    /** The part of {@link #kilowattHours} integrated from measured draws; the rest is the model's. */
    public double measuredKilowattHours() {
      return measuredKilowattHours;
    }

    /** Energy saved against every server on, in kWh. */
    public double savedKilowattHours() {
      return allOnKilowattHours - kilowattHours;
    }

    @Override
    public String toString() {
      return String.format(java.util.Locale.ROOT, "%d servers: %.1f W now (%.1f W all on); %.4f kWh used, %.4f kWh"
          + " saved", servers, watts, allOnWatts, kilowattHours, savedKilowattHours());
    }
  }
}
