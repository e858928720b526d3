package org.eafr.sim.workload;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.eafr.sim.SimSettings;

/**
 * The synthetic EAFR/CTH-like workload (EAFR Sec. 4). {@code sim.files} files with sizes log-uniform between the
 * smallest and largest file size; {@code sim.read-files} of them, chosen at random, are read. Over one 4-hour pattern
 * each read file gets a read count drawn from a log-normal distribution with mu = 3.638 and sigma = 1.344: solving
 * P(N &lt; 30) = 0.43 and P(N &gt; 400) = 0.04 (the CTH skew the issue gives) for mu and sigma. Each read happens at a
 * uniformly random time in the pattern. The pattern is stretched or squeezed in time so that reads arrive at
 * {@code sim.arrival-rate} per second on average (EAFR Fig. 7 changes the gaps between reads), and repeated until the
 * run ends (EAFR: "runs 2 days by repeatedly using the read rates from the trace"). A share {@code sim.write-share} of
 * operations are updates of the file instead of reads.
 *
 * <p>Why log-uniform sizes: EAFR gives only the range (100 KB, 10 GB). Uniform sizes would average 5 GB, and three
 * replicas of 50,000 such files (750 TB) would not fit the paper's 300 servers (about 150 TB); log-uniform sizes
 * average 0.87 GB, so HDFS's three replicas fill about 85% of the cluster.
 *
 * <p>One pattern is kept in memory as packed longs (time in the pattern, write flag, file index): 12.5 MB for the
 * EAFR setup's 1.56 million reads.
 */
public final class SyntheticWorkload implements Workload {
  /** Log-normal read-count parameters fitted to the CTH skew (see class comment). */
  public static final double READS_MU = 3.638;
  public static final double READS_SIGMA = 1.344;
  public static final long PATTERN_MICROS = 4L * 3600 * 1_000_000;

  private static final int FILE_BITS = 24;
  private static final long FILE_MASK = (1L << FILE_BITS) - 1;
  private static final long WRITE_BIT = 1L << FILE_BITS;

  private final long[] sizes;
  private final long[] pattern;
  private final double stretch;
  private final long durationMicros;
  private final String description;

  public SyntheticWorkload(SimSettings settings) {
    SplittableRandom random = new SplittableRandom(settings.seed() ^ 0x5EEDF11E5L);
    this.sizes = sizes(settings.files(), settings.minFileBytes(), settings.maxFileBytes(), random.split());
    this.pattern = pattern(settings, random.split());
    double patternRate = pattern.length / (PATTERN_MICROS / 1e6);
    this.stretch = patternRate / settings.arrivalRate();
    this.durationMicros = settings.durationMicros();
    this.description = String.format(java.util.Locale.ROOT,
        "synthetic CTH-like: %d files, %d read, %d operations per 4-hour pattern, %.1f reads/s", sizes.length,
        settings.readFiles(), pattern.length, settings.arrivalRate());
  }

  private static long[] sizes(int files, long min, long max, SplittableRandom random) {
    long[] sizes = new long[files];
    double logMin = Math.log(min);
    double logMax = Math.log(max);
    for (int i = 0; i < files; i++) {
      sizes[i] = Math.min(max, Math.max(min, Math.round(Math.exp(logMin + (logMax - logMin) * random.nextDouble()))));
    }
    return sizes;
  }

  /** Read counts per read file, then the packed (time, write, file) operations of one pattern, sorted by time. */
  private static long[] pattern(SimSettings settings, SplittableRandom random) {
    int[] readFiles = chooseReadFiles(settings.files(), settings.readFiles(), random);
    int[] counts = new int[readFiles.length];
    long total = 0;
    for (int i = 0; i < readFiles.length; i++) {
      counts[i] = readCount(random);
      total += counts[i];
    }
    if (total > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("sim.read-files = " + settings.readFiles() + " is not allowed: the pattern"
          + " would hold " + total + " operations; expected at most " + (Integer.MAX_VALUE - 8));
    }
    long[] ops = new long[(int) total];
    int n = 0;
    for (int i = 0; i < readFiles.length; i++) {
      for (int k = 0; k < counts[i]; k++) {
        long time = (long) (random.nextDouble() * PATTERN_MICROS);
        long write = random.nextDouble() < settings.writeShare() ? WRITE_BIT : 0;
        ops[n++] = (time << (FILE_BITS + 1)) | write | readFiles[i];
      }
    }
    Arrays.sort(ops);
    return ops;
  }

  /** A log-normal read count, at least 1. */
  static int readCount(SplittableRandom random) {
    double gaussian = gaussian(random);
    return (int) Math.max(1, Math.min(10_000_000, Math.round(Math.exp(READS_MU + READS_SIGMA * gaussian))));
  }

  private static double gaussian(SplittableRandom random) {
    double u1 = 1.0 - random.nextDouble();
    double u2 = random.nextDouble();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  private static int[] chooseReadFiles(int files, int readFiles, SplittableRandom random) {
    int[] all = new int[files];
    for (int i = 0; i < files; i++) {
      all[i] = i;
    }
    for (int i = 0; i < readFiles; i++) {
      int j = i + random.nextInt(files - i);
      int t = all[i];
      all[i] = all[j];
      all[j] = t;
    }
    return Arrays.copyOf(all, readFiles);
  }

  @Override
  public long[] fileSizes() {
    return sizes.clone();
  }

  @Override
  public TraceReader open() {
    return new TraceReader() {
      private long repeat;
      private int position;

      @Override
      public TraceEvent next() {
        if (pattern.length == 0) {
          return null;
        }
        if (position == pattern.length) {
          position = 0;
          repeat++;
        }
        long op = pattern[position++];
        long inPattern = op >>> (FILE_BITS + 1);
        long time = Math.round((repeat * PATTERN_MICROS + inPattern) * stretch);
        if (time > durationMicros) {
          return null;
        }
        TraceEvent.Kind kind = (op & WRITE_BIT) != 0 ? TraceEvent.Kind.WRITE : TraceEvent.Kind.READ;
        return new TraceEvent(time, kind, (int) (op & FILE_MASK), 1);
      }
    };
  }

  /** Operations in one 4-hour pattern. */
  public int patternOperations() {
    return pattern.length;
  }

  @Override
  public String describe() {
    return description;
  }
}
