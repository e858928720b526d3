package org.eafr.sim.stats;

import java.util.Arrays;

/** A growable array of doubles, without boxing. */
public final class DoubleList {
  private double[] values = new double[64];
  private int size;

  public void add(double value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = value;
  }

  public int size() {
    return size;
  }

  public double get(int i) {
    return values[i];
  }

  public double percentile(double p) {
    return Percentiles.of(values, size, p);
  }

  public double mean() {
    double sum = 0;
    for (int i = 0; i < size; i++) {
      sum += values[i];
    }
    return size == 0 ? 0 : sum / size;
  }
}
