package org.eafr.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.eafr.placement.gear.layout.EqualWorkShares;
import org.eafr.placement.gear.policy.GearedPolicies;

/**
 * The demo's settings: its own {@code demo.*} keys, each with a default and an allowed range, and any other key, which
 * goes unchanged into the cluster's hdfs-site.xml (so {@code --set eafr.power.min-command-interval.ms=1000} reaches the
 * NameNode, which checks it). Values come from the defaults, then an override file ({@code key=value} lines, {@code #}
 * comments), then {@code --set key=value} in order; the last one wins.
 *
 * <p>A {@code demo.*} key the demo does not know, or a value out of range, is refused naming the key, the value and
 * what is allowed, before anything starts.
 */
public final class DemoSettings {
  /** Gear modes: the demo shifts gears itself (manual), the NameNode's controller does (auto), or all stay on. */
  public enum GearMode { MANUAL, AUTO, OFF }

  /** The layout without gears (EAFR's random placement); with the demo's power inventory its cold servers sleep. */
  public static final String RANDOM = "random";

  private static final Map<String, Key> KEYS = new LinkedHashMap<>();

  static {
    key("demo.datanodes", "9", "DataNodes (hosts), each behind its own simulated BMC", 3, 30);
    key("demo.racks", "3", "racks the DataNodes are spread over (DataNode i on rack i mod racks)", 1, 10);
    key("demo.gear.primaries", "3", "the equal-work layout's p: DataNodes on in gear 0", 1, 30);
    key("demo.gear.group-size", "1", "the layout's g: DataNodes per gear group (p must be a multiple of g)", 1, 30);
    key("demo.redfish-hosts", "2", "hosts behind a Redfish BMC (sushy-tools), the gear groups after the WoL host", 0, 30);
    key("demo.wol-hosts", "1", "hosts woken by Wake-on-LAN (gear group 1)", 0, 1);
    key("demo.gears", "auto", "who shifts gears: auto (the NameNode's controller), manual (the demo, by schedule), off"
        + " (all on)", "auto", "manual", "off");
    key("demo.policy", GearedPolicies.RABBIT.name(), "placement policy (eafr.layout): a geared policy of the"
        + " NameNode or random (EAFR's layout, its cold servers switched off)", policies());
    key("demo.gear.schedule", "0.0:0,0.62:4,0.83:0", "manual mode: fraction of the run:gear (max = highest)");
    key("demo.duration.s", "600", "length of the replay, seconds (the trace slice is compressed into it)", 30, 7200);
    key("demo.settle.max.s", "300", "most seconds to wait after the files are written for the power state to settle"
        + " before the replay and its energy account start (0: replay at once)", 0, 3600);
    key("demo.trace", "FB-2009_samples_24_times_1hr_0.tsv.gz", "SWIM trace, a resource of hadoop-eafr-sim"
        + " (traces/NAME) or a file");
    key("demo.trace.start-hour", "0", "first hour of the trace slice", 0, 23);
    key("demo.trace.hours", "6", "hours of the trace slice", 1, 24);
    key("demo.files", "120", "files written before the replay, read by the trace's jobs", 1, 100000);
    key("demo.file.max-kb", "1024", "largest file, KiB (sizes are uniform in [64 KiB, this]; blocks are 1 MiB)", 64,
        1048576);
    key("demo.reads-per-job", "3", "most reads a job makes (its map tasks, one per 128 MB of input, capped)", 1,
        1000);
    key("demo.clients", "4", "client threads reading and writing", 1, 64);
    key("demo.seed", "1", "seed of file contents, sizes and the trace's file choice", 0, Long.MAX_VALUE);
    key("demo.sample.ms", "1000", "how often the status line and the timeline are sampled", 200, 60000);
    key("demo.heap", "256m", "heap of each daemon (-Xmx)");
    key("demo.max-kwh-ratio", "0.6", "check: most kWh used relative to every node on (gears on)");
  }

  private final Map<String, String> values;

  private DemoSettings(Map<String, String> values) {
    this.values = values;
  }

  /** The defaults, then {@code overrideFile} (may be null), then each {@code key=value} of {@code sets} in order. */
  public static DemoSettings load(Path overrideFile, List<String> sets) throws IOException {
    Map<String, String> values = new TreeMap<>();
    KEYS.forEach((name, key) -> values.put(name, key.defaultValue));
    if (overrideFile != null) {
      List<String> lines = Files.readAllLines(overrideFile, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i).trim();
        if (!line.isEmpty() && !line.startsWith("#")) {
          put(values, line, overrideFile + " line " + (i + 1));
        }
      }
    }
    for (String set : sets) {
      put(values, set, "--set " + set);
    }
    DemoSettings settings = new DemoSettings(values);
    settings.check();
    return settings;
  }

  private static void put(Map<String, String> values, String assignment, String where) {
    int eq = assignment.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException(where + ": expected key=value, got '" + assignment + "'");
    }
    String name = assignment.substring(0, eq).trim();
    String value = assignment.substring(eq + 1).trim();
    if (name.startsWith("demo.") && !KEYS.containsKey(name)) {
      throw new IllegalArgumentException(where + ": " + name + " is not allowed: unknown key" + suggestion(name)
          + "; the demo's keys are " + KEYS.keySet());
    }
    values.put(name, value);
  }

  private static String suggestion(String name) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String known : KEYS.keySet()) {
      int distance = editDistance(name, known);
      if (distance < bestDistance) {
        best = known;
        bestDistance = distance;
      }
    }
    return bestDistance <= 3 ? "; did you mean " + best + "?" : "";
  }

  private static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      int[] current = new int[b.length() + 1];
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int change = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(change, Math.min(previous[j], current[j - 1]) + 1);
      }
      previous = current;
    }
    return previous[b.length()];
  }

  private void check() {
    KEYS.values().forEach(key -> key.check(values.get(key.name)));
    int dataNodes = integer("demo.datanodes");
    int primaries = integer("demo.gear.primaries");
    int groupSize = integer("demo.gear.group-size");
    if (primaries >= dataNodes) {
      throw invalid("demo.gear.primaries", primaries, "expected fewer than demo.datanodes = " + dataNodes);
    }
    if (primaries % groupSize != 0) {
      throw invalid("demo.gear.group-size", groupSize, "expected a divisor of demo.gear.primaries = " + primaries
          + " (the equal-work layout's recovery groups each serve p / g primaries)");
    }
    if ((dataNodes - primaries) % groupSize != 0) {
      throw invalid("demo.gear.group-size", groupSize, "expected a divisor of demo.datanodes - demo.gear.primaries"
          + " = " + (dataNodes - primaries) + ", so every gear group is whole");
    }
    try { // the NameNode's equal-work layout (3 replicas) must fit, or every gear step fails there
      EqualWorkShares.of(primaries, groupSize, 3, (dataNodes - primaries) / groupSize);
    } catch (IllegalArgumentException tooFew) {
      throw invalid("demo.gear.group-size", groupSize, "the equal-work layout refuses it with demo.gear.primaries = "
          + primaries + " and demo.datanodes = " + dataNodes + ": " + tooFew.getMessage());
    }
    int redfish = integer("demo.redfish-hosts");
    int wol = integer("demo.wol-hosts");
    if (redfish + wol > dataNodes - primaries) {
      throw invalid("demo.redfish-hosts", redfish, "expected at most demo.datanodes - demo.gear.primaries -"
          + " demo.wol-hosts = " + (dataNodes - primaries - wol) + ": the primaries are always on, so they use IPMI");
    }
    if (gearMode() == GearMode.MANUAL) { // only manual mode follows the schedule (accordion here has gears 0..2)
      GearSchedule.parse(values.get("demo.gear.schedule"), maximumGear());
    }
    number("demo.max-kwh-ratio", 0.01, 10);
    if (!values.get("demo.heap").matches("[1-9][0-9]*[mMgG]")) {
      throw invalid("demo.heap", values.get("demo.heap"), "expected a JVM size such as 256m or 1g");
    }
  }

  /** The policies {@code demo.policy} allows: every geared policy of the core's registry, then random. */
  public static String[] policies() {
    return Stream.concat(GearedPolicies.names().stream(), Stream.of(RANDOM)).toArray(String[]::new);
  }

  /**
   * The highest gear: every gear group on. Accordion's groups here are p servers each ({@link ClusterConfig}: lowest
   * group p, growth 1), the last taking the rest.
   */
  public int maximumGear() {
    int others = integer("demo.datanodes") - integer("demo.gear.primaries");
    if (policy().equals(GearedPolicies.ACCORDION.name())) {
      return (others + integer("demo.gear.primaries") - 1) / integer("demo.gear.primaries");
    }
    return others / integer("demo.gear.group-size");
  }

  public String policy() {
    return get("demo.policy");
  }

  /** Whether the policy has gears (every policy but random). */
  public boolean geared() {
    return !policy().equals(RANDOM);
  }

  /**
   * The run's name, which names its report, timeline and figures: the gear mode for the default policy (auto, manual,
   * off), MODE-POLICY for another geared policy (auto-springfs), and random for the random layout (no gears).
   */
  public String runName() {
    return runName(policy(), gearMode());
  }

  static String runName(String policy, GearMode mode) {
    if (policy.equals(RANDOM)) {
      return RANDOM;
    }
    String name = mode.name().toLowerCase(Locale.ROOT);
    return policy.equals(GearedPolicies.RABBIT.name()) ? name : name + "-" + policy;
  }

  public String get(String name) {
    String value = values.get(name);
    if (value == null) {
      throw new IllegalArgumentException("setting " + name + " is not set");
    }
    return value;
  }

  public int integer(String name) {
    return Math.toIntExact(Long.parseLong(get(name)));
  }

  public long longValue(String name) {
    return Long.parseLong(get(name));
  }

  public double number(String name, double min, double max) {
    String value = get(name);
    try {
      double parsed = Double.parseDouble(value);
      if (parsed >= min && parsed <= max) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw invalid(name, value, "expected a number in [" + min + ", " + max + "]");
  }

  /** Who shifts gears; OFF for the random layout, which has none. */
  public GearMode gearMode() {
    return geared() ? GearMode.valueOf(get("demo.gears").toUpperCase(Locale.ROOT)) : GearMode.OFF;
  }

  public GearSchedule gearSchedule() {
    return GearSchedule.parse(get("demo.gear.schedule"), maximumGear());
  }

  /** The keys that are not the demo's own: they go into the cluster's hdfs-site.xml as given. */
  public Map<String, String> hadoopOverrides() {
    Map<String, String> hadoop = new TreeMap<>();
    values.forEach((name, value) -> {
      if (!name.startsWith("demo.")) {
        hadoop.put(name, value);
      }
    });
    return Collections.unmodifiableMap(hadoop);
  }

  /** Every value in force, one {@code key=value} per line (written beside the report). */
  public List<String> describe() {
    List<String> lines = new ArrayList<>();
    values.forEach((name, value) -> lines.add(name + "=" + value));
    return lines;
  }

  /** One line per demo key: name, default, meaning (for --help). */
  public static List<String> help() {
    List<String> lines = new ArrayList<>();
    KEYS.values().forEach(key -> lines.add(String.format(Locale.ROOT, "  %-22s %-40s %s", key.name,
        key.defaultValue, key.meaning + key.range())));
    return lines;
  }

  static IllegalArgumentException invalid(String name, Object value, String allowed) {
    return new IllegalArgumentException(name + " = " + value + " is not allowed: " + allowed);
  }

  private static void key(String name, String defaultValue, String meaning, long min, long max) {
    KEYS.put(name, new Key(name, defaultValue, meaning, min, max, List.of()));
  }

  private static void key(String name, String defaultValue, String meaning, String... choices) {
    KEYS.put(name, new Key(name, defaultValue, meaning, 0, 0, List.of(choices)));
  }

  private record Key(String name, String defaultValue, String meaning, long min, long max, List<String> choices) {
    private boolean numeric() {
      return min != 0 || max != 0;
    }

    private String range() {
      if (numeric()) {
        return " [" + min + ", " + max + "]";
      }
      return choices.isEmpty() ? "" : " " + choices;
    }

    private void check(String value) {
      if (!choices.isEmpty() && !choices.contains(value)) {
        throw invalid(name, value, "expected one of " + choices);
      }
      if (numeric()) {
        long parsed;
        try {
          parsed = Long.parseLong(value);
        } catch (NumberFormatException e) {
          throw invalid(name, value, "expected an integer in [" + min + ", " + max + "]");
        }
        if (parsed < min || parsed > max) {
          throw invalid(name, value, "expected an integer in [" + min + ", " + max + "]");
        }
      }
    }
  }
}
