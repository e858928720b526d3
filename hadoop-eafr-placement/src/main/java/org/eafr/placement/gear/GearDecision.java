package org.eafr.placement.gear;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One decision of the {@link GearController}: the gear to run now, why, the servers to wake, and the servers that may
 * sleep once their cleanup work is done (and, for a NameNode, once HDFS shows them IN_MAINTENANCE and the
 * availability check passes once more). Immutable.
 */
public final class GearDecision {
  private final int previousGear;
  private final int targetGear;
  private final GearReason reason;
  private final double serversNeeded;
  private final ActiveSet staysOn;
  private final ActiveSet wake;
  private final ActiveSet maySleep;
  private final CleanupWork cleanup;
  private final UnavailableBlock floorBlock;

  GearDecision(int previousGear, int targetGear, GearReason reason, double serversNeeded, ActiveSet staysOn,
      ActiveSet wake, ActiveSet maySleep, CleanupWork cleanup, UnavailableBlock floorBlock) {
    this.previousGear = previousGear;
    this.targetGear = targetGear;
    this.reason = Objects.requireNonNull(reason, "reason");
    this.serversNeeded = serversNeeded;
    this.staysOn = staysOn;
    this.wake = wake;
    this.maySleep = maySleep;
    this.cleanup = cleanup;
    this.floorBlock = floorBlock;
  }

  public int previousGear() {
    return previousGear;
  }

  public int targetGear() {
    return targetGear;
  }

  public boolean shifts() {
    return previousGear != targetGear;
  }

  public GearReason reason() {
    return reason;
  }

  /** The servers the measured (or forecast) load keeps busy, before the target utilization; NaN for a manual shift. */
  public double serversNeeded() {
    return serversNeeded;
  }

  /** {@link #serversNeeded()} to two decimals, or "n/a" where no load sample gave one (a manual shift). */
  public String serversNeededText() {
    return Double.isFinite(serversNeeded) ? String.format(Locale.ROOT, "%.2f", serversNeeded) : "n/a";
  }

  /** The servers the target gear keeps on: its gear set, plus recovery groups of failed servers, minus failed. */
  public ActiveSet staysOn() {
    return staysOn;
  }

  /** Servers to power on now. */
  public ActiveSet wake() {
    return wake;
  }

  /** Servers that may sleep once {@link #cleanup()}'s moves from them are done. */
  public ActiveSet maySleep() {
    return maySleep;
  }

  public CleanupWork cleanup() {
    return cleanup;
  }

  /** The block that raised the target above the load's gear, when the availability floor did. */
  public Optional<UnavailableBlock> floorBlock() {
    return Optional.ofNullable(floorBlock);
  }

  /**
   * One line for the log: the shift, the reason and the numbers behind it; "n/a servers needed" when no load was
   * measured (an operator's gear has none: it printed "NaN servers needed").
   */
  public String describe() {
    return describe(reason.name());
  }

  /**
   * The same line with {@code origin} in place of the reason, for a caller that knows who asked: a NameNode checks the
   * gear its autopilot chose as an operator's ({@link GearController#manual}), and logs it as
   * {@code gear 2 -> 0 (AUTO, DOWN_FOR_LOAD): ...}, not as MANUAL.
   */
  public String describe(String origin) {
    return String.format(Locale.ROOT, "gear %d -> %d (%s): %s servers needed, %d stay on, wake %d, may sleep %d"
        + " after %d block moves%s", previousGear, targetGear, origin, serversNeededText(), staysOn.size(), wake.size(),
        maySleep.size(),
        cleanup.blocks(), floorBlock == null ? "" : "; floor: " + floorBlock.message());
  }

  @Override
  public String toString() {
    return describe();
  }
}
