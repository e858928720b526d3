package org.eafr.placement.popularity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Several threads record at once, as NameNode IPC handlers do; each thread's reads come from its own seeded Random. */
class ReadStatisticsConcurrencyTest {
  private static final int THREADS = 8;
  private static final int READS_PER_THREAD = 50_000;
  private static final List<String> SERVERS = List.of("s0", "s1", "s2", "s3", "s4");

  private final ExecutorService pool = Executors.newFixedThreadPool(THREADS);

  @AfterEach
  void stopPool() throws InterruptedException {
    pool.shutdownNow();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  /** 1,000 files over 4 stripes of 1,000: no stripe fills. */
  @Test
  void eightThreadsWhileNoStripeFills_countEveryReadExactly() throws Exception {
    List<String> fileIds = fileIds(1_000);
    ReadStatistics stats = new ReadStatistics(4_000, 4);

    runRecorders(stats, fileIds);
    IntervalReads interval = stats.snapshotAndReset();

    TrueReads truth = replay(fileIds);
    assertThat(interval.floor()).isEqualTo(0);
    for (String fileId : fileIds) {
      FileReads reads = interval.reads(fileId);
      assertThat(reads.error()).isEqualTo(0);
      assertThat(reads.readsLowerBound()).as(fileId).isEqualTo(truth.reads(fileId));
      for (String server : SERVERS) {
        assertThat(reads.replicaReadsLowerBound(server)).isEqualTo(truth.replicaReads(fileId, server));
      }
    }
  }

  @Test
  void eightThreadsOverTheCap_keepEveryTrueCountWithinItsBounds() throws Exception {
    List<String> fileIds = fileIds(20_000);
    ReadStatistics stats = new ReadStatistics(1_000, 4);

    runRecorders(stats, fileIds);
    IntervalReads interval = stats.snapshotAndReset();

    assertThat(interval.floor()).isGreaterThan(0);
    assertThat(interval.trackedFiles()).isLessThanOrEqualTo(1_000);
    replay(fileIds).assertBoundsHold(interval, fileIds);
  }

  @Test
  void snapshotsTakenWhileThreadsRecord_countEachReadInExactlyOneInterval() throws Exception {
    List<String> fileIds = fileIds(1_000);
    ReadStatistics stats = new ReadStatistics(4_000, 4);
    List<Future<?>> recorders = startRecorders(stats, fileIds);

    long counted = 0;
    int snapshots = 0;
    while (!allDone(recorders)) {
      counted += totalReads(stats.snapshotAndReset(), fileIds);
      snapshots++;
    }
    for (Future<?> recorder : recorders) {
      recorder.get();
    }
    counted += totalReads(stats.snapshotAndReset(), fileIds);

    assertThat(snapshots).isPositive();
    assertThat(counted).isEqualTo((long) THREADS * READS_PER_THREAD);
  }

  private void runRecorders(ReadStatistics stats, List<String> fileIds) throws Exception {
    for (Future<?> recorder : startRecorders(stats, fileIds)) {
      recorder.get();
    }
  }

  private List<Future<?>> startRecorders(ReadStatistics stats, List<String> fileIds) {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<?>> recorders = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      recorders.add(pool.submit(() -> {
        start.await();
        Random random = new Random(thread);
        for (int i = 0; i < READS_PER_THREAD; i++) {
          stats.recordRead(fileIds.get(skewedFile(random, fileIds.size())), server(random));
        }
        return null;
      }));
    }
    start.countDown();
    return recorders;
  }

  /** The same reads as the recorder threads, counted exactly on one thread. */
  private static TrueReads replay(List<String> fileIds) {
    TrueReads truth = new TrueReads(SERVERS);
    for (int thread = 0; thread < THREADS; thread++) {
      Random random = new Random(thread);
      for (int i = 0; i < READS_PER_THREAD; i++) {
        truth.record(fileIds.get(skewedFile(random, fileIds.size())), server(random));
      }
    }
    return truth;
  }

  /** Half the reads to the first 100 files, half spread over all. */
  private static int skewedFile(Random random, int fileCount) {
    return random.nextBoolean() ? random.nextInt(100) : random.nextInt(fileCount);
  }

  private static String server(Random random) {
    int index = random.nextInt(SERVERS.size() + 1);
    return index == SERVERS.size() ? null : SERVERS.get(index);
  }

  private static List<String> fileIds(int count) {
    List<String> fileIds = new ArrayList<>();
    for (int f = 0; f < count; f++) {
      fileIds.add("f" + f);
    }
    return fileIds;
  }

  private static boolean allDone(List<Future<?>> futures) {
    return futures.stream().allMatch(Future::isDone);
  }

  private static long totalReads(IntervalReads interval, List<String> fileIds) {
    return fileIds.stream().mapToLong(fileId -> interval.reads(fileId).readsLowerBound()).sum();
  }
}
