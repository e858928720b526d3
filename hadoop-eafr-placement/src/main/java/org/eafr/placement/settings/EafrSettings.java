package org.eafr.placement.settings;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.eafr.placement.power.PowerModel;

/**
 * Every EAFR threshold, typed and validated when built. Defaults are EAFR Sec. 4 (tau_u=20, tau_l=10, sigma_u=8,
 * sigma_l=1, r=2, eps=1, tau_c=0.8, storage reserve 10 GB); where the paper gives no value the choice is written in
 * docs/settings.md. The same keys are read from hdfs-site.xml by the NameNode adapter and from the simulator config.
 *
 * <p>A value out of range, malformed, or inconsistent with another (eps must be below r, eta_l below eta_h, tau_l at
 * most tau_u, sigma_l at most sigma_u, P_off at most P_idle at most P_peak) is rejected with an {@link InvalidSettingException} naming the key, the value
 * and what is allowed. Nothing is half-applied: the object is built whole or not at all.
 */
public final class EafrSettings {
  private static final long GIB = 1L << 30;

  public static final Setting<Long> INTERVAL_MS = Setting.ofLong("eafr.interval.ms", "T",
      "Length of one read-counting and replication interval, in milliseconds.", 3_600_000L, Range.atLeast(1_000L));
  public static final Setting<Integer> MAX_TRACKED_FILES = Setting.ofInt("eafr.reads.max-tracked-files", "-",
      "Most files whose reads are counted per interval (about 80 bytes of heap each); beyond it the least read are dropped"
          + " and bounded.", 1_000_000, Range.closed(1, 100_000_000));
  public static final Setting<Double> HOT_MEAN_READS = Setting.ofDouble("eafr.hot.mean-replica-reads", "tau_u",
      "A file is hot when its reads per replica in one interval exceed this (Eq. 2).", 20.0, Range.greaterThan(0.0));
  public static final Setting<Double> HOT_REPLICA_READS = Setting.ofDouble("eafr.hot.replica-reads", "sigma_u",
      "A replica is busy when it serves more reads than this in one interval (Eq. 3).", 8.0, Range.greaterThan(0.0));
  public static final Setting<Double> COLD_MEAN_READS = Setting.ofDouble("eafr.cold.mean-replica-reads", "tau_l",
      "A file may be cold when its reads per replica in one interval are below this (Eq. 4).", 10.0,
      Range.greaterThan(0.0));
  public static final Setting<Double> COLD_REPLICA_READS = Setting.ofDouble("eafr.cold.replica-reads", "sigma_l",
      "A replica is idle when it serves fewer reads than this in one interval (Eq. 5).", 1.0, Range.greaterThan(0.0));
  public static final Setting<Double> REPLICA_FRACTION = Setting.ofDouble("eafr.replica-fraction", "gamma_v",
      "Fraction of a file's replicas that must be busy (Eq. 3) or idle (Eq. 5).", 0.5, Range.open(0.0, 1.0));
  public static final Setting<Integer> MIN_REPLICAS = Setting.ofInt("eafr.min-replicas", "r",
      "Minimum replicas of every file, on any servers.", 2, Range.closed(1, 32));
  public static final Setting<Integer> MIN_HOT_REPLICAS = Setting.ofInt("eafr.min-hot-replicas", "eps",
      "Minimum replicas of every file on hot servers; must be below r.", 1, Range.closed(0, 31));
  public static final Setting<Double> OVERLOADED_FRACTION = Setting.ofDouble("eafr.overloaded-fraction", "gamma_s",
      "A hot file gains a replica when more than this fraction of its replica servers is overloaded (Eq. 6).", 0.5,
      Range.open(0.0, 1.0));
  public static final Setting<Double> OVERLOAD_THRESHOLD = Setting.ofDouble("eafr.overload-threshold", "tau_c",
      "A server is overloaded when concurrent reads / service capacity exceed this.", 0.8,
      Range.openClosed(0.0, 1.0));
  public static final Setting<Long> STORAGE_RESERVE_BYTES = Setting.ofLong("eafr.storage-reserve.bytes", "tau_s",
      "A server takes no more replicas once its free storage is below this; a standby server then turns cold (Eq. 8).",
      10 * GIB, Range.atLeast(0L));
  public static final Setting<Double> EWMA_ALPHA = Setting.ofDouble("eafr.ewma.alpha", "alpha",
      "Weight of the newest window in the transfer-speed EWMA (Eq. 9).", 0.3, Range.open(0.0, 1.0));
  public static final Setting<Long> EWMA_WINDOW_MS = Setting.ofLong("eafr.ewma.window.ms", "T (Eq. 9)",
      "Window over which transfer speeds are averaged before entering the EWMA, in milliseconds.", 60_000L,
      Range.atLeast(1L));
  public static final Setting<Double> SPEED_WEIGHT = Setting.ofDouble("eafr.destination.speed-weight", "beta",
      "Weight of the transfer-speed rank against the spare-capacity rank when choosing a destination (Eq. 11).", 0.5,
      Range.closed(0.0, 1.0));
  public static final Setting<Integer> DESTINATION_SAMPLE_SIZE = Setting.ofInt("eafr.destination.sample-size", "d",
      "Eligible servers drawn at random for one destination choice, which Eq. 10-12 then rank; 0 ranks every"
          + " eligible server (the paper's literal rule, O(servers) per choice).", 16, Range.closed(0, 1_000_000));
  public static final Setting<Double> FINISH_RATIO = Setting.ofDouble("eafr.destination.finish-ratio", "r",
      "When at least 1, destinations are ranked by expected finish time (bytes already scheduled to them and not yet"
          + " received, plus the copy, over the Eq. 9 speed) instead of speed alone, and a candidate expected to"
          + " finish later than r times the soonest is not drawn; 0 ranks by speed alone (Eq. 10-12 as written).",
      0.0, Range.closed(0.0, 1_000.0));
  public static final Setting<Double> RATE_LOW = Setting.ofDouble("eafr.rate.low-threshold", "eta_l",
      "Below this share of free receive bandwidth, senders are slowed down (Eq. 14).", 0.2, Range.open(0.0, 1.0));
  public static final Setting<Double> RATE_HIGH = Setting.ofDouble("eafr.rate.high-threshold", "eta_h",
      "Above this share of free receive bandwidth, senders are sped up (Eq. 15).", 0.5, Range.open(0.0, 1.0));

  public static final Setting<Integer> GEAR_PRIMARIES = Setting.ofInt("eafr.gear.primaries", "p",
      "Primary servers of the equal-work layout, which alone keep every block available (Rabbit Sec. 3.1); 0 means"
          + " N / e^(r-1), rounded down to a multiple of the gear group size.", 0, Range.closed(0, 1_000_000));
  public static final Setting<Integer> GEAR_GROUP_SIZE = Setting.ofInt("eafr.gear.group-size", "g",
      "Servers per gear group, the unit the layout switches on and off; also the number of recovery groups (Rabbit"
          + " Sec. 3.5). p must be a multiple of it.", 1, Range.closed(1, 1_000_000));
  public static final Setting<Integer> GEAR_REPLICAS = Setting.ofInt("eafr.gear.replicas", "r (layout)",
      "Replicas per block the geared layout is built for; its spread is about p e^(r-1) servers (Eq. 3).", 3,
      Range.closed(2, 32));
  public static final Setting<Integer> GEAR_CAPACITY_AWARE = Setting.ofInt("eafr.gear.capacity-aware", "-",
      "1 sizes the equal-work layout by bytes on disks of different sizes: its p primaries take blocks in proportion"
          + " to their storage capacities, and the expansion chain puts the largest servers first (equal capacities"
          + " keep the rack-interleaved order; a NameNode records each DataNode's capacity when it fixes or extends"
          + " the chain, and a chain recorded without capacities deals equal shares); in the simulator, with"
          + " eafr.gear.primaries 0, p is sized to hold one copy of its files plus eafr.gear.capacity-headroom. 0 deals"
          + " every primary the same block count.", 0, Range.closed(0, 1));
  public static final Setting<Double> GEAR_CAPACITY_HEADROOM = Setting.ofDouble("eafr.gear.capacity-headroom", "-",
      "Spare share of one copy that p primaries sized by capacity must hold besides it, for writes after they were"
          + " sized (p holds one copy times 1 + this); also the margin with which `hdfs eafr status` and `plan` say how"
          + " far to grow p. By capacity, SpringFS's offload targets past the primaries also keep this share of their"
          + " usable bytes free.", 0.05,
      Range.closed(0.0, 10.0));
  public static final Setting<Integer> GEAR_MIGRATION_THRESHOLD = Setting.ofInt("eafr.gear.migration-threshold",
      "T", "Passive migration (SpringFS): each resizing interval (a NameNode's eafr.gear.auto.interval.ms) moves 1/T"
          + " of the blocks owed to re-integrated servers, so every migration ends within T intervals; 1 is aggressive"
          + " migration.", 10, Range.closed(1, 10_000));
  public static final Setting<Integer> GEAR_REFLECTION_BATCH_BLOCKS = Setting.ofInt(
      "eafr.gear.reflection.batch-blocks", "-", "Blocks one server sends to one woken server over one connection when"
          + " reflecting low-gear writes after a gear-up (Accordion's batch transfer).", 64, Range.closed(1, 100_000));
  public static final Setting<Integer> GEAR_ACCORDION_LOWEST_GROUP = Setting.ofInt(
      "eafr.gear.accordion.lowest-group", "n_0", "Servers in Accordion's lowest group (gear 0), which keeps two copies"
          + " of every block by chained declustering; 0 means N / 5, at least 3 (the simulator's 60 of 300), so that a"
          + " failure there leaves a server to copy to; 1 is not allowed, and at most N when the layout is built.", 0, Range.closed(0, 1_000_000));
  public static final Setting<Double> GEAR_ACCORDION_GROWTH = Setting.ofDouble("eafr.gear.accordion.growth", "-",
      "Each of Accordion's groups above the lowest has this many times the servers of the one below (2: 60, 120,"
          + " 120 of 300); the highest takes the rest.", 2.0, Range.closed(1.0, 1_000.0));
  public static final Setting<Double> GEAR_TARGET_UTILIZATION = Setting.ofDouble("eafr.gear.target-utilization", "u",
      "The gear controller runs the lowest gear whose servers on, kept this busy, carry the measured load.", 0.8,
      Range.openClosed(0.0, 1.0));
  public static final Setting<Double> GEAR_DOWN_MARGIN = Setting.ofDouble("eafr.gear.down-margin", "h",
      "Hysteresis: a lower gear is chosen only when it carries the load at u - h; must be below u.", 0.1,
      Range.closedOpen(0.0, 1.0));
  public static final Setting<Long> GEAR_MIN_DWELL_MS = Setting.ofLong("eafr.gear.min-dwell.ms", "-",
      "No gear-down within this time of the last shift, in milliseconds (gear-ups are never delayed).", 300_000L,
      Range.atLeast(0L));
  public static final Setting<Integer> GEAR_FORECAST_DAYS = Setting.ofInt("eafr.gear.forecast.days", "-",
      "Earlier days whose busiest load in the same hour raises the gear controller's demand; 0 disables the"
          + " forecast.", 0, Range.closed(0, 28));
  public static final Setting<Double> GEAR_EAFR_READ_FLOOR = Setting.ofDouble("eafr.gear.eafr.read-floor", "f_L",
      "The eafr-geared policy only (in the simulator and a NameNode): the share of the servers that hold every"
          + " block's r replicas and never sleep (the read floor: a job's fan-out finds r replicas awake, as in HDFS);"
          + " the equal-work layout spreads over them, and neither the gear controller nor hdfs eafr gear goes lower. 0 disables it (the layout spreads over every server and only"
          + " gear 0 must stay on).", 0.0, Range.closed(0.0, 1.0));

  public static final Setting<Double> ENERGY_IDLE_WATTS = Setting.ofDouble("eafr.energy.idle-watts", "P_idle",
      "Draw of one awake DataNode at 0 % utilization, in watts, for the energy estimate (EAFR Table 2: 93.7 W)."
          + " Between idle and peak the draw follows Table 2's curve, scaled.", 93.7, Range.openClosed(0.0, 100_000.0));
  public static final Setting<Double> ENERGY_PEAK_WATTS = Setting.ofDouble("eafr.energy.peak-watts", "P_peak",
      "Draw of one awake DataNode at 100 % utilization, in watts (EAFR Table 2: 135 W); at least the idle draw.",
      135.0, Range.openClosed(0.0, 100_000.0));
  public static final Setting<Double> ENERGY_OFF_WATTS = Setting.ofDouble("eafr.energy.off-watts", "P_off",
      "Draw of one sleeping or powered-off DataNode, in watts (ACPI S3, or off with its BMC running; our assumption,"
          + " not the paper's); at most the idle draw.", PowerModel.DEFAULT_SLEEP_WATTS, Range.closed(0.0, 100_000.0));

  private static final List<Setting<?>> ALL = List.of(INTERVAL_MS, MAX_TRACKED_FILES, HOT_MEAN_READS,
      HOT_REPLICA_READS, COLD_MEAN_READS, COLD_REPLICA_READS, REPLICA_FRACTION, MIN_REPLICAS, MIN_HOT_REPLICAS,
      OVERLOADED_FRACTION, OVERLOAD_THRESHOLD, STORAGE_RESERVE_BYTES, EWMA_ALPHA, EWMA_WINDOW_MS, SPEED_WEIGHT,
      DESTINATION_SAMPLE_SIZE, FINISH_RATIO, RATE_LOW, RATE_HIGH, GEAR_PRIMARIES, GEAR_GROUP_SIZE, GEAR_REPLICAS,
      GEAR_CAPACITY_AWARE, GEAR_CAPACITY_HEADROOM, GEAR_MIGRATION_THRESHOLD, GEAR_REFLECTION_BATCH_BLOCKS, GEAR_ACCORDION_LOWEST_GROUP, GEAR_ACCORDION_GROWTH,
      GEAR_TARGET_UTILIZATION, GEAR_DOWN_MARGIN, GEAR_MIN_DWELL_MS, GEAR_FORECAST_DAYS, GEAR_EAFR_READ_FLOOR,
      ENERGY_IDLE_WATTS, ENERGY_PEAK_WATTS, ENERGY_OFF_WATTS);

  private final Map<Setting<?>, Number> values;

  private EafrSettings(Map<Setting<?>, Number> values) {
    this.values = Collections.unmodifiableMap(new HashMap<>(values));
  }

  /** Every setting, in documentation order. */
  public static List<Setting<?>> all() {
    return ALL;
  }

  /** The EAFR Sec. 4 defaults. */
  public static EafrSettings defaults() {
    return builder().build();
  }

  /** Reads every key from {@code lookup} (e.g. {@code conf::get}); absent keys keep their defaults. */
  public static EafrSettings from(Function<String, String> lookup) {
    Builder builder = builder();
    for (Setting<?> setting : ALL) {
      builder.values.put(setting, setting.read(lookup));
    }
    return builder.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A builder seeded with this object's values. */
  public Builder toBuilder() {
    Builder builder = new Builder();
    builder.values.putAll(values);
    return builder;
  }

  public long intervalMillis() {
    return get(INTERVAL_MS);
  }

  public int maxTrackedFiles() {
    return get(MAX_TRACKED_FILES);
  }

  public double hotMeanReads() {
    return get(HOT_MEAN_READS);
  }

  public double hotReplicaReads() {
    return get(HOT_REPLICA_READS);
  }

  public double coldMeanReads() {
    return get(COLD_MEAN_READS);
  }

  public double coldReplicaReads() {
    return get(COLD_REPLICA_READS);
  }

  public double replicaFraction() {
    return get(REPLICA_FRACTION);
  }

  public int minReplicas() {
    return get(MIN_REPLICAS);
  }

  public int minHotReplicas() {
    return get(MIN_HOT_REPLICAS);
  }

  public double overloadedFraction() {
    return get(OVERLOADED_FRACTION);
  }

  public double overloadThreshold() {
    return get(OVERLOAD_THRESHOLD);
  }

  public long storageReserveBytes() {
    return get(STORAGE_RESERVE_BYTES);
  }

  public double ewmaAlpha() {
    return get(EWMA_ALPHA);
  }

  public long ewmaWindowMillis() {
    return get(EWMA_WINDOW_MS);
  }

  public double speedWeight() {
    return get(SPEED_WEIGHT);
  }

  /** r of {@code eafr.destination.finish-ratio}: 0, or at least 1. */
  public double finishRatio() {
    return get(FINISH_RATIO);
  }

  public int destinationSampleSize() {
    return get(DESTINATION_SAMPLE_SIZE);
  }

  public double rateLowThreshold() {
    return get(RATE_LOW);
  }

  public double rateHighThreshold() {
    return get(RATE_HIGH);
  }

  /** The value of one setting. */
  @SuppressWarnings("unchecked")
  public <T extends Number & Comparable<T>> T get(Setting<T> setting) {
    return (T) values.get(setting);
  }

  /** Key to value, in documentation order: what a run used, for reports. */
  public Map<String, String> asMap() {
    Map<String, String> map = new LinkedHashMap<>();
    for (Setting<?> setting : ALL) {
      map.put(setting.key(), String.valueOf(values.get(setting)));
    }
    return map;
  }

  @Override
  public String toString() {
    return asMap().toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EafrSettings && values.equals(((EafrSettings) o).values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  /** Collects values; {@link #build()} checks each range and the relations between settings. */
  public static final class Builder {
    private final Map<Setting<?>, Number> values = new HashMap<>();

    private Builder() {
      for (Setting<?> setting : ALL) {
        values.put(setting, setting.defaultValue());
      }
    }

    /** Sets a typed value; out-of-range values throw at once. */
    public <T extends Number & Comparable<T>> Builder set(Setting<T> setting, T value) {
      values.put(setting, setting.check(value));
      return this;
    }

    /** Sets a value by key, as it would come from a config file. Unknown keys throw, listing the known ones. */
    public Builder set(String key, String value) {
      Setting<?> setting = ALL.stream().filter(s -> s.key().equals(key)).findFirst().orElseThrow(
          () -> new InvalidSettingException(key, value, "unknown key; known keys are " + keys()));
      values.put(setting, setting.parse(value.trim()));
      return this;
    }

    public EafrSettings build() {
      EafrSettings settings = new EafrSettings(values);
      requireBelow(MIN_HOT_REPLICAS, settings.minHotReplicas(), MIN_REPLICAS, settings.minReplicas());
      requireBelow(RATE_LOW, settings.rateLowThreshold(), RATE_HIGH, settings.rateHighThreshold());
      requireAtMost(COLD_MEAN_READS, settings.coldMeanReads(), HOT_MEAN_READS, settings.hotMeanReads());
      requireAtMost(COLD_REPLICA_READS, settings.coldReplicaReads(), HOT_REPLICA_READS, settings.hotReplicaReads());
      requireBelow(GEAR_DOWN_MARGIN, settings.get(GEAR_DOWN_MARGIN), GEAR_TARGET_UTILIZATION,
          settings.get(GEAR_TARGET_UTILIZATION));
      double finishRatio = settings.finishRatio();
      if (finishRatio > 0 && finishRatio < 1) {
        throw new InvalidSettingException(FINISH_RATIO.key(), String.valueOf(finishRatio), "0 (rank by speed alone)"
            + " or at least 1: below 1 even the soonest candidate would be cut");
      }
      if (settings.get(GEAR_ACCORDION_LOWEST_GROUP) == 1) {
        throw new InvalidSettingException(GEAR_ACCORDION_LOWEST_GROUP.key(), "1", "0 (N / 5) or at least 2: the"
            + " lowest group keeps each block's copy and its chained neighbour's");
      }
      requireAtMost(ENERGY_OFF_WATTS, settings.get(ENERGY_OFF_WATTS), ENERGY_IDLE_WATTS,
          settings.get(ENERGY_IDLE_WATTS));
      requireAtMost(ENERGY_IDLE_WATTS, settings.get(ENERGY_IDLE_WATTS), ENERGY_PEAK_WATTS,
          settings.get(ENERGY_PEAK_WATTS));
      return settings;
    }

    private static void requireBelow(Setting<?> low, double lowValue, Setting<?> high, double highValue) {
      if (!(lowValue < highValue)) {
        throw new InvalidSettingException(low.key(), String.valueOf(display(low, lowValue)),
            "must be below " + high.key() + " (" + high.symbol() + " = " + display(high, highValue) + ")");
      }
    }

    private static void requireAtMost(Setting<?> low, double lowValue, Setting<?> high, double highValue) {
      if (lowValue > highValue) {
        throw new InvalidSettingException(low.key(), String.valueOf(display(low, lowValue)),
            "must be at most " + high.key() + " (" + high.symbol() + " = " + display(high, highValue) + ")");
      }
    }

    private static Object display(Setting<?> setting, double value) {
      return setting.defaultValue() instanceof Double ? (Object) value : (Object) (long) value;
    }

    private static String keys() {
      StringBuilder keys = new StringBuilder();
      for (Setting<?> setting : ALL) {
        keys.append(keys.length() == 0 ? "" : ", ").append(setting.key());
      }
      return keys.toString();
    }
  }
}
