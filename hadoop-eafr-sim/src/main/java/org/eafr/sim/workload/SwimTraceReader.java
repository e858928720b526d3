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
 * also updates its file. Times scale by {@code timeScale} (1 keeps the trace's 24 hours).
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
  private TraceEvent pendingWrite;

  public SwimTraceReader(String path, int files, long seed, double timeScale) {
    super(path);
    if (files < 1) {
      throw new IllegalArgumentException("files " + files + " is not allowed: expected >= 1");
    }
    this.files = files;
    this.random = new SplittableRandom(seed);
    this.timeScale = timeScale;
    int head = Math.min(HEAD, files);
    this.headCumulative = new double[head];
    double sum = 0;
    for (int i = 0; i < head; i++) {
      sum += 1.0 / (i + 1);
      headCumulative[i] = sum;
    }
    for (int i = 0; i < head; i++) {
      headCumulative[i] /= sum;
    }
  }

  @Override
  public TraceEvent next() throws IOException {
    if (pendingWrite != null) {
      TraceEvent write = pendingWrite;
      pendingWrite = null;
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
    if (fields.length < 6) {
      throw malformed("expected 6 tab-separated fields (job, submit s, gap s, input, shuffle, output bytes), got "
          + fields.length);
    }
    long submitMicros = Math.round(number(fields[1], "submit time") * 1e6 * timeScale);
    long input = (long) number(fields[3], "map input bytes");
    long output = (long) number(fields[5], "reduce output bytes");
    int file = chooseFile();
    int tasks = (int) Math.min(MAX_TASKS, Math.max(1, (input + BLOCK_BYTES - 1) / BLOCK_BYTES));
    if (output > 0) {
      pendingWrite = new TraceEvent(submitMicros, TraceEvent.Kind.WRITE, file, 1);
    }
    return new TraceEvent(submitMicros, TraceEvent.Kind.READ, file, tasks);
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

  private int chooseFile() {
    if (files <= headCumulative.length || random.nextDouble() < HEAD_SHARE) {
      double u = random.nextDouble();
      int i = java.util.Arrays.binarySearch(headCumulative, u);
      return Math.min(headCumulative.length - 1, i >= 0 ? i : -i - 1);
    }
    return headCumulative.length + random.nextInt(files - headCumulative.length);
  }
}
