package org.eafr.placement.rate;

import java.util.Objects;

/**
 * What a receiver tells one sender (EAFR Alg. 2, line 11): a direction and a factor. Immutable.
 *
 * <p>The paper says a sender "reduces its transmission rate by beta_i times or increases it by delta_i times". We read
 * the factor as a fraction of the current rate: DOWN gives rate * (1 - beta_i), UP gives rate * (1 + delta_i). A
 * literal "divide by beta_i" would speed a sender up for beta_i &lt; 1, the opposite of what Eq. 14 is for.
 */
public final class RateAdjustment {
  private final String senderId;
  private final RateDirection direction;
  private final double factor;

  public RateAdjustment(String senderId, RateDirection direction, double factor) {
    this.senderId = Objects.requireNonNull(senderId, "senderId");
    this.direction = Objects.requireNonNull(direction, "direction");
    if (!(factor >= 0 && factor < 1)) {
      throw new IllegalArgumentException("sender " + senderId + ": factor " + factor
          + " is not allowed: expected a number in [0, 1)");
    }
    if (direction == RateDirection.HOLD && factor != 0) {
      throw new IllegalArgumentException("sender " + senderId + ": factor " + factor
          + " is not allowed with HOLD: expected 0");
    }
    this.factor = factor;
  }

  /** The sender this adjustment is for. */
  public String senderId() {
    return senderId;
  }

  public RateDirection direction() {
    return direction;
  }

  /** beta_i for DOWN, delta_i for UP, 0 for HOLD. */
  public double factor() {
    return factor;
  }

  /** The sender's new rate: rate * (1 - beta_i) for DOWN, rate * (1 + delta_i) for UP, unchanged for HOLD. */
  public double applyTo(double rateBytesPerSecond) {
    if (!(rateBytesPerSecond >= 0) || Double.isInfinite(rateBytesPerSecond)) {
      throw new IllegalArgumentException("rate " + rateBytesPerSecond
          + " bytes/s is not allowed: expected a finite number >= 0");
    }
    switch (direction) {
      case DOWN:
        return rateBytesPerSecond * (1 - factor);
      case UP:
        return rateBytesPerSecond * (1 + factor);
      default:
        return rateBytesPerSecond;
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RateAdjustment)) {
      return false;
    }
    RateAdjustment a = (RateAdjustment) o;
    return senderId.equals(a.senderId) && direction == a.direction && Double.compare(factor, a.factor) == 0;
  }

  @Override
  public int hashCode() {
    return Objects.hash(senderId, direction, factor);
  }

  @Override
  public String toString() {
    return senderId + " " + direction + " " + factor;
  }
}
