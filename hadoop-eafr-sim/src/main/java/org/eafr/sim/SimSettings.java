package org.eafr.sim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eafr.placement.grid.GridSettings;
import org.eafr.placement.settings.EafrSettings;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.placement.settings.Range;
import org.eafr.placement.settings.Setting;

/**
 * The simulator's typed, validated settings (cluster shape, workload knobs, seed) plus the core's {@link EafrSettings}
 * for every {@code eafr.*} key. Values come as strings (command line {@code --set key=value}, scenarios) and are
 * checked by the core's {@link Setting} and {@link Range}, so a bad value is rejected with the key, the value and what
 * is allowed, before anything runs. Defaults are the EAFR Sec. 4 setup.
 */
public final class SimSettings {
  private static final long GB = 1_000_000_000L;

  public static final Setting<Integer> SERVERS = Setting.ofInt("sim.servers", "-",
      "Servers in the cluster (EAFR Sec. 4: 300).", 300, Range.closed(2, 100_000));
  public static final Setting<Integer> RACKS = Setting.ofInt("sim.racks", "-",
      "Racks; servers are spread evenly (EAFR Sec. 4: 10).", 10, Range.closed(1, 10_000));
  public static final Setting<Double> HOT_FRACTION = Setting.ofDouble("sim.hot-fraction", "-",
      "Share of servers that start hot; the rest start standby (EAFR Sec. 4: 0.7).", 0.7, Range.openClosed(0.0, 1.0));
  public static final Setting<Long> SEED = Setting.ofLong("sim.seed", "-",
      "Seed of every random choice of a run.", 1L, Range.atLeast(0L));
  public static final Setting<Double> DURATION_HOURS = Setting.ofDouble("sim.duration.hours", "-",
      "Simulated time (EAFR Sec. 4: 2 days).", 48.0, Range.closed(0.01, 10_000.0));
  public static final Setting<Integer> FILES = Setting.ofInt("sim.files", "-",
      "Files stored (EAFR Sec. 4: 50,000).", 50_000, Range.closed(1, 16_000_000));
  public static final Setting<Integer> READ_FILES = Setting.ofInt("sim.read-files", "-",
      "Files that the synthetic workload reads (CTH trace: 16,566); at most sim.files.", 16_566,
      Range.closed(1, 16_000_000));
  public static final Setting<Integer> CONCURRENCY = Setting.ofInt("sim.concurrency", "x",
      "Each trace read becomes this many concurrent reads of the same file (EAFR Fig. 6: 10 to 60).", 10,
      Range.closed(1, 10_000));
  public static final Setting<Double> ARRIVAL_RATE = Setting.ofDouble("sim.arrival-rate", "-",
      "Mean trace reads per second; the read pattern is stretched or squeezed in time to give it (EAFR Fig. 7:"
          + " 100 to 300).", 100.0, Range.closed(0.001, 1_000_000.0));
  public static final Setting<Double> WRITE_SHARE = Setting.ofDouble("sim.write-share", "-",
      "Share of trace operations that are updates of a read file instead of reads.", 0.05, Range.closed(0.0, 0.9));
  public static final Setting<Long> MIN_FILE_BYTES = Setting.ofLong("sim.file-size.min-bytes", "-",
      "Smallest file (EAFR Sec. 4: 100 KB).", 100_000L, Range.atLeast(1L));
  public static final Setting<Long> MAX_FILE_BYTES = Setting.ofLong("sim.file-size.max-bytes", "-",
      "Largest file (EAFR Sec. 4: 10 GB).", 10 * GB, Range.atLeast(1L));
  public static final Setting<Double> FAILURE_PROBABILITY = Setting.ofDouble("sim.failure-probability", "lambda",
      "Each server's failure probability, for CDRM's replica count (EAFR Sec. 4: 0.1).", 0.1, Range.open(0.0, 1.0));
  public static final Setting<Double> CDRM_AVAILABILITY = Setting.ofDouble("sim.cdrm.availability", "A",
      "CDRM's required file availability (EAFR Sec. 4: 0.98 at lambda 0.1).", 0.98, Range.open(0.0, 1.0));
  public static final Setting<Integer> FAILED_SERVERS = Setting.ofInt("sim.failed-servers", "-",
      "Servers failed together every 30 minutes, each failure recovered (EAFR Fig. 14); 0 = none.", 0,
      Range.closed(0, 10_000));
  public static final Setting<Double> WAKE_SECONDS = Setting.ofDouble("sim.wake.seconds", "-",
      "Time for a sleeping (cold) server to wake when a read or recovery needs it.", 10.0, Range.closed(0.0, 3600.0));

  public static final Setting<Integer> SWIM_REWRITES = Setting.ofInt("sim.swim.rewrites", "-",
      "1: a SWIM job with output writes a new version of a catalog file (new blocks placed under the servers on);"
          + " 0: it sends an update to its input file.", 0, Range.closed(0, 1));
  public static final Setting<Integer> SWIM_OUTPUT_BYTES = Setting.ofInt("sim.swim.output-bytes", "-",
      "With sim.swim.rewrites = 1: 1 writes each job's reduce output bytes (scaled like its input) as new versions of"
          + " catalog files, output / the mean file size of them (at least 1); 0 writes one file per job.", 0,
      Range.closed(0, 1));
  public static final Setting<Double> TRACE_PERIOD_HOURS = Setting.ofDouble("sim.trace.period.hours", "-",
      "0: the trace plays once; above 0: it is replayed every this many hours until sim.duration.hours, replay k"
          + " shifted by k periods and keeping the trace's operations before one period (e.g. 24 with a week's"
          + " duration: the same day seven times).", 0.0, Range.closed(0.0, 10_000.0));
  public static final Setting<Integer> TRACE_PEAK_THROUGHPUT = Setting.ofInt("sim.throughput.trace-peak", "-",
      "1: one server's byte throughput, as the gear controllers, offloading and the ideal count it, is the workload's"
          + " peak total throughput (reads plus every replica's writes, per control period) over the servers, as"
          + " SpringFS Sec. 5.2 derives it; 0: the model's link speed.", 0, Range.closed(0, 1));
  public static final Setting<Integer> CONTROL_SECONDS = Setting.ofInt("sim.gear.control.seconds", "-",
      "Period of a geared policy's gear controller: the load it measures is the mean over this period.", 60,
      Range.closed(1, 86_400));

  public static final Setting<Integer> SPRINGFS_OFFLOAD_SET = Setting.ofInt("sim.springfs.offload-set", "m",
      "SpringFS's offload set: 0 chooses it each control period from the peak write rate (Sec. 3); a number fixes"
          + " it (clamped to [p, servers]).", 0, Range.closed(0, 100_000));

  public static final Setting<Integer> HDFS_REPLICAS = Setting.ofInt("sim.hdfs.replicas", "-",
      "Replicas of a new file in HDFS, Scarlett and AptStore (dfs.replication; EAFR Fig. 5 varies it).", 3,
      Range.closed(1, 100));

  private static final List<Setting<?>> ALL = List.of(SERVERS, RACKS, HOT_FRACTION, SEED, DURATION_HOURS, FILES,
      READ_FILES, CONCURRENCY, ARRIVAL_RATE, WRITE_SHARE, MIN_FILE_BYTES, MAX_FILE_BYTES, FAILURE_PROBABILITY,
      CDRM_AVAILABILITY, FAILED_SERVERS, WAKE_SECONDS, HDFS_REPLICAS, SWIM_REWRITES, SWIM_OUTPUT_BYTES,
      TRACE_PERIOD_HOURS, TRACE_PEAK_THROUGHPUT, CONTROL_SECONDS, SPRINGFS_OFFLOAD_SET);

  /** The grid signal a run is accounted against (a file, or {@code classpath:grid/NAME.csv}); none by default. */
  public static final String GRID_SIGNAL = "sim.grid.signal";
  /** The UTC instant the run's time 0 falls on in the grid signal (ISO 8601, e.g. 2023-01-11T00:00:00Z). */
  public static final String GRID_START = "sim.grid.start";

  private final Map<Setting<?>, Number> values;
  private final EafrSettings eafr;
  private final Map<String, String> gridRaw;
  private final GridSettings grid;

  private SimSettings(Map<Setting<?>, Number> values, EafrSettings eafr, Map<String, String> gridRaw) {
    this.values = Collections.unmodifiableMap(new HashMap<>(values));
    this.eafr = eafr;
    this.gridRaw = Collections.unmodifiableMap(new LinkedHashMap<>(gridRaw));
    this.grid = GridSettings.of(gridRaw);
    gridStartMillis();
  }

  public static SimSettings defaults() {
    return of(Map.of());
  }

  /**
   * Settings from {@code key=value} pairs: {@code sim.*} keys here, {@code eafr.*} keys to {@link EafrSettings}. An
   * unknown key, a malformed or out-of-range value, or inconsistent values throw {@link InvalidSettingException}.
   */
  public static SimSettings of(Map<String, String> raw) {
    Map<Setting<?>, Number> values = new HashMap<>();
    for (Setting<?> setting : ALL) {
      values.put(setting, setting.defaultValue());
    }
    EafrSettings.Builder eafr = EafrSettings.builder();
    Map<String, String> gridRaw = new LinkedHashMap<>();
    for (Map.Entry<String, String> entry : new java.util.TreeMap<>(raw).entrySet()) {
      String key = entry.getKey();
      if (key.startsWith(GridSettings.PREFIX) || key.equals(GRID_SIGNAL) || key.equals(GRID_START)) {
        gridRaw.put(key, entry.getValue());
        continue;
      }
      if (key.startsWith("eafr.")) {
        eafr.set(key, entry.getValue());
        continue;
      }
      Setting<?> setting = ALL.stream().filter(s -> s.key().equals(key)).findFirst().orElseThrow(
          () -> new InvalidSettingException(key, entry.getValue(), "unknown key; known keys are " + keys()
              + " and the eafr.* keys of docs/configuration.md"));
      values.put(setting, setting.parse(entry.getValue().trim()));
    }
    SimSettings settings = new SimSettings(values, eafr.build(), gridRaw);
    settings.checkRelations();
    return settings;
  }

  /** A copy with {@code overrides} applied on top of this object's values. */
  public SimSettings with(Map<String, String> overrides) {
    Map<String, String> merged = new LinkedHashMap<>(asMap());
    merged.putAll(eafr.asMap());
    merged.putAll(gridRaw);
    merged.putAll(overrides);
    return of(merged);
  }

  private void checkRelations() {
    if (readFiles() > files()) {
      throw new InvalidSettingException(READ_FILES.key(), String.valueOf(readFiles()),
          "must be at most " + FILES.key() + " = " + files());
    }
    if (racks() > servers()) {
      throw new InvalidSettingException(RACKS.key(), String.valueOf(racks()),
          "must be at most " + SERVERS.key() + " = " + servers());
    }
    if (maxFileBytes() < minFileBytes()) {
      throw new InvalidSettingException(MAX_FILE_BYTES.key(), String.valueOf(maxFileBytes()),
          "must be at least " + MIN_FILE_BYTES.key() + " = " + minFileBytes());
    }
    if (failedServers() >= servers()) {
      throw new InvalidSettingException(FAILED_SERVERS.key(), String.valueOf(failedServers()),
          "must be below " + SERVERS.key() + " = " + servers());
    }
  }

  public static List<Setting<?>> all() {
    return ALL;
  }

  private static String keys() {
    List<String> keys = new ArrayList<>();
    for (Setting<?> setting : ALL) {
      keys.add(setting.key());
    }
    return String.join(", ", keys);
  }

  @SuppressWarnings("unchecked")
  private <T extends Number & Comparable<T>> T get(Setting<T> setting) {
    return (T) values.get(setting);
  }

  /** The carbon- and price-aware scheduling settings ({@code eafr.grid.*}). */
  public GridSettings grid() {
    return grid;
  }

  /** The grid signal's location ({@value #GRID_SIGNAL}), or null when the run has none. */
  public String gridSignal() {
    String signal = gridRaw.get(GRID_SIGNAL);
    return signal == null || signal.isBlank() ? null : signal.trim();
  }

  /** Where the run's time 0 falls in the grid signal, UTC epoch milliseconds ({@value #GRID_START}; default 0). */
  public long gridStartMillis() {
    String start = gridRaw.get(GRID_START);
    if (start == null || start.isBlank()) {
      return 0;
    }
    try {
      return java.time.Instant.parse(start.trim()).toEpochMilli();
    } catch (java.time.format.DateTimeParseException e) {
      throw new InvalidSettingException(GRID_START, start, "a UTC instant in ISO 8601, e.g. 2023-01-11T00:00:00Z");
    }
  }

  public int servers() {
    return get(SERVERS);
  }

  public int racks() {
    return get(RACKS);
  }

  public double hotFraction() {
    return get(HOT_FRACTION);
  }

  public long seed() {
    return get(SEED);
  }

  public long durationMicros() {
    return Math.round(get(DURATION_HOURS) * 3_600_000_000.0);
  }

  public int files() {
    return get(FILES);
  }

  public int readFiles() {
    return get(READ_FILES);
  }

  public int concurrency() {
    return get(CONCURRENCY);
  }

  public double arrivalRate() {
    return get(ARRIVAL_RATE);
  }

  public double writeShare() {
    return get(WRITE_SHARE);
  }

  public long minFileBytes() {
    return get(MIN_FILE_BYTES);
  }

  public long maxFileBytes() {
    return get(MAX_FILE_BYTES);
  }

  public double failureProbability() {
    return get(FAILURE_PROBABILITY);
  }

  public double cdrmAvailability() {
    return get(CDRM_AVAILABILITY);
  }

  public int failedServers() {
    return get(FAILED_SERVERS);
  }

  public long wakeMicros() {
    return Math.round(get(WAKE_SECONDS) * 1_000_000.0);
  }

  public boolean swimRewrites() {
    return get(SWIM_REWRITES) == 1;
  }

  /** Whether a SWIM job writes its reduce output bytes (as several catalog files) instead of one file. */
  public boolean swimOutputBytes() {
    return get(SWIM_OUTPUT_BYTES) == 1;
  }

  /** How often the trace is replayed, microseconds ({@code sim.trace.period.hours}); 0 = it plays once. */
  public long tracePeriodMicros() {
    return Math.round(get(TRACE_PERIOD_HOURS) * 3_600_000_000.0);
  }

  /** Whether one server's byte throughput is the workload's peak over the servers (SpringFS Sec. 5.2). */
  public boolean tracePeakThroughput() {
    return get(TRACE_PEAK_THROUGHPUT) == 1;
  }

  public long controlMicros() {
    return get(CONTROL_SECONDS) * 1_000_000L;
  }

  public int springFsOffloadSet() {
    return get(SPRINGFS_OFFLOAD_SET);
  }

  /** The mean of the file-size distribution (log-uniform between the smallest and largest file). */
  public double meanFileBytes() {
    double min = minFileBytes();
    double max = maxFileBytes();
    return max == min ? min : (max - min) / Math.log(max / min);
  }

  public int hdfsReplicas() {
    return get(HDFS_REPLICAS);
  }

  public EafrSettings eafr() {
    return eafr;
  }

  /** sim.* key to value, in documentation order. */
  public Map<String, String> asMap() {
    Map<String, String> map = new LinkedHashMap<>();
    for (Setting<?> setting : ALL) {
      map.put(setting.key(), String.valueOf(values.get(setting)));
    }
    return map;
  }
}
