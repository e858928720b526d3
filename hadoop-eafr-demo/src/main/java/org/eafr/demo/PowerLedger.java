package org.eafr.demo;

import org.eafr.placement.power.EnergyMeter;
import org.eafr.placement.power.PowerModel;

/**
 * The demo's energy account, from the core's power model ({@link PowerModel#eafrTable2()}, EAFR Table 2, 10 W asleep)
 * over each DataNode host's real on-time and utilization (h / c_c from the NameNode), integrated by the core's
 * {@link EnergyMeter}; and beside it the same run as if every host had stayed on (an off host counted awake and idle).
 *
 * <p>Worked example: two hosts for one hour, one on at utilization 0 (93.7 W), one off (10 W): 0.1037 kWh used;
 * with every node on 2 x 93.7 W = 0.1874 kWh; ratio 0.553.
 */
final class PowerLedger {
  private final PowerModel model = PowerModel.eafrTable2();
  private final EnergyMeter used = new EnergyMeter();
  private final EnergyMeter allOn = new EnergyMeter();
  private final String[] ids;
  private final long[] onMillis;
  private long lastMillis = -1;
  private boolean[] lastOn;
  private double wattsNow;
  private double wattsAllOnNow;

  PowerLedger(String[] ids) {
    this.ids = ids.clone();
    this.onMillis = new long[ids.length];
  }

  /** From {@code timeMillis} on, host i is {@code on[i]} at {@code utilization[i]}. */
  void record(long timeMillis, boolean[] on, double[] utilization) {
    if (lastOn != null) {
      for (int i = 0; i < ids.length; i++) {
        onMillis[i] += lastOn[i] ? timeMillis - lastMillis : 0;
      }
    }
    wattsNow = 0;
    wattsAllOnNow = 0;
    for (int i = 0; i < ids.length; i++) {
      double awake = model.awakeWatts(on[i] ? utilization[i] : 0);
      double watts = on[i] ? awake : model.sleepWatts();
      used.record(ids[i], timeMillis, watts);
      allOn.record(ids[i], timeMillis, awake);
      wattsNow += watts;
      wattsAllOnNow += awake;
    }
    lastMillis = timeMillis;
    lastOn = on.clone();
  }

  double wattsNow() {
    return wattsNow;
  }

  double wattsAllOnNow() {
    return wattsAllOnNow;
  }

  double kilowattHours() {
    return used.kilowattHours();
  }

  double kilowattHoursAllOn() {
    return allOn.kilowattHours();
  }

  /** kWh used over kWh with every node on; NaN before any time passed. */
  double ratio() {
    double all = allOn.kilowattHours();
    return all > 0 ? used.kilowattHours() / all : Double.NaN;
  }

  /** Host i's time on so far, in milliseconds. */
  long onMillis(int i) {
    return onMillis[i];
  }
}
