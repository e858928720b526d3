package org.eafr.namenode.power;

import java.util.Locale;
import java.util.Objects;

/**
 * What a host's BMC says of the host's draw: a measured reading in watts, or why it offers none. "Not offered" is an
 * answer from the BMC (no DCMI, no Redfish power resource, a driver without a meter); a failed call is a
 * {@link PowerException} instead, so that a BMC that is down is counted as an error, not taken for one without a
 * meter.
 */
public final class PowerReading {
  private final Double watts;
  private final String notOffered;
  private final boolean lasting;

  private PowerReading(Double watts, String notOffered, boolean lasting) {
    this.watts = watts;
    this.notOffered = notOffered;
    this.lasting = lasting;
  }

  /** A measured draw; refused unless finite and not negative. */
  public static PowerReading watts(double watts) {
    if (!Double.isFinite(watts) || watts < 0) {
      throw new IllegalArgumentException("a measured draw must be a finite number of watts >= 0, not " + watts);
    }
    return new PowerReading(watts, null, false);
  }

  /**
   * The BMC (or driver) has no meter: it answered the request with an error of its own ({@code why}); not asked again
   * until its driver is rebuilt (inventory reload, NameNode restart).
   */
  public static PowerReading notOffered(String why) {
    return new PowerReading(null, Objects.requireNonNull(why, "why"), true);
  }

  /** The BMC has a meter but no reading now (e.g. DCMI's power reading state "deactivated"): asked again next time. */
  public static PowerReading unavailable(String why) {
    return new PowerReading(null, Objects.requireNonNull(why, "why"), false);
  }

  /** Whether a missing reading is the BMC's lasting answer (no meter), so it is not asked again. */
  public boolean lasting() {
    return lasting;
  }

  public boolean measured() {
    return watts != null;
  }

  /** The measured watts; only when {@link #measured()}. */
  public double wattsValue() {
    if (watts == null) {
      throw new IllegalStateException("no measured reading: " + notOffered);
    }
    return watts;
  }

  /** Why there is no reading, or null when measured. */
  public String notOfferedReason() {
    return notOffered;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof PowerReading && Objects.equals(watts, ((PowerReading) other).watts)
        && Objects.equals(notOffered, ((PowerReading) other).notOffered) && lasting == ((PowerReading) other).lasting;
  }

  @Override
  public int hashCode() {
    return Objects.hash(watts, notOffered, lasting);
  }

  @Override
  public String toString() {
    return measured() ? String.format(Locale.ROOT, "%.1f W measured", watts)
        : (lasting ? "not offered: " : "unavailable: ") + notOffered;
  }
}
