package org.eafr.placement.popularity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * For random read streams, caps, stripe counts and interval ends, every true count lies within the bounds reported for
 * it, and the table never holds more than its cap.
 */
class ReadStatisticsPropertyTest {
  private static final int FILES = 60;
  private static final int SERVERS = 4;
  private static final List<String> FILE_IDS = ids("f", FILES);
  private static final List<String> SERVER_IDS = ids("s", SERVERS);

  @Property(tries = 1000, seed = "20240611")
  void everyTrueCountLiesWithinItsBounds_inBothIntervals(@ForAll("streams") List<Read> reads,
      @ForAll @IntRange(min = 1, max = 40) int maxTrackedFiles, @ForAll @IntRange(min = 1, max = 4) int stripes,
      @ForAll @IntRange(min = 0, max = 600) int end) {
    int intervalEnd = Math.min(end, reads.size());
    ReadStatistics stats = new ReadStatistics(maxTrackedFiles, Math.min(stripes, maxTrackedFiles));

    checkInterval(stats, reads.subList(0, intervalEnd));
    checkInterval(stats, reads.subList(intervalEnd, reads.size()));
  }

  private static void checkInterval(ReadStatistics stats, List<Read> reads) {
    TrueReads truth = new TrueReads(SERVER_IDS);
    for (Read read : reads) {
      stats.recordRead(read.fileId, read.serverId);
      truth.record(read.fileId, read.serverId);
      assertThat(stats.trackedFiles()).isLessThanOrEqualTo(stats.maxTrackedFiles());
    }
    IntervalReads interval = stats.snapshotAndReset();

    truth.assertBoundsHold(interval, FILE_IDS);
    for (String fileId : FILE_IDS) {
      assertThat(interval.reads(fileId).error()).isLessThanOrEqualTo(interval.floor());
    }
    if (stats.stripes() == 1 && truth.distinctFiles() <= stats.maxTrackedFiles()) {
      assertThat(interval.floor()).isEqualTo(0);
      assertThat(interval.trackedFiles()).isEqualTo(truth.distinctFiles());
    }
  }

  /** Skewed streams: a few files take many reads, the rest form a tail; a replica is sometimes unknown. */
  @Provide
  Arbitrary<List<Read>> streams() {
    Arbitrary<Integer> files =
        Arbitraries.oneOf(Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, FILES - 1));
    Arbitrary<Integer> servers = Arbitraries.integers().between(-1, SERVERS - 1);
    return Combinators.combine(files, servers).as(Read::new).list().ofMaxSize(600);
  }

  private static List<String> ids(String prefix, int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(prefix + i);
    }
    return ids;
  }

  /** One read event; server -1 stands for an unknown replica. */
  static final class Read {
    final String fileId;
    final String serverId;

    Read(int file, int server) {
      this.fileId = "f" + file;
      this.serverId = server < 0 ? null : "s" + server;
    }

    @Override
    public String toString() {
      return fileId + "@" + serverId;
    }
  }
}
