package org.eafr.placement.destination;

import java.util.Random;

/**
 * A Random that answers draws with scripted values and counts the draws: for exact Eq. 12 and sampling tests. Int
 * draws follow the script in order and repeat its last value once it is used up.
 */
final class ScriptedRandom extends Random {
  private static final long serialVersionUID = 1L;

  private final double nextDouble;
  private final int[] nextInts;
  private int draws;
  private int intDraws;

  private ScriptedRandom(double nextDouble, int... nextInts) {
    this.nextDouble = nextDouble;
    this.nextInts = nextInts.clone();
  }

  static ScriptedRandom doubleDraw(double value) {
    return new ScriptedRandom(value, 0);
  }

  static ScriptedRandom intDraw(int value) {
    return new ScriptedRandom(0, value);
  }

  static ScriptedRandom intDraws(int... values) {
    return new ScriptedRandom(0, values);
  }

  @Override
  public double nextDouble() {
    draws++;
    return nextDouble;
  }

  @Override
  public int nextInt(int bound) {
    draws++;
    return nextInts[Math.min(intDraws++, nextInts.length - 1)];
  }

  int draws() {
    return draws;
  }
}
