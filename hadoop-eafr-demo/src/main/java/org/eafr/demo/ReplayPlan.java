package org.eafr.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.eafr.sim.workload.SwimTraceReader;
import org.eafr.sim.workload.TraceEvent;

/**
 * What the replay does and when: a slice of a SWIM trace ({@code demo.trace.start-hour}, {@code demo.trace.hours})
 * compressed into {@code demo.duration.s}. The simulator's {@link SwimTraceReader} maps each job onto a catalog file
 * (its popularity model); a job reads that file once per map task (one per 128 MB of input, at most
 * {@code demo.reads-per-job}) and, when it has reduce output, writes a new output file a quarter as large as a catalog
 * file drawn by the same model (a job's output is mostly smaller than its input in these traces; the quarter keeps the
 * disk traffic of eight engineers' shared machine bounded). File sizes are uniform in [64 KiB,
 * {@code demo.file.max-kb}] from {@code demo.seed}.
 *
 * <p>Example: 6 trace hours in 600 s compress time 36x: a job submitted at 1 h 30 min into the slice runs at 150 s.
 */
public record ReplayPlan(long[] fileBytes, List<Op> ops, long durationMillis) {
  /** One client operation: at {@code atMillis} into the replay, read catalog file {@code file}, or write output
   * {@code file} of {@code bytes}. */
  public record Op(long atMillis, boolean read, int file, long bytes) {
  }

  static final long MIN_FILE_BYTES = 64 << 10;

  public static ReplayPlan of(DemoSettings settings) throws IOException {
    int files = settings.integer("demo.files");
    long seed = settings.longValue("demo.seed");
    long maxBytes = settings.longValue("demo.file.max-kb") << 10;
    long[] sizes = new long[files];
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < files; i++) {
      sizes[i] = MIN_FILE_BYTES + random.nextLong(Math.max(1, maxBytes - MIN_FILE_BYTES + 1));
    }
    long startMicros = settings.longValue("demo.trace.start-hour") * 3_600_000_000L;
    long spanMicros = settings.longValue("demo.trace.hours") * 3_600_000_000L;
    long durationMillis = settings.longValue("demo.duration.s") * 1000;
    int readsPerJob = settings.integer("demo.reads-per-job");
    List<Op> ops = new ArrayList<>();
    int outputs = 0;
    try (SwimTraceReader trace = new SwimTraceReader(tracePath(settings.get("demo.trace")), files, seed, 1.0, true,
        1.0)) {
      for (TraceEvent event = trace.next(); event != null; event = trace.next()) {
        long offset = event.timeMicros() - startMicros;
        if (offset < 0) {
          continue;
        }
        if (offset >= spanMicros) {
          break;
        }
        long at = Math.round((double) offset / spanMicros * durationMillis);
        if (event.kind() == TraceEvent.Kind.READ) {
          for (int i = 0; i < Math.min(event.copies(), readsPerJob); i++) {
            ops.add(new Op(at, true, event.file(), sizes[event.file()]));
          }
        } else {
          ops.add(new Op(at, false, outputs++, Math.max(1, sizes[event.file()] / 4)));
        }
      }
    }
    ops.sort((a, b) -> Long.compare(a.atMillis(), b.atMillis()));
    return new ReplayPlan(sizes, ops, durationMillis);
  }

  /** A file path as given, else a trace shipped in hadoop-eafr-sim's resources ({@code traces/NAME}). */
  static String tracePath(String trace) {
    return Files.isRegularFile(Path.of(trace)) ? trace : "classpath:" + trace;
  }

  public long reads() {
    return ops.stream().filter(Op::read).count();
  }

  public long writes() {
    return ops.size() - reads();
  }

  /**
   * M: the most reads of one file the plan starts at the same instant (one job's map tasks), at most {@code clients}
   * (the client threads that run them). Example: a job of 5 map tasks with 3 reads a job allowed plans 3 reads of its
   * file at once; on 2 clients at most 2 of them run together.
   */
  public int largestBurst(int clients) {
    Map<List<Long>, Integer> bursts = new HashMap<>();
    int largest = 0;
    for (Op op : ops) {
      if (op.read()) {
        largest = Math.max(largest, bursts.merge(List.of(op.atMillis(), (long) op.file()), 1, Integer::sum));
      }
    }
    return Math.min(largest, clients);
  }

  /** Operations planned in each of {@code buckets} equal windows of the replay (the load the trace asks for). */
  public int[] opsPerWindow(int buckets) {
    int[] counts = new int[buckets];
    for (Op op : ops) {
      counts[(int) Math.min(buckets - 1, op.atMillis() * buckets / durationMillis)]++;
    }
    return counts;
  }
}
