package org.eafr.placement.grid;

import org.eafr.placement.settings.Range;
import org.eafr.placement.settings.Setting;

/**
 * The kinds of background data movement a geared cluster may run later, each with the longest it may wait
 * ({@code eafr.grid.defer.<kind>.ms}). Cleanup before servers sleep is not among them: it decides whether a block stays
 * available, so it never waits for the grid.
 */
public enum WorkKind {
  /** Copies written while their home slept, reflected home after a gear-up (Accordion); also due at a gear-down. */
  REFLECTION("reflection", 6),
  /** SpringFS's passive migration of what re-integrated servers are owed. */
  PASSIVE_MIGRATION("passive-migration", 6),
  /** Moves that bring data back to the layout's target places (relayout, balancing). */
  RELAYOUT("relayout", 12),
  /** EAFR's migrations of cold files to the gear above. */
  COLD_MIGRATION("cold-migration", 24),
  /** EAFR's removal of replicas a file no longer needs. */
  TRIM("trim", 24);

  private static final long HOUR_MS = 3_600_000L;
  private static final long WEEK_MS = 7 * 24 * HOUR_MS;

  private final String key;
  private final Setting<Long> maxWait;

  WorkKind(String key, int defaultHours) {
    this.key = key;
    this.maxWait = Setting.ofLong("eafr.grid.defer." + key + ".ms", "-", "The longest " + key.replace('-', ' ')
        + " work waits for a cleaner or cheaper hour; 0 runs it at once.", defaultHours * HOUR_MS,
        Range.closed(0L, WEEK_MS));
  }

  /** The kind's name in settings and reports ("passive-migration"). */
  public String key() {
    return key;
  }

  /** Its {@code eafr.grid.defer.<kind>.ms} setting. */
  public Setting<Long> maxWait() {
    return maxWait;
  }
}
