package org.eafr.placement.gear.shift;

/**
 * The gear shift's knobs, checked when built: the moves reflection may have in flight (Accordion Sec. 3.4's batches;
 * {@code eafr.gear.reflection.blocks-per-step} on a NameNode), and how long a power command or a move may go without
 * a reply before the shift stops waiting for it (a hung BMC, a lost transfer) and looks again, and how long a gear-down
 * may wait on its leaving DataNodes without progress towards IN_MAINTENANCE before it is cancelled
 * ({@link MaintenanceWait}).
 */
public final class ShiftSettings {
  private final int movesPerStep;
  private final long powerTimeoutMillis;
  private final long moveTimeoutMillis;
  private final long maintenanceStallMillis;

  /** The knobs with the move timeout bounding a maintenance wait without progress as well. */
  public ShiftSettings(int movesPerStep, long powerTimeoutMillis, long moveTimeoutMillis) {
    this(movesPerStep, powerTimeoutMillis, moveTimeoutMillis, moveTimeoutMillis);
  }

  public ShiftSettings(int movesPerStep, long powerTimeoutMillis, long moveTimeoutMillis,
      long maintenanceStallMillis) {
    if (movesPerStep < 1) {
      throw new IllegalArgumentException("moves per step " + movesPerStep + " is not allowed: expected >= 1");
    }
    if (powerTimeoutMillis < 1 || moveTimeoutMillis < 1 || maintenanceStallMillis < 1) {
      throw new IllegalArgumentException("power timeout " + powerTimeoutMillis + " ms, move timeout "
          + moveTimeoutMillis + " ms and maintenance stall " + maintenanceStallMillis
          + " ms are not allowed: expected each >= 1");
    }
    this.movesPerStep = movesPerStep;
    this.powerTimeoutMillis = powerTimeoutMillis;
    this.moveTimeoutMillis = moveTimeoutMillis;
    this.maintenanceStallMillis = maintenanceStallMillis;
  }

  public int movesPerStep() {
    return movesPerStep;
  }

  public long powerTimeoutMillis() {
    return powerTimeoutMillis;
  }

  public long moveTimeoutMillis() {
    return moveTimeoutMillis;
  }

  public long maintenanceStallMillis() {
    return maintenanceStallMillis;
  }
}
