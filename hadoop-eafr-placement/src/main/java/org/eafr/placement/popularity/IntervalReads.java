package org.eafr.placement.popularity;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The reads of every file in one finished interval T (EAFR Sec. 3.2.2), as {@link ReadStatistics#snapshotAndReset()}
 * hands them over: the tracked files with their bounds, and the floor, the most reads any untracked file can have had.
 * A file that was never read is untracked too; {@link ReadStatistics} knows (up to Bloom-filter false positives) which
 * untracked files were read and dropped, and gives the others the exact bound 0.
 *
 * <p>Files are looked up by id; the counter keeps hashes, not ids, so the tracked files cannot be listed, only
 * counted ({@link #trackedFiles()}). The monitor asks for every file of the namespace as it walks it.
 *
 * <p>Worked example: tracked f1 with 12 reads (error 0) and floor 3: {@code reads("f1")} is [12, 12] and
 * {@code reads("f9")} is [0, 3], on the file and on each replica.
 *
 * <p>Immutable.
 */
public final class IntervalReads {
  private final Lookup lookup;
  private final int trackedFiles;
  private final long floor;

  private IntervalReads(Lookup lookup, int trackedFiles, long floor) {
    this.lookup = lookup;
    this.trackedFiles = trackedFiles;
    this.floor = floor;
  }

  /** The interval with these tracked files (one entry per file id) and this floor for every untracked file. */
  public static IntervalReads of(Collection<FileReads> trackedFiles, long floor) {
    requireFloor(floor);
    Map<String, FileReads> byId = new HashMap<>(trackedFiles.size() * 4 / 3 + 1);
    for (FileReads reads : trackedFiles) {
      if (byId.put(reads.fileId(), reads) != null) {
        throw new IllegalArgumentException("trackedFiles lists file " + reads.fileId() + " twice");
      }
    }
    return of(new Lookup() {
      @Override
      public FileReads reads(String fileId) {
        FileReads reads = byId.get(fileId);
        return reads != null ? reads : FileReads.untracked(fileId, floor);
      }

      @Override
      public boolean isTracked(String fileId) {
        return byId.containsKey(fileId);
      }
    }, byId.size(), floor);
  }

  /** The interval whose files {@code lookup} knows; it tracks {@code trackedFiles} files. */
  static IntervalReads of(Lookup lookup, int trackedFiles, long floor) {
    requireFloor(floor);
    return new IntervalReads(lookup, trackedFiles, floor);
  }

  private static void requireFloor(long floor) {
    if (floor < 0) {
      throw new IllegalArgumentException("floor " + floor + " is not allowed: expected >= 0");
    }
  }

  /**
   * The reads of {@code fileId}; for an untracked file, [0, floor] on the file and on each replica, or [0, 0] when it
   * is known never to have been read. Never null.
   */
  public FileReads reads(String fileId) {
    return lookup.reads(Objects.requireNonNull(fileId, "fileId"));
  }

  public boolean isTracked(String fileId) {
    return lookup.isTracked(Objects.requireNonNull(fileId, "fileId"));
  }

  /** How many files have counts of their own in this interval. */
  public int trackedFiles() {
    return trackedFiles;
  }

  /** The most reads an untracked file, or any replica of it, can have had in this interval. */
  public long floor() {
    return floor;
  }

  @Override
  public String toString() {
    return "IntervalReads(" + trackedFiles + " tracked files, floor " + floor + ")";
  }

  /** Where an interval's counts live: reads(f) is never null (an untracked file gets its bound). */
  interface Lookup {
    FileReads reads(String fileId);

    boolean isTracked(String fileId);
  }
}
