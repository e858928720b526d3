package org.eafr.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SwimPathTraceGeneratorTest {
  private static final String FB_2010 = "classpath:FB-2010_samples_24_times_1hr_0.tsv.gz";
  private static final int FB_2010_JOBS = 24_442;

  /** InputPathPopularity's worked example. */
  @Test
  void fb2010JobCount_givesTheWorkedExamplesCounts() {
    int[] counts = InputPathPopularity.accessesByPath(FB_2010_JOBS);
    assertThat(top(counts, 1)).isEqualTo(733);
    assertThat(top(counts, 10)).isEqualTo(2_689);
    assertThat(top(counts, 100)).isEqualTo(5_866);
    assertThat(top(counts, 1_000)).isEqualTo(8_555);
    assertThat(counts).hasSize(16_562);
    assertThat(Arrays.stream(counts).filter(c -> c == 2).count() - countInTop1000(counts, 2)).isEqualTo(325);
    assertThat(Arrays.stream(counts).filter(c -> c == 1).count()).isEqualTo(15_237);
    assertThat(Arrays.stream(counts).sum()).isEqualTo(FB_2010_JOBS);
  }

  @Test
  void countsNeverIncreaseWithTheRank_andKeepTheShares_atAnyJobCount() {
    for (int jobs : new int[] {InputPathPopularity.MIN_JOBS, 20_000, FB_2010_JOBS, 100_000, 10_000_000}) {
      int[] counts = InputPathPopularity.accessesByPath(jobs);
      for (int i = 1; i < counts.length; i++) {
        assertThat(counts[i]).as("rank %d at %d jobs", i + 1, jobs).isLessThanOrEqualTo(counts[i - 1]);
      }
      assertThat(Arrays.stream(counts).asLongStream().sum()).isEqualTo(jobs);
      assertShares(counts, jobs);
    }
  }

  @Test
  void tooFewJobs_areRefusedNamingTheLeastJobCount() {
    assertThatThrownBy(() -> InputPathPopularity.accessesByPath(5_894))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jobs 5894")
        .hasMessageContaining(String.valueOf(InputPathPopularity.MIN_JOBS));
  }

  /**
   * The generated FB-2010 trace, seed 7: the paths' shares are SWIM's within 0.05 percentage points (the counts are
   * exact; only rounding to one access is left), 92% of paths are read once, and every job keeps its traced columns.
   */
  @Test
  void generatedFb2010Trace_hasTheSwimInputPathShares() throws IOException {
    List<String> lines = SwimPathTraceGenerator.generate(FB_2010, 7);
    assertThat(lines).hasSize(FB_2010_JOBS);
    Map<String, Integer> accesses = new HashMap<>();
    try (BufferedReader source = AbstractTraceReader.lines(FB_2010)) {
      for (String line : lines) {
        String[] fields = line.split("\t");
        assertThat(fields).hasSize(7);
        assertThat(String.join("\t", Arrays.copyOf(fields, 6))).isEqualTo(source.readLine());
        accesses.merge(fields[6], 1, Integer::sum);
      }
    }
    int[] counts = accesses.values().stream().mapToInt(Integer::intValue).sorted().toArray();
    reverse(counts);
    assertShares(counts, FB_2010_JOBS);
  }

  /** Read through the simulator's reader over a catalog larger than the paths, files get the paths' popularity. */
  @Test
  void readerGivesEachPathItsOwnFile_soFilesHaveThePathsPopularity() throws IOException {
    String text = String.join("\n", SwimPathTraceGenerator.generate(FB_2010, 7));
    Map<Integer, Integer> jobsPerFile = new HashMap<>();
    try (SwimTraceReader reader = new SwimTraceReader("generated", new BufferedReader(new StringReader(text)),
        20_000, 1, false, 1.0, 0)) {
      for (TraceEvent event = reader.next(); event != null; event = reader.next()) {
        if (event.kind() == TraceEvent.Kind.READ) {
          jobsPerFile.merge(event.file(), 1, Integer::sum);
        }
      }
    }
    int[] counts = jobsPerFile.values().stream().mapToInt(Integer::intValue).sorted().toArray();
    reverse(counts);
    assertThat(counts).isEqualTo(InputPathPopularity.accessesByPath(FB_2010_JOBS));
  }

  @Test
  void sameSeed_sameTrace_otherSeed_sameCountsOnOtherJobs() {
    int[] seven = SwimPathTraceGenerator.shuffledPaths(FB_2010_JOBS, 7);
    assertThat(SwimPathTraceGenerator.shuffledPaths(FB_2010_JOBS, 7)).isEqualTo(seven);
    int[] eight = SwimPathTraceGenerator.shuffledPaths(FB_2010_JOBS, 8);
    assertThat(eight).isNotEqualTo(seven);
    int[] sortedSeven = seven.clone();
    int[] sortedEight = eight.clone();
    Arrays.sort(sortedSeven);
    Arrays.sort(sortedEight);
    assertThat(sortedEight).isEqualTo(sortedSeven);
  }

  private static void assertShares(int[] countsByRank, int jobs) {
    int[] ranks = {1, 10, 100, 1_000};
    double[] shares = {0.03, 0.11, 0.24, 0.35};
    for (int i = 0; i < ranks.length; i++) {
      assertThat((double) top(countsByRank, ranks[i]) / jobs).as("top %d share at %d jobs", ranks[i], jobs)
          .isCloseTo(shares[i], within(0.0005));
    }
    double once = (double) Arrays.stream(countsByRank).filter(c -> c == 1).count() / countsByRank.length;
    assertThat(once).as("paths read once at %d jobs", jobs).isCloseTo(0.92, within(0.001));
  }

  private static long top(int[] counts, int k) {
    return Arrays.stream(counts, 0, k).asLongStream().sum();
  }

  private static long countInTop1000(int[] counts, int value) {
    return Arrays.stream(counts, 0, 1_000).filter(c -> c == value).count();
  }

  private static void reverse(int[] a) {
    for (int i = 0, j = a.length - 1; i < j; i++, j--) {
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
}
