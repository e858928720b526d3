package org.eafr.sim.workload;

import java.io.IOException;
import java.util.SplittableRandom;

/**
 * The SWIM Facebook traces (one job per line, tab-separated: job id, submit time s, gap s, map input bytes, shuffle
 * bytes, reduce output bytes). The traces carry no file names, so each job is mapped onto a file of the catalog with
 * the popularity model of the traces' README: with probability 0.35 a file of a 1,000-file head chosen by Zipf with
 * exponent 1 (the top 1 / 10 / 100 / 1,000 then take about 5% / 14% / 24% / 35% of accesses, against SWIM's 3% / 11% /
 * 24% / 35%), otherwise a file of the tail chosen uniformly (most tail files are read once or never). A job reads its
 * input with one map task per 128 MB block (at least 1), all at once: the event's copies. A job with reduce output
 * also updates its file, or, with {@code rewrites}, writes a new version of a catalog file drawn from the same
 * popularity model (a job's output dataset; the trace names no output path): its blocks are placed anew by the
 * policy under the servers on at that moment, which is what the geared layouts' write offloading and reflection act
 * on. With {@code outputFileBytes} above 0, a job writes its reduce output bytes, times {@code byteScale}, as
 * new versions of round(output / outputFileBytes) catalog files (at least 1, each drawn as above), so the writes carry
 * the trace's output volume as the reads carry its input volume (the traces' README: write bytes = reduce output).
 * Times scale by {@code timeScale} (1 keeps the trace's 24 hours). Each map task's share of the job's input
 * bytes, times {@code byteScale} (the traces' README: scale bytes to the simulated cluster), is the load it puts on
 * the cluster (SpringFS Sec. 5.2 sizes the active set by such throughput).
 *
 * <p>An optional 7th column is the job's input path (SWIM's FB-2010 input-path data has them). When a line has one,
 * popularity comes from the trace instead of the model: every job naming the same path reads the same catalog file.
 * The k-th distinct path of the trace gets catalog file k (files are i.i.d. in size, so the order carries no bias);
 * past the catalog's size the paths wrap around (k mod files), so a trace with more paths than files shares files
 * rather than failing. Lines without a path still draw a file from the model, from the same catalog.
 */
public final class SwimTraceReader extends AbstractTraceReader {
  private static final int HEAD = 1_000;
  private static final double HEAD_SHARE = 0.35;
  private static final long BLOCK_BYTES = 128L << 20;
  private static final int MAX_TASKS = 1_000;

  private final int files;
  private final SplittableRandom random;
  private final double[] headCumulative;
  private final double timeScale;
  private final java.util.Map<String, Integer> fileByPath = new java.util.HashMap<>();
  private TraceEvent pendingWrite;
  private int pendingWrites;

  private final boolean rewrites;
  private final double byteScale;
  private final double outputFileBytes;

  public SwimTraceReader(String path, int files, long seed, double timeScale) {
    this(path, files, seed, timeScale, false, 1.0);
  }

  /**
   * @param rewrites a job's output writes a new version of a catalog file instead of updating its input
   * @param byteScale multiplies the trace's bytes: simulated servers / the traced cluster's machines
   */
  public SwimTraceReader(String path, int files, long seed, double timeScale, boolean rewrites, double byteScale) {
    this(path, files, seed, timeScale, rewrites, byteScale, 0);
  }

  /**
   * @param outputFileBytes with {@code rewrites}, above 0: a job's scaled output is written as new versions of
   *     round(output / this) files, at least 1; 0: one file per job with output
   */
  public SwimTraceReader(String path, int files, long seed, double timeScale, boolean rewrites, double byteScale,
      double outputFileBytes) {
    this(path, lines(path), files, seed, timeScale, rewrites, byteScale, outputFileBytes);
  }

  /** The same over a trace held in memory (a generated one), named {@code source} in error messages. */
  SwimTraceReader(String source, java.io.BufferedReader lines, int files, long seed, boolean rewrites,
      double byteScale, double outputFileBytes) {
    this(source, lines, files, seed, 1.0, rewrites, byteScale, outputFileBytes);
  }

  private SwimTraceReader(String source, java.io.BufferedReader lines, int files, long seed, double timeScale,
      boolean rewrites, double byteScale, double outputFileBytes) {
    super(source, lines);
    check(files, outputFileBytes);
    this.rewrites = rewrites;
    this.byteScale = byteScale;
    this.outputFileBytes = outputFileBytes;
    this.files = files;
    this.random = new SplittableRandom(seed);
    this.timeScale = timeScale;
    this.headCumulative = headCumulative(files);
  }

  private static void check(int files, double outputFileBytes) {
    if (!(outputFileBytes >= 0) || Double.isInfinite(outputFileBytes)) {
      throw new IllegalArgumentException("output file bytes " + outputFileBytes + " is not allowed: expected >= 0");
    }
    if (files < 1) {
      throw new IllegalArgumentException("files " + files + " is not allowed: expected >= 1");
    }
  }

  /** The cumulative Zipf(1) weights of the model's head, min(1,000, files) files. */
  private static double[] headCumulative(int files) {
    int head = Math.max(1, Math.min(HEAD, files));
    double[] cumulative = new double[head];
    double sum = 0;
    for (int i = 0; i < head; i++) {
      sum += 1.0 / (i + 1);
      cumulative[i] = sum;
    }
    for (int i = 0; i < head; i++) {
      cumulative[i] /= sum;
    }
    return cumulative;
  }

  @Override
  public TraceEvent next() throws IOException {
    if (pendingWrite != null) {
      TraceEvent write = pendingWrite;
      pendingWrite = --pendingWrites > 0
          ? new TraceEvent(write.timeMicros(), TraceEvent.Kind.REWRITE, chooseFile(), 1) : null;
      return write;
    }
    String line = nextLine();
    while (line != null && line.isBlank()) {
      line = nextLine();
    }
    if (line == null) {
      return null;
    }
    String[] fields = line.split("\t");
    if (fields.length < 6 || fields.length > 7) {
      throw malformed("expected 6 or 7 tab-separated fields (job, submit s, gap s, input, shuffle, output bytes,"
          + " optional input path), got " + fields.length);
    }
    long submitMicros = Math.round(number(fields[1], "submit time") * 1e6 * timeScale);
    long input = (long) number(fields[3], "map input bytes");
    long output = (long) number(fields[5], "reduce output bytes");
    int file = fields.length == 7 && !fields[6].isBlank() ? fileOf(fields[6].trim()) : chooseFile();
    int tasks = (int) Math.min(MAX_TASKS, Math.max(1, (input + BLOCK_BYTES - 1) / BLOCK_BYTES));
    if (output > 0) {
      pendingWrite = rewrites ? new TraceEvent(submitMicros, TraceEvent.Kind.REWRITE, chooseFile(), 1)
          : new TraceEvent(submitMicros, TraceEvent.Kind.WRITE, file, 1);
      pendingWrites = rewrites && outputFileBytes > 0
          ? (int) Math.max(1, Math.round(output * byteScale / outputFileBytes)) : 1;
    }
    return new TraceEvent(submitMicros, TraceEvent.Kind.READ, file, tasks, Math.round(input * byteScale / tasks));
  }

  private double number(String field, String what) {
    try {
      double value = Double.parseDouble(field.trim());
      if (!(value >= 0) || Double.isInfinite(value)) {
        throw malformed(what + " " + field + " is not allowed: expected a number >= 0");
      }
      return value;
    } catch (NumberFormatException e) {
      throw malformed(what + " " + field + " is not allowed: expected a number >= 0");
    }
  }

  /** The catalog file of an input path: the k-th distinct path read gets file k mod the catalog's size. */
  private int fileOf(String path) {
    return fileByPath.computeIfAbsent(path, p -> fileByPath.size() % files);
  }

  /** Distinct input paths seen so far (0 for a trace without paths). */
  public int distinctPaths() {
    return fileByPath.size();
  }

  private int chooseFile() {
    if (files <= headCumulative.length || random.nextDouble() < HEAD_SHARE) {
      double u = random.nextDouble();
      int i = java.util.Arrays.binarySearch(headCumulative, u);
      return Math.min(headCumulative.length - 1, i >= 0 ? i : -i - 1);
    }
    return headCumulative.length + random.nextInt(files - headCumulative.length);
  }
}
