package org.eafr.sim.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;

/**
 * SWIM-like traces whose jobs carry input paths: a SWIM trace's jobs (submit times and bytes as traced), each given a
 * 7th column, its input path, drawn so the paths have the SWIM FB-2010 input-path popularity
 * ({@link InputPathPopularity}: top 1 / 10 / 100 / 1,000 paths 3% / 11% / 24% / 35% of accesses, 92% of paths read
 * once). The path of each job is a seeded shuffle of the exact access counts, so a seed gives one trace and every seed
 * the same shares; which job reads a popular path, and so the bytes its reads carry, differs from seed to seed.
 *
 * <p>{@code java -cp hadoop-eafr-sim/target/classes org.eafr.sim.workload.SwimPathTraceGenerator SEED OUT [TRACE]}
 * writes one (gzip when OUT ends in .gz); the simulator generates the same trace itself for
 * {@code --trace swim-paths[:TRACE]}.
 */
public final class SwimPathTraceGenerator {
  /** The prefix of every generated input path. */
  static final String PATH_PREFIX = "/swim/input/";

  private SwimPathTraceGenerator() {
  }

  /** The lines of {@code trace} (a SWIM .tsv or .tsv.gz, or classpath:NAME) with generated input paths. */
  public static List<String> generate(String trace, long seed) {
    List<String> jobs = new ArrayList<>();
    try (BufferedReader lines = AbstractTraceReader.lines(trace)) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (!line.isBlank()) {
          jobs.add(line);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read trace " + trace, e);
    }
    int[] paths = shuffledPaths(jobs.size(), seed);
    List<String> out = new ArrayList<>(jobs.size());
    for (int i = 0; i < jobs.size(); i++) {
      out.add(withPath(jobs.get(i), paths[i], trace, i + 1));
    }
    return out;
  }

  /** Each job's path rank (0 = the most read), a seeded shuffle of {@link InputPathPopularity}'s counts. */
  static int[] shuffledPaths(int jobs, long seed) {
    int[] counts = InputPathPopularity.accessesByPath(jobs);
    int[] paths = new int[jobs];
    int next = 0;
    for (int rank = 0; rank < counts.length; rank++) {
      for (int c = 0; c < counts[rank]; c++) {
        paths[next++] = rank;
      }
    }
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = jobs - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int swap = paths[i];
      paths[i] = paths[j];
      paths[j] = swap;
    }
    return paths;
  }

  private static String withPath(String line, int rank, String trace, int lineNumber) {
    String[] fields = line.split("\t");
    if (fields.length < 6 || fields.length > 7) {
      throw new IllegalArgumentException("trace " + trace + " line " + lineNumber + ": expected 6 or 7"
          + " tab-separated fields (job, submit s, gap s, input, shuffle, output bytes, optional input path), got "
          + fields.length);
    }
    return String.join("\t", java.util.Arrays.copyOf(fields, 6)) + "\t" + PATH_PREFIX + rank;
  }

  /** Writes the trace of {@code args[2]} (default FB-2010) with seed {@code args[0]} to {@code args[1]}. */
  public static void main(String[] args) throws IOException {
    if (args.length < 2 || args.length > 3) {
      System.err.println("usage: SwimPathTraceGenerator SEED OUT [TRACE]   (TRACE default "
          + TraceFormat.SWIM_PATHS.defaultPath() + ")");
      System.exit(2);
    }
    List<String> lines = generate(args.length == 3 ? args[2] : TraceFormat.SWIM_PATHS.defaultPath(),
        Long.parseLong(args[0]));
    Path out = Path.of(args[1]);
    try (OutputStream file = Files.newOutputStream(out);
        OutputStream stream = out.toString().endsWith(".gz") ? new GZIPOutputStream(file) : file) {
      stream.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }
}
