package org.eafr.placement.rate;

/**
 * What one sender did in the last adjustment period, as the receiver measured it: the bytes per second it delivered,
 * and whether the rate it was granted held it back (its packets had to wait). A sender that was not held back sent
 * less than it was allowed (it was idle, finishing, or limited by TCP or its disk): the share it did not use can go to
 * the others. Immutable.
 */
public final class SenderUse {
  private final double bytesPerSecond;
  private final boolean heldBack;

  /**
   * @param bytesPerSecond bytes per second delivered in the period; finite and &gt;= 0
   * @param heldBack whether the granted rate made the sender wait at least once in the period
   */
  public SenderUse(double bytesPerSecond, boolean heldBack) {
    if (!(bytesPerSecond >= 0) || Double.isInfinite(bytesPerSecond)) {
      throw new IllegalArgumentException("used rate " + bytesPerSecond
          + " bytes/s is not allowed: expected a finite number >= 0");
    }
    this.bytesPerSecond = bytesPerSecond;
    this.heldBack = heldBack;
  }

  /** A sender that waited for its rate. */
  public static SenderUse heldBack(double bytesPerSecond) {
    return new SenderUse(bytesPerSecond, true);
  }

  /** A sender that sent less than it was allowed. */
  public static SenderUse notHeldBack(double bytesPerSecond) {
    return new SenderUse(bytesPerSecond, false);
  }

  public double bytesPerSecond() {
    return bytesPerSecond;
  }

  public boolean isHeldBack() {
    return heldBack;
  }

  @Override
  public String toString() {
    return Math.round(bytesPerSecond) + (heldBack ? " B/s held back" : " B/s");
  }
}
