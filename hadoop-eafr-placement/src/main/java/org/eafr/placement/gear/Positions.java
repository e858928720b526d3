package org.eafr.placement.gear;

/** Small helpers over arrays of chain positions, which layouts fill a few at a time. */
public final class Positions {
  private Positions() {
  }

  /** Whether {@code value} is among the first {@code count} entries of {@code positions}. */
  public static boolean contains(int[] positions, int count, int value) {
    for (int i = 0; i < count; i++) {
      if (positions[i] == value) {
        return true;
      }
    }
    return false;
  }
}
