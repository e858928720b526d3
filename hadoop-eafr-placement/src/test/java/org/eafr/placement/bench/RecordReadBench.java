package org.eafr.placement.bench;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.eafr.placement.popularity.ReadStatistics;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * The cost of one {@link ReadStatistics#recordRead} in nanoseconds, per thread.
 * <ul>
 *   <li>{@code recordRead*}: a skewed stream on 200,000 files: half the reads go to 2,000 warm files, half spread over
 *       all of them, a tenth have no known replica. With {@code maxTrackedFiles} = 1,000,000 every file stays tracked
 *       (mostly repeat reads); with 10,000 the table is pruned all the time (the amortized prune is included).</li>
 *   <li>{@code firstRead*}: every read is the file's first of the interval (the path the audit logger takes
 *       for each file of a job's input). Each thread reads its own slice of 2^20 distinct paths, and the thread that
 *       finishes its slice ends the interval ({@code snapshotAndReset}, whose cost is included), so the tables grow
 *       from empty again, as at the start of every interval.</li>
 * </ul>
 * One thread, and eight as NameNode IPC handlers record (on this 2-core machine eight threads time-share, so their
 * per-thread time shows contention and sharing, not parallel speed-up).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(1)
@State(Scope.Benchmark)
public class RecordReadBench {
  private static final int FILES = 200_000;
  private static final int EVENTS = 1 << 20;
  private static final int SERVERS = 1_000;

  @Param({"10000", "1000000"})
  public int maxTrackedFiles;

  private ReadStatistics statistics;
  private String[] fileIds;
  private String[] serverIds;
  private String[] distinctFileIds;

  /** Where each thread is in the event stream; threads start evenly spread over it. */
  @State(Scope.Thread)
  public static class Cursor {
    int next;
    int sliceStart;
    int sliceLength;

    @Setup(Level.Trial)
    public void spreadThreads(ThreadParams thread) {
      sliceLength = EVENTS / thread.getThreadCount();
      sliceStart = thread.getThreadIndex() * sliceLength;
      next = sliceStart;
    }
  }

  @Setup(Level.Trial)
  public void buildStream() {
    Random random = new Random(20_240_611L);
    String[] files = new String[FILES];
    for (int f = 0; f < FILES; f++) {
      files[f] = "/data/part-" + f;
    }
    String[] servers = new String[SERVERS];
    for (int s = 0; s < SERVERS; s++) {
      servers[s] = "dn-" + s;
    }
    fileIds = new String[EVENTS];
    serverIds = new String[EVENTS];
    distinctFileIds = new String[EVENTS];
    for (int i = 0; i < EVENTS; i++) {
      int file = random.nextBoolean() ? random.nextInt(2_000) : random.nextInt(FILES);
      fileIds[i] = files[file];
      int replica = random.nextInt(10);
      serverIds[i] = replica == 9 ? null : servers[(file * 7 + replica % 3 * 131) % SERVERS];
      distinctFileIds[i] = "/user/etl/2024/" + (i & 1023) + "/part-" + (i >>> 10) + ".gz";
    }
    statistics = new ReadStatistics(maxTrackedFiles);
  }

  @Benchmark
  public void recordRead(Cursor cursor) {
    repeatRead(cursor);
  }

  @Benchmark
  @Threads(8)
  public void recordReadFromEightThreads(Cursor cursor) {
    repeatRead(cursor);
  }

  @Benchmark
  public void firstRead(Cursor cursor) {
    firstReadOfInterval(cursor);
  }

  @Benchmark
  @Threads(8)
  public void firstReadFromEightThreads(Cursor cursor) {
    firstReadOfInterval(cursor);
  }

  private void repeatRead(Cursor cursor) {
    int i = cursor.next++ & (EVENTS - 1);
    statistics.recordRead(fileIds[i], serverIds[i]);
  }

  private void firstReadOfInterval(Cursor cursor) {
    int i = cursor.next++;
    if (i == cursor.sliceStart + cursor.sliceLength - 1) {
      cursor.next = cursor.sliceStart;
      statistics.snapshotAndReset();
    }
    statistics.recordRead(distinctFileIds[i], serverIds[i]);
  }
}
