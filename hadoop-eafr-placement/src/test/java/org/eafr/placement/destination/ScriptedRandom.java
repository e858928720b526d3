package org.eafr.placement.destination;

import java.util.Random;

/** A Random that answers every draw with fixed values and counts the draws: for exact Eq. 12 tests. */
final class ScriptedRandom extends Random {
  private static final long serialVersionUID = 1L;

  private final double nextDouble;
  private final int nextInt;
  private int draws;

  private ScriptedRandom(double nextDouble, int nextInt) {
    this.nextDouble = nextDouble;
    this.nextInt = nextInt;
  }

  static ScriptedRandom doubleDraw(double value) {
    return new ScriptedRandom(value, 0);
  }

  static ScriptedRandom intDraw(int value) {
    return new ScriptedRandom(0, value);
  }

  @Override
  public double nextDouble() {
    draws++;
    return nextDouble;
  }

  @Override
  public int nextInt(int bound) {
    draws++;
    return nextInt;
  }

  int draws() {
    return draws;
  }
}
