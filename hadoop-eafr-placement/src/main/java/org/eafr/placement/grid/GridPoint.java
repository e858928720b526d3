package org.eafr.placement.grid;

/**
 * One slot of a grid signal as a source gives it: its start (UTC epoch milliseconds), the carbon intensity in gCO2/kWh
 * (measured or estimated), the source's forecast of it, and the price in EUR/MWh. A value the source does not give, or
 * gives as missing, is NaN. Immutable.
 */
public final class GridPoint {
  private final long startMillis;
  private final double gco2PerKwh;
  private final double forecastGco2PerKwh;
  private final double eurPerMwh;

  public GridPoint(long startMillis, double gco2PerKwh, double forecastGco2PerKwh, double eurPerMwh) {
    this.startMillis = startMillis;
    this.gco2PerKwh = gco2PerKwh;
    this.forecastGco2PerKwh = forecastGco2PerKwh;
    this.eurPerMwh = eurPerMwh;
  }

  public long startMillis() {
    return startMillis;
  }

  public double gco2PerKwh() {
    return gco2PerKwh;
  }

  public double forecastGco2PerKwh() {
    return forecastGco2PerKwh;
  }

  public double eurPerMwh() {
    return eurPerMwh;
  }
}
