package org.eafr.placement.bench;

import java.util.concurrent.TimeUnit;
import org.eafr.placement.baseline.PeakConcurrency;
import org.eafr.placement.baseline.PopularityPredictor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Cost per audit-log event of the baselines' trackers over 100,000 files: one AptStore access (Eq. 1), one Scarlett
 * read start plus finish, and one end of reference time (Eq. 2 over every file).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BaselineTrackersBench {
  private static final int FILES = 100_000;

  private String[] ids;
  private PopularityPredictor predictor;
  private PeakConcurrency peaks;
  private long clock;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    ids = new String[FILES];
    predictor = PopularityPredictor.builder().build();
    peaks = new PeakConcurrency();
    for (int i = 0; i < FILES; i++) {
      ids[i] = "file-" + i;
      predictor.recordAccess(ids[i], 256L << 20, 0);
    }
  }

  @Benchmark
  public double popularityAccess() {
    String id = nextId();
    predictor.recordAccess(id, 256L << 20, clock += 7);
    return predictor.popularity(id);
  }

  @Benchmark
  public int peakConcurrencyStartAndFinish() {
    String id = nextId();
    peaks.readStarted(id, clock += 7);
    peaks.readFinished(id, clock);
    return peaks.peak(id);
  }

  @Benchmark
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public int endReferenceTimeOver100kFiles() {
    return predictor.endReferenceTime().size();
  }

  private String nextId() {
    next = next + 1 == FILES ? 0 : next + 1;
    return ids[next];
  }
}
