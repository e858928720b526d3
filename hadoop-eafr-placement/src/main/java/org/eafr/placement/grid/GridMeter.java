package org.eafr.placement.grid;

/**
 * Adds up energy against a grid signal: kWh, grams of CO2 (kWh x gCO2/kWh of the slot it was drawn in) and euros
 * (kWh / 1000 x EUR/MWh). Energy drawn outside the signal, or in a signal without carbon or price, is counted in
 * {@link #kwh()} and in {@link #uncoveredKwh()}, never priced with a guess.
 *
 * <p>Worked example ({@code GridMeterTest}): 2 kWh in a slot of 150 gCO2/kWh and 80 EUR/MWh add 300 g and 0.16 EUR;
 * 1 kWh in a slot of -20 EUR/MWh (surplus) then takes 0.02 EUR off.
 *
 * <p>Not thread-safe: one meter per run or per NameNode monitor.
 */
public final class GridMeter {
  private final GridSignal signal;
  private double kwh;
  private double grams;
  private double euros;
  private double uncovered;

  /** @param signal the signal, or null (everything uncovered) */
  public GridMeter(GridSignal signal) {
    this.signal = signal;
  }

  /** Adds {@code kwh} drawn at {@code millis}. */
  public void add(long millis, double kwh) {
    this.kwh += kwh;
    if (signal == null || !signal.covers(millis)) {
      uncovered += kwh;
      return;
    }
    double carbon = signal.carbonAt(millis);
    double price = signal.priceAt(millis);
    if (!Double.isNaN(carbon)) {
      grams += kwh * carbon;
    }
    if (!Double.isNaN(price)) {
      euros += kwh / 1000 * price;
    }
  }

  public double kwh() {
    return kwh;
  }

  /** Grams of CO2; NaN when the signal has no carbon intensity. */
  public double gramsCo2() {
    return signal == null || !signal.hasCarbon() ? Double.NaN : grams;
  }

  /** Euros; NaN when the signal has no price. */
  public double euros() {
    return signal == null || !signal.hasPrice() ? Double.NaN : euros;
  }

  public double uncoveredKwh() {
    return uncovered;
  }
}
