package org.eafr.placement.popularity;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * The reads of every file in one finished interval T (EAFR Sec. 3.2.2), as {@link ReadStatistics#snapshotAndReset()}
 * hands them over: the tracked files with their bounds, and the floor, the most reads any untracked file can have had.
 * A file that was never read is untracked too; {@link ReadStatistics} knows (up to Bloom-filter false positives) which
 * untracked files were read and dropped, and gives the others the exact bound 0.
 *
 * <p>Worked example: tracked f1 with 12 reads (error 0) and floor 3: {@code reads("f1")} is [12, 12] and
 * {@code reads("f9")} is [0, 3], on the file and on each replica.
 *
 * <p>Immutable.
 */
public final class IntervalReads {
  private final Map<String, FileReads> tracked;
  private final long floor;
  private final ToLongFunction<String> untrackedBound;

  private IntervalReads(Map<String, FileReads> tracked, long floor, ToLongFunction<String> untrackedBound) {
    this.tracked = Collections.unmodifiableMap(tracked);
    this.floor = floor;
    this.untrackedBound = untrackedBound;
  }

  /** The interval with these tracked files (one entry per file id) and this floor. */
  public static IntervalReads of(Collection<FileReads> trackedFiles, long floor) {
    return of(trackedFiles, floor, fileId -> floor);
  }

  /**
   * As {@link #of(Collection, long)}, with a tighter bound per untracked file: 0 for a file known never to have been
   * read, at most {@code floor} otherwise.
   */
  static IntervalReads of(Collection<FileReads> trackedFiles, long floor, ToLongFunction<String> untrackedBound) {
    if (floor < 0) {
      throw new IllegalArgumentException("floor " + floor + " is not allowed: expected >= 0");
    }
    Map<String, FileReads> byId = new HashMap<>(trackedFiles.size() * 4 / 3 + 1);
    for (FileReads reads : trackedFiles) {
      if (byId.put(reads.fileId(), reads) != null) {
        throw new IllegalArgumentException("trackedFiles lists file " + reads.fileId() + " twice");
      }
    }
    return new IntervalReads(byId, floor, untrackedBound);
  }

  /**
   * The reads of {@code fileId}; for an untracked file, [0, floor] on the file and on each replica, or [0, 0] when it
   * is known never to have been read. Never null.
   */
  public FileReads reads(String fileId) {
    FileReads reads = tracked.get(Objects.requireNonNull(fileId, "fileId"));
    return reads != null ? reads : FileReads.untracked(fileId, untrackedBound.applyAsLong(fileId));
  }

  public boolean isTracked(String fileId) {
    return tracked.containsKey(Objects.requireNonNull(fileId, "fileId"));
  }

  /** Every tracked file, in no particular order. */
  public Collection<FileReads> tracked() {
    return tracked.values();
  }

  /** The most reads an untracked file, or any replica of it, can have had in this interval. */
  public long floor() {
    return floor;
  }

  @Override
  public String toString() {
    return "IntervalReads(" + tracked.size() + " tracked files, floor " + floor + ")";
  }
}
