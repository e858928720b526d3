package org.eafr.placement.popularity;

import java.util.Objects;
import org.eafr.placement.settings.EafrSettings;

/**
 * Counts the reads of the current interval T, v_i per file and v_ij per replica (EAFR Sec. 3.2.2, Eq. 1), in bounded
 * memory, and hands them over as an {@link IntervalReads} when the interval ends.
 *
 * <p><b>Unattributed reads.</b> A read may come without its replica (the NameNode audit log sees the file, not the
 * DataNode): it counts towards v_i only, so v_i = sum of v_ij + unattributed reads.
 *
 * <p><b>Memory bound.</b> At most {@code maxTrackedFiles} files are tracked. When the table is full and a new file is
 * read, the entries with the smallest (count + error) are dropped until a quarter of the table is free, and a floor
 * rises to the largest (count + error) dropped; a file that enters later starts with error = floor (the algorithm is
 * in {@link ReadCountTable}). Guarantees, for every file, replica and interval:
 * <ul>
 *   <li>a tracked file with count c, error e and replica counts c_ij has true v_i in [c, c + e] and true v_ij in
 *       [c_ij, c_ij + e] (a replica with no recorded reads: [0, e]);</li>
 *   <li>an untracked file has true v_i &lt;= floor, and so every v_ij &lt;= floor;</li>
 *   <li>a file that was never dropped has had every read counted: error 0 when it is tracked, [0, 0] when it is not
 *       (a Bloom filter of the dropped files, {@link DroppedFiles}, tells; a false positive only widens the bound to
 *       the floor);</li>
 *   <li>until a stripe (see Threads) first fills, nothing is dropped and every count is exact; with one stripe, that
 *       is while at most {@code maxTrackedFiles} distinct files have been read.</li>
 * </ul>
 * Hot decisions must use the lower bounds and cold decisions the upper bounds (as {@link PopularityClassifier} does):
 * then bounding memory can only miss a replica change, never make a wrong one. Once a prune has happened the floor is
 * at least 1, so with sigma_l = 1 a file that was read and dropped cannot be cold in that interval; files never read
 * (the bulk of cold files) keep the exact bound 0 and stay classifiable.
 *
 * <p><b>Memory.</b> A file is known by a 64-bit hash of its id ({@link FileIdHash}; the chance that two of the n
 * tracked files share one is about n^2 / 2^65, 2.7e-8 at a million) in a primitive open-addressing table
 * ({@link ReadCountTable}): 60 bytes per tracked file in a full table plus 9 once it has pruned, and about 40 bytes
 * more for a file read on more than three servers. The tables grow with the files read, so an idle NameNode holds
 * almost nothing.
 *
 * <p><b>Threads.</b> Safe for any number of recording threads (NameNode IPC handlers), which share no lock: the table
 * is split by file hash into {@code stripes} independent tables of {@code maxTrackedFiles / stripes} files (up to 256
 * stripes), each with its own lock, held for one probe and one increment (tens of nanoseconds); two handlers wait
 * for each other only when they record in the same stripe at the same instant. A prune costs O(size of one stripe)
 * once every quarter-stripe of new files, O(1) amortized per read, and stalls only the readers of that stripe. A
 * read, first or repeated, allocates nothing (except when a stripe's arrays grow, or a file is read on a fourth
 * server). {@link #snapshotAndReset()} swaps in empty tables one stripe at a time; each read lands in exactly one
 * interval, and the snapshot's floor is the largest stripe floor.
 *
 * <p>Worked example, {@code maxTrackedFiles} = 4, one stripe: reads f1@s1, f1@s1, f1@s2, f2@s1, f2 (replica unknown),
 * f3@s2 and 4 x f4@s1 fill the table with (count + error) f1 = 3, f2 = 2, f3 = 1, f4 = 4. A read f5@s1 prunes to 3
 * entries: f3 (1) is dropped and the floor becomes 1; f5, never dropped, enters with count 1 and error 0. A read of
 * f3@s2 prunes again: f5 (1) is dropped, the floor stays 1, and f3 comes back with count 1 and error 1. The snapshot:
 * f1 = [3, 3] (s1 [2, 2], s2 [1, 1]), f2 = [2, 2] with 1 unattributed, f4 = [4, 4], f3 = [1, 2] (s2 [1, 2], s1
 * [0, 1]), the untracked f5 = [0, 1], which holds its true 1 read, and the never-read f6 = [0, 0].
 */
public final class ReadStatistics {
  // A prune of 4,096 entries takes well under a millisecond; 256 stripes keep contention negligible.
  private static final int FILES_PER_STRIPE = 4_096;
  private static final int MAX_DEFAULT_STRIPES = 256;

  private final int maxTrackedFiles;
  private final Stripe[] stripes;
  private final ServerIds servers = new ServerIds();

  /** Tracks up to {@code maxTrackedFiles} files, in one stripe per 4,096 of them (at most 256 stripes). */
  public ReadStatistics(int maxTrackedFiles) {
    this(maxTrackedFiles, Math.max(1, Math.min(MAX_DEFAULT_STRIPES, maxTrackedFiles / FILES_PER_STRIPE)));
  }

  /** Tracks up to eafr.reads.max-tracked-files files. */
  public static ReadStatistics from(EafrSettings settings) {
    return new ReadStatistics(settings.maxTrackedFiles());
  }

  /**
   * @param maxTrackedFiles hard cap on tracked files, at least 1
   * @param stripes independently locked parts, 1 to maxTrackedFiles; each tracks maxTrackedFiles / stripes files
   */
  public ReadStatistics(int maxTrackedFiles, int stripes) {
    if (maxTrackedFiles < 1) {
      throw new IllegalArgumentException("maxTrackedFiles " + maxTrackedFiles + " is not allowed: expected >= 1");
    }
    if (stripes < 1 || stripes > maxTrackedFiles) {
      throw new IllegalArgumentException("stripes " + stripes + " is not allowed: expected 1 to maxTrackedFiles = "
          + maxTrackedFiles);
    }
    this.maxTrackedFiles = maxTrackedFiles;
    this.stripes = new Stripe[stripes];
    for (int s = 0; s < stripes; s++) {
      this.stripes[s] = new Stripe(capacityOf(s, stripes));
    }
  }

  /** Counts one read of {@code fileId} served by {@code replicaServerId}, or by an unknown replica when null. */
  public void recordRead(String fileId, String replicaServerId) {
    long key = FileIdHash.of(Objects.requireNonNull(fileId, "fileId"));
    int server = replicaServerId == null ? -1 : servers.numberOf(replicaServerId);
    Stripe stripe = stripes[stripeOf(key)];
    synchronized (stripe) {
      stripe.table.record(key, server);
    }
  }

  /** Ends the interval: returns its reads and starts the next one from zero, with floor 0. */
  public IntervalReads snapshotAndReset() {
    ReadCountTable[] finished = new ReadCountTable[stripes.length];
    long floor = 0;
    int tracked = 0;
    for (int s = 0; s < stripes.length; s++) {
      Stripe stripe = stripes[s];
      synchronized (stripe) {
        finished[s] = stripe.table;
        stripe.table = new ReadCountTable(capacityOf(s, stripes.length));
      }
      floor = Math.max(floor, finished[s].floor());
      tracked += finished[s].size();
    }
    return IntervalReads.of(new FinishedInterval(finished), tracked, floor);
  }

  /**
   * The current interval's reads so far, without ending it (for a dry run such as {@code hdfs eafr plan}). A live view,
   * not a copy: each lookup reads the file's entry in its stripe's table at that moment, under the stripe's lock, so it
   * costs no heap however many files are tracked; reads recorded meanwhile show in later lookups, and a lookup after
   * {@link #snapshotAndReset()} sees the next interval. Nothing is consumed: the interval's end still hands over every
   * read.
   */
  public IntervalReads currentInterval() {
    return IntervalReads.of(new CurrentInterval(), trackedFiles(), floor());
  }

  public int maxTrackedFiles() {
    return maxTrackedFiles;
  }

  public int stripes() {
    return stripes.length;
  }

  /** Files tracked in the current interval; never above {@link #maxTrackedFiles()}. */
  public int trackedFiles() {
    int tracked = 0;
    for (Stripe stripe : stripes) {
      synchronized (stripe) {
        tracked += stripe.table.size();
      }
    }
    return tracked;
  }

  /** The current interval's floor: the most reads a file it does not track can have had so far. */
  public long floor() {
    long floor = 0;
    for (Stripe stripe : stripes) {
      synchronized (stripe) {
        floor = Math.max(floor, stripe.table.floor());
      }
    }
    return floor;
  }

  /** Stripe capacities differ by at most one and add up to maxTrackedFiles. */
  private int capacityOf(int stripe, int stripeCount) {
    return maxTrackedFiles / stripeCount + (stripe < maxTrackedFiles % stripeCount ? 1 : 0);
  }

  /** Picks the stripe from the hash's high 32 bits; a table's slot comes from the low 32. */
  private int stripeOf(long key) {
    return (int) (((key >>> 32) * stripes.length) >>> 32);
  }

  /** The finished tables of one interval, looked up by file id; read-only once swapped out. */
  private final class FinishedInterval implements IntervalReads.Lookup {
    private final ReadCountTable[] tables;

    FinishedInterval(ReadCountTable[] tables) {
      this.tables = tables;
    }

    @Override
    public FileReads reads(String fileId) {
      long key = FileIdHash.of(fileId);
      return readsIn(tables[stripeOf(key)], key, fileId);
    }

    @Override
    public boolean isTracked(String fileId) {
      long key = FileIdHash.of(fileId);
      return tables[stripeOf(key)].isTracked(key);
    }
  }

  /** The interval still being counted, looked up live in each stripe's current table under the stripe's lock. */
  private final class CurrentInterval implements IntervalReads.Lookup {
    @Override
    public FileReads reads(String fileId) {
      long key = FileIdHash.of(fileId);
      Stripe stripe = stripes[stripeOf(key)];
      synchronized (stripe) {
        return readsIn(stripe.table, key, fileId);
      }
    }

    @Override
    public boolean isTracked(String fileId) {
      long key = FileIdHash.of(fileId);
      Stripe stripe = stripes[stripeOf(key)];
      synchronized (stripe) {
        return stripe.table.isTracked(key);
      }
    }
  }

  /** A file's reads in {@code table}: its entry, else the untracked bound (the floor if it may have been dropped). */
  private FileReads readsIn(ReadCountTable table, long key, String fileId) {
    FileReads reads = table.fileReads(key, fileId, servers);
    return reads != null ? reads : FileReads.untracked(fileId, table.mayHaveBeenDropped(key) ? table.floor() : 0);
  }

  /**
   * One stripe's current table and its lock (the stripe itself). The padding keeps two stripes' object headers, where
   * the lock lives, on different 64-byte cache lines, so handlers recording in neighbouring stripes do not slow each
   * other down.
   */
  @SuppressWarnings("unused")
  private static final class Stripe {
    ReadCountTable table;
    private long p1;
    private long p2;
    private long p3;
    private long p4;
    private long p5;
    private long p6;
    private long p7;

    Stripe(int capacity) {
      this.table = new ReadCountTable(capacity);
    }
  }
}
