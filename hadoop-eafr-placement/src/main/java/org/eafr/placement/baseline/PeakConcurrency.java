package org.eafr.placement.baseline;

import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The peak number of concurrent reads of each file in one learning window: Scarlett's cf (AptStore Sec. IV-D). Feed it
 * read start and finish events in time order; each event costs O(1). {@link #startWindow} begins the next window:
 * reads still in flight carry over and count towards the new window's peak from its start.
 *
 * <p>Events at the same instant are applied in the order given, so a read that finishes at t before another starts at
 * t never overlaps it.
 *
 * <p>Worked example: reads of f start at 0, 1 and 2 s, the first finishes at 3 s, a fourth starts at 4 s: at most 3
 * are in flight at once, so cf = 3. In the next window, with those 3 reads still running, cf starts at 3.
 */
public final class PeakConcurrency {
  private final Map<String, Counts> counts = new LinkedHashMap<>();
  private long lastMillis = Long.MIN_VALUE;

  /** A read of {@code fileId} began at {@code timeMillis}. */
  public void readStarted(String fileId, long timeMillis) {
    advanceTo(timeMillis);
    Counts c = counts.computeIfAbsent(Objects.requireNonNull(fileId, "fileId"), id -> new Counts());
    c.inFlight++;
    c.peak = Math.max(c.peak, c.inFlight);
  }

  /** A read of {@code fileId} ended at {@code timeMillis}; the file must have a read in flight. */
  public void readFinished(String fileId, long timeMillis) {
    Counts c = counts.get(fileId);
    if (c == null || c.inFlight == 0) {
      throw new IllegalArgumentException("readFinished for file " + fileId + " is not allowed: expected a read of it"
          + " in flight, and none is");
    }
    advanceTo(timeMillis);
    c.inFlight--;
  }

  /** cf: the most reads of {@code fileId} in flight at once in this window; 0 for a file not read. */
  public int peak(String fileId) {
    Counts c = counts.get(fileId);
    return c == null ? 0 : c.peak;
  }

  /** cf of every file read in this window (peak at least 1), in the order files were first read. */
  public Map<String, Integer> peaks() {
    Map<String, Integer> peaks = new LinkedHashMap<>();
    for (Map.Entry<String, Counts> entry : counts.entrySet()) {
      if (entry.getValue().peak > 0) {
        peaks.put(entry.getKey(), entry.getValue().peak);
      }
    }
    return Collections.unmodifiableMap(peaks);
  }

  /** Ends the window at {@code timeMillis}: peaks restart from the reads still in flight; idle files are dropped. */
  public void startWindow(long timeMillis) {
    advanceTo(timeMillis);
    Iterator<Counts> it = counts.values().iterator();
    while (it.hasNext()) {
      Counts c = it.next();
      if (c.inFlight == 0) {
        it.remove();
      } else {
        c.peak = c.inFlight;
      }
    }
  }

  private void advanceTo(long timeMillis) {
    if (timeMillis < lastMillis) {
      throw new IllegalArgumentException("event time " + timeMillis + " ms is not allowed: expected at least the"
          + " previous event's " + lastMillis + " ms, as events must come in time order");
    }
    lastMillis = timeMillis;
  }

  /** One file's reads in flight now and the most in flight at once in this window. */
  private static final class Counts {
    private int inFlight;
    private int peak;
  }
}
