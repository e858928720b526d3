package org.eafr.namenode.gear;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eafr.namenode.grid.GridSignalFile;
import org.eafr.namenode.grid.GridSignalUrl;
import org.eafr.namenode.grid.GridSource;
import org.eafr.placement.gear.policy.GearedPolicies;
import org.eafr.placement.gear.policy.GearedPolicySpec;
import org.eafr.placement.grid.GridSettings;
import org.eafr.placement.grid.UtilizationSteering;
import org.eafr.placement.settings.EafrSettings;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.placement.settings.Range;
import org.eafr.placement.settings.Setting;

/**
 * The NameNode's gear keys (hdfs-site.xml), validated when read: a bad value throws naming the key, the value and
 * what is allowed. The layout's own shape (p, g, r) and the controller's u, h and dwell time are the core's
 * {@code eafr.gear.*} keys. The grid keys ({@code eafr.grid.*}, the core's {@link GridSettings}, and the signal file)
 * are read here too: they decide when reflection runs.
 */
public final class GearSettings {
  /**
   * Which placement runs: random keeps EAFR's placement without gears; any other value names a geared policy of the
   * core's {@link GearedPolicies} (layout, read ordering, write placement), equal-work being another name of rabbit.
   */
  public static final String LAYOUT_KEY = "eafr.layout";
  /** EAFR's placement without gears. */
  public static final String RANDOM = "random";
  /** Rabbit's policy under the name of its layout, which configurations written before the policies were named use. */
  public static final String EQUAL_WORK = "equal-work";
  /** Every value {@value #LAYOUT_KEY} takes: random first, then equal-work, then the geared policies. */
  public static final List<String> LAYOUTS = Stream.concat(Stream.of(RANDOM, EQUAL_WORK),
      GearedPolicies.names().stream()).collect(Collectors.toUnmodifiableList());
  /** Where the gear state and what sleeping groups owe live in the namespace (xattrs, edit-logged). */
  public static final String STATE_DIR_KEY = "eafr.gear.state.dir";
  public static final String DEFAULT_STATE_DIR = "/system/eafr";
  /** Who chooses the gear at startup: the operator (manual) or the autopilot from the NameNode's load (auto). */
  public static final String MODE_KEY = "eafr.gear.mode";
  public static final List<String> MODES = List.of(GearMode.MANUAL.word(), GearMode.AUTO.word());

  public static final Setting<Integer> EXPECTED_DATANODES = Setting.ofInt("eafr.gear.expected-datanodes", "-",
      "DataNodes that must have registered before the expansion chain is fixed (and persisted); 0 fixes it at the"
          + " first gear command.", 0, Range.closed(0, 1_000_000));
  public static final Setting<Long> STEP_MS = Setting.ofLong("eafr.gear.step.ms", "-",
      "How often a gear shift under way is advanced (maintenance state, power, registration, reflection), in"
          + " milliseconds.", 1_000L, Range.closed(10L, 600_000L));
  public static final Setting<Integer> REFLECTION_BLOCKS_PER_STEP = Setting.ofInt(
      "eafr.gear.reflection.blocks-per-step", "-",
      "Block moves reflection starts per step (Accordion's batches): with eafr.gear.step.ms it bounds the rate at"
          + " which low-gear writes are copied home after a gear-up.", 32, Range.closed(1, 100_000));
  public static final Setting<Long> MAINTENANCE_STALL_MS = Setting.ofLong("eafr.gear.maintenance.stall.ms", "-",
      "How long a gear-down waits on its leaving DataNodes without progress (none reaching IN_MAINTENANCE or"
          + " with fewer blocks left to copy), in milliseconds; then it is cancelled, naming them. Counted again"
          + " after a NameNode restart or failover.", 3_600_000L,
      Range.closed(1_000L, 86_400_000L));

  public static final Setting<Long> AUTO_INTERVAL_MS = Setting.ofLong("eafr.gear.auto.interval.ms", "-",
      "In auto mode, how often the load is sampled and the gear controller decides, in milliseconds; each sample"
          + " averages the opens and bytes written since the last one. With eafr.layout = springfs, also the"
          + " resizing interval of passive migration (in manual mode too).", 60_000L, Range.closed(10L, 86_400_000L));
  public static final Setting<Long> SERVER_OPENS_PER_SECOND = Setting.ofLong("eafr.gear.server.opens-per-second",
      "R", "In auto mode, file opens per second one DataNode serves at full load: the opens the NameNode audits,"
          + " divided by this, give the DataNodes needed by reads; 0 means reads do not limit.", 200L,
      Range.closed(0L, 100_000_000L));
  public static final Setting<Long> SERVER_WRITE_BYTES_PER_SECOND = Setting.ofLong(
      "eafr.gear.server.write-bytes-per-second", "WB", "In auto mode, bytes per second one DataNode writes at full"
          + " load (every replica counted): the growth of the DataNodes' used space, divided by this, gives the"
          + " DataNodes needed by writes; 0 means writes do not limit.", 104_857_600L, Range.atLeast(0L));

  private static final List<Setting<?>> NUMERIC = List.of(EXPECTED_DATANODES, STEP_MS, REFLECTION_BLOCKS_PER_STEP,
      MAINTENANCE_STALL_MS, AUTO_INTERVAL_MS, SERVER_OPENS_PER_SECOND, SERVER_WRITE_BYTES_PER_SECOND,
      GridSignalUrl.POLL_MS);

  private final String layout;
  private final GearedPolicySpec<?> policy;
  private final String stateDir;
  private final int expectedDataNodes;
  private final long stepMillis;
  private final int reflectionBlocksPerStep;
  private final long maintenanceStallMillis;
  private final GearMode mode;
  private final long autoIntervalMillis;
  private final long serverOpensPerSecond;
  private final long serverWriteBytesPerSecond;
  private final GridSettings grid;
  private final String gridSignalFile;
  private final String gridSignalUrl;
  private final long gridPollMillis;

  private GearSettings(Function<String, String> lookup) {
    String raw = lookup.apply(LAYOUT_KEY);
    this.layout = raw == null || raw.isBlank() ? RANDOM : raw.trim();
    this.policy = policyNamed(layout).orElse(null);
    if (policy == null && !layout.equals(RANDOM)) {
      throw new InvalidSettingException(LAYOUT_KEY, raw, "one of " + String.join(", ", LAYOUTS)
          + " (equal-work is rabbit)");
    }
    String dir = lookup.apply(STATE_DIR_KEY);
    this.stateDir = dir == null || dir.isBlank() ? DEFAULT_STATE_DIR : dir.trim();
    if (!stateDir.startsWith("/") || stateDir.equals("/") || stateDir.endsWith("/") || stateDir.contains("//")) {
      throw new InvalidSettingException(STATE_DIR_KEY, dir, "an absolute HDFS directory other than /, such as "
          + DEFAULT_STATE_DIR);
    }
    this.expectedDataNodes = EXPECTED_DATANODES.read(lookup);
    this.stepMillis = STEP_MS.read(lookup);
    this.reflectionBlocksPerStep = REFLECTION_BLOCKS_PER_STEP.read(lookup);
    this.maintenanceStallMillis = MAINTENANCE_STALL_MS.read(lookup);
    String rawMode = lookup.apply(MODE_KEY);
    this.mode = rawMode == null || rawMode.isBlank() ? GearMode.MANUAL : GearMode.of(rawMode.trim());
    if (mode == null) {
      throw new InvalidSettingException(MODE_KEY, rawMode, "one of " + String.join(", ", MODES));
    }
    this.autoIntervalMillis = AUTO_INTERVAL_MS.read(lookup);
    this.serverOpensPerSecond = SERVER_OPENS_PER_SECOND.read(lookup);
    this.serverWriteBytesPerSecond = SERVER_WRITE_BYTES_PER_SECOND.read(lookup);
    this.grid = GridSettings.of(lookup);
    // A steering range the controller cannot take (u - lower at or below h) is refused at start, naming the key.
    new UtilizationSteering(grid, null).target(0,
        EafrSettings.GEAR_TARGET_UTILIZATION.read(lookup),
        EafrSettings.GEAR_DOWN_MARGIN.read(lookup), Double.NaN);
    String signal = lookup.apply(GridSignalFile.KEY);
    this.gridSignalFile = signal == null ? "" : signal.trim();
    String url = lookup.apply(GridSignalUrl.KEY);
    this.gridSignalUrl = url == null ? "" : url.trim();
    if (!gridSignalUrl.isEmpty()) {
      GridSignalUrl.parse(gridSignalUrl);
      if (!gridSignalFile.isEmpty()) {
        throw new InvalidSettingException(GridSignalUrl.KEY, url, "empty while " + GridSignalFile.KEY + " is set ("
            + gridSignalFile + "): the signal comes from a file or a URL, not both");
      }
    }
    this.gridPollMillis = GridSignalUrl.POLL_MS.read(lookup);
  }

  /** The geared policy a value of {@value #LAYOUT_KEY} names: equal-work is Rabbit's; empty for random or unknown. */
  private static Optional<GearedPolicySpec<?>> policyNamed(String value) {
    return value.equals(EQUAL_WORK) ? Optional.of(GearedPolicies.RABBIT) : GearedPolicies.find(value);
  }

  public static GearSettings from(Function<String, String> lookup) {
    return new GearSettings(lookup);
  }

  /** The keys this class reads, for the NameNode's misspelled-key check. */
  public static Set<String> keys() {
    Set<String> keys = new TreeSet<>(List.of(LAYOUT_KEY, STATE_DIR_KEY, MODE_KEY));
    NUMERIC.forEach(setting -> keys.add(setting.key()));
    keys.addAll(GridSettings.keys());
    keys.add(GridSignalFile.KEY);
    keys.add(GridSignalUrl.KEY);
    return keys;
  }

  public static List<Setting<?>> numericSettings() {
    return NUMERIC;
  }

  /** The value of {@value #LAYOUT_KEY} as configured (random, equal-work or a geared policy's name). */
  public String layout() {
    return layout;
  }

  /** The geared policy that runs, or empty with the random layout. */
  public Optional<GearedPolicySpec<?>> policy() {
    return Optional.ofNullable(policy);
  }

  /** Whether a geared policy places blocks (anything but random). */
  public boolean geared() {
    return policy != null;
  }

  public String stateDir() {
    return stateDir;
  }

  public int expectedDataNodes() {
    return expectedDataNodes;
  }

  public long stepMillis() {
    return stepMillis;
  }

  public int reflectionBlocksPerStep() {
    return reflectionBlocksPerStep;
  }

  public long maintenanceStallMillis() {
    return maintenanceStallMillis;
  }

  /** The configured {@value #MODE_KEY}: the mode until an operator switches it at run time. */
  public GearMode mode() {
    return mode;
  }

  public long autoIntervalMillis() {
    return autoIntervalMillis;
  }

  public long serverOpensPerSecond() {
    return serverOpensPerSecond;
  }

  public long serverWriteBytesPerSecond() {
    return serverWriteBytesPerSecond;
  }

  /** The {@code eafr.grid.*} settings: when reflection runs against the grid signal. */
  public GridSettings grid() {
    return grid;
  }

  /** Where the grid signal comes from: {@value GridSignalUrl#KEY} when set, else {@value GridSignalFile#KEY}. */
  public GridSource gridSource() {
    return gridSignalUrl.isEmpty() ? new GridSignalFile(gridSignalFile) : new GridSignalUrl(gridSignalUrl,
        gridPollMillis);
  }

  /** The {@value GridSignalFile#KEY}, or "" for none. */
  public String gridSignalFile() {
    return gridSignalFile;
  }
}
