package org.eafr.sim;

import java.io.IOException;
import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import org.eafr.sim.stats.RunResult;

/**
 * The simulator's speed benchmark: runs a named workload and prints simulated events per second, wall time and peak
 * memory: the heap pools' peak usage (which counts garbage not yet collected, so it grows with -Xmx) and the most heap
 * left in use after any collection (the data the runs hold, plus old garbage a young collection leaves). This is the
 * one place that reads the wall clock, and only to time the runs. Workloads:
 * <ul>
 *   <li>{@code eafr}: the full 2-day "eafr" scenario, all five policies, 2 threads;</li>
 *   <li>{@code large}: 3,000 servers in 100 racks, 500,000 files (165,660 read), 1,000 reads/s, 1 day, EAFR;</li>
 *   <li>{@code baseline}: the same as {@code eafr} for 4 hours and hdfs only, the ratio's reference;</li>
 *   <li>{@code gears}: the "gears" scenario, every policy on the three SWIM traces, 24 h each, 300 servers;</li>
 *   <li>{@code large-geared}: rabbit on 3,000 servers, 500,000 files, SWIM FB-2010 (a 3,000-machine trace), 1 day;
 *       {@code large-eafr-geared}: the same with eafr-geared;</li>
 *   <li>{@code huge-eafr-geared}, {@code huge-springfs}: eafr-geared or springfs on 10,000 servers, 10^7 files
 *       ({@code -Dsim.bench.files=N} for another number), SWIM FB-2010, 1 day.</li>
 * </ul>
 */
public final class Bench {
  /** The figures a huge run prints besides its speed. */
  private static final List<String> FIGURES = List.of("machine_hours", "machine_hours_vs_ideal", "energy_kwh_day",
      "read_mean_ms", "read_p99_ms", "failed_reads", "failed_writes", "migrated_gb", "gear_shifts", "fill");

  /** Files of the huge runs unless {@code -Dsim.bench.files} says otherwise. */
  private static final int HUGE_FILES = 10_000_000;

  private Bench() {
  }

  public static void main(String[] args) {
    List<String> names = args.length == 0 ? List.of("baseline", "eafr", "large") : List.of(args);
    double baselineRate = Double.NaN;
    for (String name : names) {
      double rate = run(name);
      if (name.equals("baseline")) {
        baselineRate = rate;
      } else if (!Double.isNaN(baselineRate)) {
        System.out.printf(Locale.ROOT, "  events/s relative to baseline (hdfs, 4 h, same process): %.2f%n",
            rate / baselineRate);
      }
    }
  }

  /** The most heap in use right after a collection, over the whole process. */
  private static final class HeapAfterCollection {
    private static final Set<String> HEAP_POOLS = ManagementFactory.getMemoryPoolMXBeans().stream()
        .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName)
        .collect(Collectors.toUnmodifiableSet());
    private static volatile long peakBytes;

    static {
      for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
        ((NotificationEmitter) collector).addNotificationListener((notification, handback) -> {
          if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            long used = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData()).getGcInfo()
                .getMemoryUsageAfterGc().entrySet().stream().filter(e -> HEAP_POOLS.contains(e.getKey()))
                .mapToLong(e -> e.getValue().getUsed()).sum();
            peakBytes = Math.max(peakBytes, used);
          }
        }, null, null);
      }
    }

    static double peakMb() {
      return peakBytes / 1e6;
    }
  }

  private static double run(String name) {
    HeapAfterCollection.peakMb(); // starts watching before the runs
    Scenario scenario = Scenarios.get("eafr");
    Map<String, String> overrides;
    List<String> policies;
    String trace = "synthetic";
    switch (name) {
      case "gears" -> {
        scenario = Scenarios.get("gears").only(List.of("FB-2009-0", "FB-2009-1", "FB-2010"));
        overrides = Map.of();
        policies = List.of();
        trace = null;
      }
      case "large-geared", "large-eafr-geared" -> {
        overrides = Map.of("sim.servers", "3000", "sim.racks", "100", "sim.files", "500000", "sim.read-files",
            "165660", "sim.concurrency", "1", "sim.duration.hours", "24", "sim.swim.rewrites", "1",
            "sim.file-size.max-bytes", "2000000000");
        policies = List.of(name.equals("large-geared") ? "rabbit" : "eafr-geared");
        trace = "swim:classpath:FB-2010_samples_24_times_1hr_0.tsv.gz";
      }
      case "huge-eafr-geared", "huge-springfs" -> {
        overrides = hugeOverrides(Integer.getInteger("sim.bench.files", HUGE_FILES));
        policies = List.of(name.substring("huge-".length()));
        trace = "swim:classpath:FB-2010_samples_24_times_1hr_0.tsv.gz";
      }
      case "eafr" -> {
        overrides = Map.of();
        policies = List.of();
      }
      case "baseline" -> {
        overrides = Map.of("sim.duration.hours", "4");
        policies = List.of("hdfs");
      }
      case "large" -> {
        overrides = Map.of("sim.servers", "3000", "sim.racks", "100", "sim.files", "500000", "sim.read-files",
            "165660", "sim.arrival-rate", "1000", "sim.concurrency", "1", "sim.duration.hours", "24");
        policies = List.of("eafr");
      }
      default -> throw new IllegalArgumentException("bench " + name + " is not allowed: expected baseline, eafr,"
          + " large, gears, large-geared, large-eafr-geared, huge-eafr-geared or huge-springfs");
    }
    long start = System.nanoTime();
    List<RunResult> results = new Runner(2,
        runs -> new ProgressBar(System.err, runs, ProgressBar.Mode.forStderr()))
        .run(scenario, overrides, policies, trace);
    double seconds = (System.nanoTime() - start) / 1e9;
    double events = 0;
    for (RunResult result : results) {
      events += result.get("events");
    }
    System.out.printf(Locale.ROOT, "bench %s: %d runs, %.0f events in %.1f s wall: %.0f events/s; peak heap %.0f MB;"
        + " peak heap after a collection %.0f MB%s; peak RSS %s%n", name, results.size(), events, seconds,
        events / seconds, peakHeapMb(), HeapAfterCollection.peakMb(), perFile(overrides), peakRss());
    if (name.startsWith("huge-")) {
      results.forEach(Bench::printFigures);
    }
    return events / seconds;
  }

  /** The day's figures of a huge run, for the speed table beside its time. */
  private static void printFigures(RunResult result) {
    StringBuilder line = new StringBuilder("  " + result.policy() + ":");
    for (String metric : FIGURES) {
      Double value = result.metrics().get(metric);
      if (value != null) {
        line.append(' ').append(metric).append('=').append(RunResult.format(value));
      }
    }
    System.out.println(line);
  }

  /**
   * 10,000 servers in 334 racks, SWIM FB-2010 (rewrites on), 1 day, {@code files} files (a third of them read) of
   * 100 KB to 300 MB, log-uniform: about 22% of raw capacity at 10^7 files with 3 replicas, near the large runs' 20%.
   * Gear groups of 10 servers (eafr.gear.group-size): a gear switches 10 servers at a time, and each of the 10
   * recovery groups deals its blocks among 135 primaries (the equal-work layout's deal is O(primaries) per block: with
   * g = 1, dealing 10^7 blocks among all 1,353 primaries costs 67 times the large runs' 500,000 among 406).
   */
  private static Map<String, String> hugeOverrides(int files) {
    return Map.of("sim.servers", "10000", "sim.racks", "334", "sim.files", String.valueOf(files), "sim.read-files",
        String.valueOf(Math.max(1, Math.round(files * 0.33132))), "sim.concurrency", "1", "sim.duration.hours", "24",
        "sim.swim.rewrites", "1", "sim.file-size.max-bytes", "300000000", "eafr.gear.group-size", "10");
  }

  /** The peak heap after a collection per file, when the bench names its files. */
  private static String perFile(Map<String, String> overrides) {
    String files = overrides.get("sim.files");
    return files == null ? "" : String.format(Locale.ROOT, " (%.0f bytes per file)",
        HeapAfterCollection.peakMb() * 1e6 / Integer.parseInt(files));
  }

  private static double peakHeapMb() {
    double bytes = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        bytes += pool.getPeakUsage().getUsed();
      }
    }
    return bytes / 1e6;
  }

  private static String peakRss() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          return line.substring("VmHWM:".length()).trim();
        }
      }
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
    return "unknown";
  }
}
