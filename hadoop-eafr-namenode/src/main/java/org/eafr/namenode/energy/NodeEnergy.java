package org.eafr.namenode.energy;

import org.eafr.namenode.power.DataNodePowerState;

/**
 * One DataNode in an energy sample: its power state, gear group, the utilization the power model saw, the model's draw
 * and, where its host's BMC measured one, its share of the measured draw.
 */
public final class NodeEnergy {
  private final String id;
  private final DataNodePowerState powerState;
  private final Integer gearGroup;
  private final double utilization;
  private final double watts;
  private final Double measuredWatts;

  NodeEnergy(String id, DataNodePowerState powerState, Integer gearGroup, double utilization, double watts,
      Double measuredWatts) {
    this.measuredWatts = measuredWatts;
    this.id = id;
    this.powerState = powerState;
    this.gearGroup = gearGroup;
    this.utilization = utilization;
    this.watts = watts;
  }

  /** IP:transfer port. */
  public String id() {
    return id;
  }

  public DataNodePowerState powerState() {
    return powerState;
  }

  /** The gear that switches it on (0: a primary, k: gear group k), or null outside the expansion chain or gears. */
  public Integer gearGroup() {
    return gearGroup;
  }

  /** h / c_c clamped to [0, 1] while it heartbeats, else 0: what the power model was given. */
  public double utilization() {
    return utilization;
  }

  /** Its draw in the power model, in watts. */
  public double watts() {
    return watts;
  }

  /**
   * Its share of its host's measured draw (the BMC's reading split evenly over the host's DataNodes), in watts, or
   * null when there is no fresh reading (the model's {@link #watts} is counted then).
   */
  public Double measuredWatts() {
    return measuredWatts;
  }
}
