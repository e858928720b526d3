package org.eafr.namenode.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.eafr.placement.gear.relayout.RelayoutSettings;
import org.eafr.placement.settings.EafrSettings;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.placement.settings.Range;
import org.eafr.placement.settings.Setting;

/**
 * Every hdfs-site.xml key the NameNode adapters read, in one place: the core's {@link EafrSettings} plus the adapter's
 * own keys (service capacity of a DataNode, the decay of recently directed reads, the random seed, the roles file and
 * the cold paths). Built whole or not at all: a malformed or out-of-range value throws an
 * {@link InvalidSettingException} naming the key, the value and what is allowed, so a misconfigured plugin refuses to
 * start instead of warning and continuing.
 */
public final class NamenodeSettings {
  public static final Setting<Integer> SERVICE_CAPACITY = Setting.ofInt("eafr.server.service-capacity", "c_c",
      "Concurrent reads one DataNode can serve; its load h is the heartbeat xceiver count plus the reads recently"
          + " directed to it.", 64, Range.closed(1, 1_000_000));
  public static final Setting<Long> RECENT_READS_HALF_LIFE_MS = Setting.ofLong("eafr.reads.recent.half-life.ms", "-",
      "Half-life of the counter of reads the NameNode recently directed to a DataNode (part of its queue, Alg. 3),"
          + " in milliseconds.", 10_000L, Range.atLeast(1L));
  public static final Setting<Long> READS_WARM_UP_MS = Setting.ofLong("eafr.reads.warm-up.ms", "-",
      "How long after the gears wake a DataNode the reader ordering lists it after every warm live holder of a"
          + " block (its JVM and caches are cold), in milliseconds; blocks no warm DataNode holds it serves at once."
          + " 0: off. Reloadable: hdfs eafr settings reload.",
      30_000L, Range.closed(0L, 3_600_000L));
  public static final Setting<Long> RANDOM_SEED = Setting.ofLong("eafr.random.seed", "-",
      "Seed of the one random draw per destination choice (Eq. 12), so that placements can be replayed.", 1L,
      Range.atLeast(Long.MIN_VALUE));

  public static final Setting<Integer> MAX_CONCURRENT_ACTIONS = Setting.ofInt("eafr.monitor.max-concurrent-actions",
      "-", "Most replica actions (add, delete, migrate) the replication monitor has in flight at once.", 100,
      Range.closed(1, 1_000_000));
  public static final Setting<Long> MAX_BYTES_PER_SECOND = Setting.ofLong("eafr.monitor.bytes-per-second", "-",
      "Most bytes per second of file data the replication monitor starts copying (adds and migrations), averaged"
          + " over one interval.", 104_857_600L, Range.atLeast(1L));

  public static final Setting<Integer> TRANSFER_MAX_TRACKED = Setting.ofInt("eafr.transfer.max-tracked", "-",
      "Most scheduled DataNode-to-DataNode copies followed at once to time them for the transfer-speed EWMA (Eq. 9);"
          + " copies beyond it are not timed (each poll reads the files of the copies followed, under the namesystem"
          + " read lock, so the bound keeps that work small). 0 times none.", 1_000, Range.closed(0, 10_000));
  public static final Setting<Long> TRANSFER_MIN_SAMPLE_BYTES = Setting.ofLong("eafr.transfer.min-sample-bytes",
      "-", "Blocks shorter than this are not timed: their copy takes about as long as the poll interval and a"
          + " heartbeat, which would dominate the measured speed.", 67_108_864L, Range.atLeast(1L));
  public static final Setting<Long> TRANSFER_POLL_MS = Setting.ofLong("eafr.transfer.poll.ms", "-",
      "How often the NameNode looks for the start (source heartbeat) and end (replica reported) of the copies it"
          + " times, in milliseconds; a completion is seen at most this late.", 200L, Range.closed(10L, 60_000L));
  public static final Setting<Long> TRANSFER_TIMEOUT_MS = Setting.ofLong("eafr.transfer.timeout.ms", "-",
      "A timed copy not completed this long after it was scheduled is dropped without a sample, in milliseconds.",
      600_000L, Range.atLeast(1L));

  public static final Setting<Long> ENERGY_SAMPLE_MS = Setting.ofLong("eafr.energy.sample.ms", "-",
      "How often the NameNode samples each DataNode's power state and utilization for the estimated watts and kWh,"
          + " in milliseconds; a draw is taken to hold until the next sample.", 10_000L,
      Range.closed(100L, 3_600_000L));

  /** Path of the roles file (format in docs/namenode.md); empty means every DataNode is hot. */
  public static final String ROLES_FILE_KEY = "eafr.roles.file";
  /** Comma-separated absolute path prefixes whose new blocks go to standby servers. */
  public static final String COLD_PATHS_KEY = "eafr.cold.paths";

  /** Key prefixes read by other daemons' plugins (the DataNode's), which share hdfs-site.xml with the NameNode. */
  public static final List<String> OTHER_DAEMONS_PREFIXES = List.of("eafr.datanode.");

  private static final List<Setting<?>> ADAPTER = List.of(SERVICE_CAPACITY, RECENT_READS_HALF_LIFE_MS, READS_WARM_UP_MS,
      RANDOM_SEED, MAX_CONCURRENT_ACTIONS, MAX_BYTES_PER_SECOND, TRANSFER_MAX_TRACKED, TRANSFER_MIN_SAMPLE_BYTES, TRANSFER_POLL_MS,
      TRANSFER_TIMEOUT_MS, ENERGY_SAMPLE_MS);

  private final EafrSettings core;
  private final int serviceCapacity;
  private final long recentReadsHalfLifeMillis;
  private final long readsWarmUpMillis;
  private final long randomSeed;
  private final int maxConcurrentActions;
  private final long maxBytesPerSecond;
  private final int transferMaxTracked;
  private final long transferMinSampleBytes;
  private final long transferPollMillis;
  private final long transferTimeoutMillis;
  private final long energySampleMillis;
  private final ColdSleepSettings coldSleep;
  private final String rolesFile;
  private final List<String> coldPaths;
  private final Map<String, String> adapterValues = new LinkedHashMap<>();

  private NamenodeSettings(EafrSettings core, Function<String, String> lookup) {
    this.core = core;
    this.serviceCapacity = record(SERVICE_CAPACITY, lookup);
    this.recentReadsHalfLifeMillis = record(RECENT_READS_HALF_LIFE_MS, lookup);
    this.readsWarmUpMillis = record(READS_WARM_UP_MS, lookup);
    this.randomSeed = record(RANDOM_SEED, lookup);
    this.maxConcurrentActions = record(MAX_CONCURRENT_ACTIONS, lookup);
    this.maxBytesPerSecond = record(MAX_BYTES_PER_SECOND, lookup);
    this.transferMaxTracked = record(TRANSFER_MAX_TRACKED, lookup);
    this.transferMinSampleBytes = record(TRANSFER_MIN_SAMPLE_BYTES, lookup);
    this.transferPollMillis = record(TRANSFER_POLL_MS, lookup);
    this.transferTimeoutMillis = record(TRANSFER_TIMEOUT_MS, lookup);
    this.energySampleMillis = record(ENERGY_SAMPLE_MS, lookup);
    this.coldSleep = ColdSleepSettings.from(lookup);
    if (transferTimeoutMillis < transferPollMillis) {
      throw new InvalidSettingException(TRANSFER_TIMEOUT_MS.key(), String.valueOf(transferTimeoutMillis),
          "must be at least " + TRANSFER_POLL_MS.key() + " (" + transferPollMillis + "), or no copy could be timed");
    }
    String roles = lookup.apply(ROLES_FILE_KEY);
    this.rolesFile = roles == null ? "" : roles.trim();
    this.coldPaths = parseColdPaths(lookup.apply(COLD_PATHS_KEY));
  }

  private <T extends Number & Comparable<T>> T record(Setting<T> setting, Function<String, String> lookup) {
    T value = setting.read(lookup);
    adapterValues.put(setting.key(), String.valueOf(value));
    return value;
  }

  /** Every setting in force, key to value (core, adapter, roles file, cold paths), for the startup log. */
  public Map<String, String> asMap() {
    Map<String, String> all = new LinkedHashMap<>(core.asMap());
    all.putAll(adapterValues);
    all.put(ROLES_FILE_KEY, rolesFile.isEmpty() ? "(none: every DataNode hot)" : rolesFile);
    all.put(COLD_PATHS_KEY, String.join(",", coldPaths));
    return all;
  }

  /** Reads every key from {@code lookup} (e.g. {@code conf::get}); absent keys keep their defaults. */
  public static NamenodeSettings from(Function<String, String> lookup) {
    return new NamenodeSettings(EafrSettings.from(lookup), lookup);
  }

  public static NamenodeSettings defaults() {
    return from(key -> null);
  }

  /** The numeric adapter settings, in documentation order (the core's come from {@link EafrSettings#all()}). */
  public static List<Setting<?>> adapterSettings() {
    return ADAPTER;
  }

  /**
   * The eafr.* keys read through this class: the core's, the adapter's, the roles file, the cold paths, cold sleep and
   * relayout ({@code SettingsDefaults.knownKeys()} adds the gear and power keys).
   */
  public static Set<String> keys() {
    Set<String> keys = new TreeSet<>();
    EafrSettings.all().forEach(setting -> keys.add(setting.key()));
    ADAPTER.forEach(setting -> keys.add(setting.key()));
    keys.add(ROLES_FILE_KEY);
    keys.add(COLD_PATHS_KEY);
    keys.addAll(ColdSleepSettings.keys());
    RelayoutSettings.all().forEach(setting -> keys.add(setting.key()));
    return keys;
  }

  public EafrSettings core() {
    return core;
  }

  public int serviceCapacity() {
    return serviceCapacity;
  }

  public long recentReadsHalfLifeMillis() {
    return recentReadsHalfLifeMillis;
  }

  /** eafr.reads.warm-up.ms: how long a DataNode the gears woke is listed after warm holders; 0: never. */
  public long readsWarmUpMillis() {
    return readsWarmUpMillis;
  }

  public long randomSeed() {
    return randomSeed;
  }

  public int maxConcurrentActions() {
    return maxConcurrentActions;
  }

  public long maxBytesPerSecond() {
    return maxBytesPerSecond;
  }

  public int transferMaxTracked() {
    return transferMaxTracked;
  }

  public long transferMinSampleBytes() {
    return transferMinSampleBytes;
  }

  public long transferPollMillis() {
    return transferPollMillis;
  }

  public long transferTimeoutMillis() {
    return transferTimeoutMillis;
  }

  /** Whether and how EAFR's cold servers' hosts are switched off ({@code eafr.cold.*}). */
  public ColdSleepSettings coldSleep() {
    return coldSleep;
  }

  public long energySampleMillis() {
    return energySampleMillis;
  }

  /** The roles file path, or "" when none is configured. */
  public String rolesFile() {
    return rolesFile;
  }

  /** Cold path prefixes, each absolute and without a trailing slash (except "/" itself). */
  public List<String> coldPaths() {
    return coldPaths;
  }

  /** Whether {@code path} is one of the cold paths or lies below one. */
  public boolean isUnderColdPath(String path) {
    if (path == null) {
      return false;
    }
    for (String prefix : coldPaths) {
      if (prefix.equals("/") || path.equals(prefix) || path.startsWith(prefix + "/")) {
        return true;
      }
    }
    return false;
  }

  private static List<String> parseColdPaths(String raw) {
    if (raw == null || raw.isBlank()) {
      return List.of();
    }
    List<String> paths = new ArrayList<>();
    for (String part : raw.split(",")) {
      String path = part.trim();
      if (path.isEmpty()) {
        continue;
      }
      if (!path.startsWith("/") || path.contains("//")) {
        throw new InvalidSettingException(COLD_PATHS_KEY, raw,
            "a comma-separated list of absolute HDFS paths such as /archive,/logs/old; '" + path + "' is not one");
      }
      paths.add(path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path);
    }
    return Collections.unmodifiableList(paths);
  }
}
