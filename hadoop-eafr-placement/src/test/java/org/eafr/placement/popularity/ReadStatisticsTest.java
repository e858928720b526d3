package org.eafr.placement.popularity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

class ReadStatisticsTest {
  @Test
  void javadocExample_fullTableDropsTheSmallestAndRaisesTheFloor() {
    ReadStatistics stats = new ReadStatistics(4);
    stats.recordRead("f1", "s1");
    stats.recordRead("f1", "s1");
    stats.recordRead("f1", "s2");
    stats.recordRead("f2", "s1");
    stats.recordRead("f2", null);
    stats.recordRead("f3", "s2");
    for (int i = 0; i < 4; i++) {
      stats.recordRead("f4", "s1");
    }
    assertThat(stats.trackedFiles()).isEqualTo(4);
    assertThat(stats.floor()).isEqualTo(0);

    stats.recordRead("f5", "s1");
    stats.recordRead("f3", "s2");
    IntervalReads interval = stats.snapshotAndReset();

    assertThat(interval.floor()).isEqualTo(1);
    assertThat(interval.trackedFiles()).isEqualTo(4);
    assertThat(interval.reads("f1"))
        .isEqualTo(FileReads.builder("f1").replicaReads("s1", 2).replicaReads("s2", 1).build());
    assertThat(interval.reads("f2"))
        .isEqualTo(FileReads.builder("f2").replicaReads("s1", 1).unattributedReads(1).build());
    assertThat(interval.reads("f4")).isEqualTo(FileReads.builder("f4").replicaReads("s1", 4).build());
    assertThat(interval.reads("f3")).isEqualTo(FileReads.builder("f3").replicaReads("s2", 1).error(1).build());
    assertThat(interval.reads("f3").replicaReadsUpperBound("s1")).isEqualTo(1);
    assertThat(interval.isTracked("f5")).isFalse();
    assertThat(interval.reads("f5")).isEqualTo(FileReads.untracked("f5", 1));
    assertThat(interval.reads("f6")).isEqualTo(FileReads.untracked("f6", 0));
  }

  @Test
  void aFileNeverDropped_entersWithErrorZero_andNeverReadFilesStayProvablyUnread() {
    // 1,500 files read once through a 1,000-file table: about 750 are dropped, well within the Bloom filter's size.
    ReadStatistics stats = new ReadStatistics(1_000, 1);
    for (int i = 0; i < 1_500; i++) {
      stats.recordRead("churn" + i, "s1");
    }
    stats.recordRead("late", "s1");
    IntervalReads interval = stats.snapshotAndReset();

    assertThat(interval.floor()).isEqualTo(1);
    assertThat(interval.reads("late").readsUpperBound()).isEqualTo(1);
    assertThat(interval.reads("neverRead").readsUpperBound()).isEqualTo(0);
    PopularityClassifier classifier = PopularityClassifier.from(EafrSettings.defaults());
    assertThat(classifier.classify(interval.reads("neverRead"), List.of("s1", "s2")))
        .isEqualTo(FileTemperature.COLD);
    assertThat(classifier.classify(interval.reads("churn3"), List.of("s1", "s2")))
        .as("a read-then-dropped file is not provably idle").isEqualTo(FileTemperature.NORMAL);
  }

  @Test
  void unattributedReads_countTowardsTheFileOnly() {
    ReadStatistics stats = new ReadStatistics(10);
    stats.recordRead("f", "s1");
    stats.recordRead("f", null);
    stats.recordRead("f", null);

    FileReads reads = stats.snapshotAndReset().reads("f");

    assertThat(reads.readsLowerBound()).isEqualTo(3);
    assertThat(reads.readsUpperBound()).isEqualTo(3);
    assertThat(reads.unattributedReads()).isEqualTo(2);
    assertThat(reads.replicaReadsLowerBound("s1")).isEqualTo(1);
    assertThat(reads.recordedServers()).containsExactly("s1");
  }

  @Test
  void fileReadFromManyServers_keepsEveryReplicaCount() {
    ReadStatistics stats = new ReadStatistics(10);
    for (int j = 0; j < 12; j++) {
      for (int i = 0; i <= j; i++) {
        stats.recordRead("f", "s" + j);
      }
    }

    FileReads reads = stats.snapshotAndReset().reads("f");

    assertThat(reads.recordedServers()).hasSize(12);
    assertThat(reads.replicaReadsLowerBound("s0")).isEqualTo(1);
    assertThat(reads.replicaReadsLowerBound("s11")).isEqualTo(12);
    assertThat(reads.readsLowerBound()).isEqualTo(78);
  }

  @Test
  void snapshotAndReset_startsTheNextIntervalFromZero() {
    ReadStatistics stats = new ReadStatistics(1);
    stats.recordRead("f1", "s1");
    stats.recordRead("f2", "s1");
    assertThat(stats.floor()).isEqualTo(1);

    IntervalReads first = stats.snapshotAndReset();
    stats.recordRead("f1", "s1");
    IntervalReads second = stats.snapshotAndReset();

    assertThat(first.floor()).isEqualTo(1);
    // f2 was never dropped before it entered: its one read is counted exactly; the dropped f1 is bounded by the floor.
    assertThat(first.reads("f2")).isEqualTo(FileReads.builder("f2").replicaReads("s1", 1).build());
    assertThat(first.reads("f1")).isEqualTo(FileReads.untracked("f1", 1));
    assertThat(second.floor()).isEqualTo(0);
    assertThat(second.reads("f1")).isEqualTo(FileReads.builder("f1").replicaReads("s1", 1).build());
    assertThat(stats.trackedFiles()).isEqualTo(0);
    assertThat(stats.snapshotAndReset().trackedFiles()).isZero();
  }

  @Test
  void currentInterval_showsTheCountsSoFarWithoutEndingTheInterval() {
    ReadStatistics stats = new ReadStatistics(4, 1);
    stats.recordRead("f1", "s1");
    stats.recordRead("f1", "s2");
    stats.recordRead("f2", null);

    IntervalReads view = stats.currentInterval();
    IntervalReads again = stats.currentInterval();
    assertThat(view.reads("f1")).isEqualTo(FileReads.builder("f1").replicaReads("s1", 1).replicaReads("s2", 1).build());
    assertThat(again.reads("f2")).isEqualTo(FileReads.builder("f2").unattributedReads(1).build());
    assertThat(view.reads("f3")).isEqualTo(FileReads.untracked("f3", 0));
    assertThat(view.trackedFiles()).isEqualTo(2);
    assertThat(stats.trackedFiles()).as("nothing consumed").isEqualTo(2);

    stats.recordRead("f1", "s1");
    assertThat(view.reads("f1").readsLowerBound()).as("a live view").isEqualTo(3);
    IntervalReads ended = stats.snapshotAndReset();
    assertThat(ended.reads("f1")).isEqualTo(FileReads.builder("f1").replicaReads("s1", 2).replicaReads("s2", 1).build());
    assertThat(ended.reads("f2").readsLowerBound()).isEqualTo(1);
    assertThat(view.reads("f1")).as("after the interval ended: the next one").isEqualTo(FileReads.untracked("f1", 0));
  }

  @Test
  void tiesAtTheCut_dropOnlyEnoughToFreeAQuarter() {
    ReadStatistics stats = new ReadStatistics(8);
    for (int f = 0; f < 9; f++) {
      stats.recordRead("f" + f, "s1");
    }

    IntervalReads interval = stats.snapshotAndReset();

    assertThat(interval.trackedFiles()).isEqualTo(7);
    assertThat(interval.floor()).isEqualTo(1);
    assertThat(interval.reads("f8")).isEqualTo(FileReads.builder("f8").replicaReads("s1", 1).build());
  }

  @Test
  void millionReadsOverTwoHundredThousandFiles_stayWithinTheCapAndWithinTheirBounds() {
    int fileCount = 200_000;
    int maxTrackedFiles = 10_000;
    Random random = new Random(20_240_611L);
    List<String> fileIds = new ArrayList<>();
    for (int f = 0; f < fileCount; f++) {
      fileIds.add("f" + f);
    }
    List<String> serverIds = List.of("s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9");
    int[] events = skewedEventsWithHeavyHitter(random, fileCount, 1_000_000, 5_000);
    ReadStatistics stats = new ReadStatistics(maxTrackedFiles);
    TrueReads truth = new TrueReads(serverIds);

    int mostTracked = 0;
    for (int f : events) {
      String server = random.nextInt(4) == 0 ? null : serverIds.get((f + random.nextInt(3) * 3) % 10);
      stats.recordRead(fileIds.get(f), server);
      truth.record(fileIds.get(f), server);
      mostTracked = Math.max(mostTracked, stats.trackedFiles());
    }
    IntervalReads interval = stats.snapshotAndReset();

    assertThat(mostTracked).isLessThanOrEqualTo(maxTrackedFiles).isGreaterThan(maxTrackedFiles * 9 / 10);
    assertThat(interval.floor()).isPositive();
    assertThat(truth.distinctFiles()).isGreaterThan(150_000);
    truth.assertBoundsHold(interval, fileIds);
    FileReads heavy = interval.reads("f0");
    assertThat(interval.isTracked("f0")).isTrue();
    assertThat(heavy.readsLowerBound()).isLessThanOrEqualTo(5_000);
    assertThat(heavy.readsUpperBound()).isGreaterThanOrEqualTo(5_000);
    assertThat(heavy.error()).isLessThanOrEqualTo(interval.floor()).isLessThan(20);
    assertThat(PopularityClassifier.from(EafrSettings.defaults()).classify(heavy, List.of("s0", "s3", "s6")))
        .isEqualTo(FileTemperature.HOT);
  }

  /**
   * File 0 read exactly {@code heavyReads} times; of the rest, half the reads go to 2,000 warm files and half spread
   * over the whole long tail; shuffled.
   */
  private static int[] skewedEventsWithHeavyHitter(Random random, int fileCount, int eventCount, int heavyReads) {
    int[] events = new int[eventCount];
    for (int i = heavyReads; i < eventCount; i++) {
      events[i] = 1 + (random.nextBoolean() ? random.nextInt(2_000) : random.nextInt(fileCount - 1));
    }
    for (int i = eventCount - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int event = events[i];
      events[i] = events[j];
      events[j] = event;
    }
    return events;
  }

  /** A read runs on the NameNode's IPC thread: once the table has grown, a first or repeat read allocates nothing. */
  @Test
  void firstAndRepeatReads_allocateNothingOnceTheTableHasGrown() {
    ReadStatistics stats = new ReadStatistics(4_096, 1);
    String[] files = new String[8_000];
    for (int f = 0; f < files.length; f++) {
      files[f] = "/data/part-" + f;
    }
    String[] servers = {"s0", "s1", "s2"};
    for (int f = 0; f < 3_100; f++) { // grows the arrays to their full 6,145 slots
      stats.recordRead(files[f], servers[f % 3]);
    }
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    long thread = Thread.currentThread().getId();
    long before = threads.getThreadAllocatedBytes(thread);
    for (int f = 3_100; f < 4_000; f++) { // first reads, no prune yet
      stats.recordRead(files[f], servers[f % 3]);
      stats.recordRead(files[f - 3_000], f % 4 == 0 ? null : servers[f % 3]);
    }
    long allocated = threads.getThreadAllocatedBytes(thread) - before;

    assertThat(stats.trackedFiles()).isEqualTo(4_000);
    assertThat(allocated).as("bytes allocated by 1,800 reads").isLessThan(1_000);
  }

  @Test
  void badInput_isRejectedNamingTheValue() {
    assertThatThrownBy(() -> new ReadStatistics(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxTrackedFiles 0 is not allowed: expected >= 1");
    assertThatThrownBy(() -> new ReadStatistics(5).recordRead(null, "s1")).isInstanceOf(NullPointerException.class)
        .hasMessage("fileId");
    assertThatThrownBy(() -> new ReadStatistics(5, 6)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("stripes 6 is not allowed: expected 1 to maxTrackedFiles = 5");
    assertThatThrownBy(() -> new ReadStatistics(5, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void defaultStripes_areOnePer4096FilesUpTo256() {
    assertThat(new ReadStatistics(4).stripes()).isEqualTo(1);
    assertThat(new ReadStatistics(10_000).stripes()).isEqualTo(2);
    assertThat(new ReadStatistics(100_000).stripes()).isEqualTo(24);
    assertThat(new ReadStatistics(10_000_000).stripes()).isEqualTo(256);
  }

  @Test
  void stripesWithUnevenShares_holdExactlyMaxTrackedFilesWhenFull() {
    ReadStatistics stats = new ReadStatistics(10, 3);
    for (int f = 0; f < 1_000; f++) {
      stats.recordRead("f" + f, null);
      assertThat(stats.trackedFiles()).isLessThanOrEqualTo(10);
    }

    IntervalReads interval = stats.snapshotAndReset();

    assertThat(interval.trackedFiles()).isBetween(7, 10);
    assertThat(interval.floor()).isPositive();
  }
}
