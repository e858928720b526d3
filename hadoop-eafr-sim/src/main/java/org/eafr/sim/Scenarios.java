package org.eafr.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eafr.placement.settings.InvalidSettingException;

/**
 * The named scenarios. The full ones reproduce EAFR Figs. 5-14 on the EAFR setup (300 servers in 10 racks, 70% hot,
 * r = 2, eps = 1). To keep the full evaluation within the simulator's speed (see docs/simulator.md), sweeps run one
 * 4-hour pattern (load sweeps 3 hours, as they multiply the reads by up to 60); EAFR adapts every hour, so most of each
 * run is adapted. "eafr" runs the paper's 2 days. "tiny" is the
 * regression scenario of the tests.
 */
public final class Scenarios {
  private static final Map<String, Scenario> SCENARIOS = new LinkedHashMap<>();
  private static final List<String> MAIN = List.of("hdfs", "cdrm", "scarlett", "aptstore", "eafr");
  private static final List<String> EAFR_COMPARISON = List.of("hdfs", "cdrm", "scarlett", "aptstore", "eafr",
      "eafr-geared");
  private static final List<String> FIG6 = List.of("hdfs", "cdrm", "eafr");
  private static final List<String> LATENCY = List.of("read_mean_ms", "read_over_10ms");
  private static final String SWEEP_HOURS = "4";
  private static final List<String> GEARS = List.of("hdfs", "ideal", "eafr", "rabbit", "springfs", "accordion",
      "eafr-geared");
  private static final String FB_2009_0 = "swim:classpath:FB-2009_samples_24_times_1hr_0.tsv.gz";
  private static final String LOAD_SWEEP_HOURS = "3";
  private static final List<String> FILL = List.of("hdfs", "ideal", "ideal-dwell", "rabbit", "springfs", "accordion",
      "eafr-geared");
  /** Files of the gears catalog (log-uniform 100 KB to 2 GB, 201.9 MB on average) whose 3 copies fill 1% of 150 TB (24,765 files: 10%). */
  private static final double FILES_PER_FILL_PERCENT = 150e12 / 3 / 201.9e6 / 100;
  /** FB-2010's jobs with generated input paths of SWIM's popularity (seeded by sim.seed). */
  private static final String FB_2010_PATHS = "swim-paths:classpath:FB-2010_samples_24_times_1hr_0.tsv.gz";
  private static final String FB_2010_PATHS_LABEL = "FB-2010-paths";
  private static final int GRID_WEEK_HOURS = 168;
  private static final List<String> CARBON = List.of("eafr-geared", "eafr-geared-carbon", "eafr-geared-price",
      "springfs", "springfs-carbon", "springfs-price");

  static {
    // eafr-geared keeps EAFR's r = 2 as its layout's r (eafr.gear.* keys touch only the geared policies).
    add(new Scenario("eafr", "EAFR vs the baselines on the EAFR setup for 2 days (Figs. 6, 8, 9, 10), and EAFR on"
        + " gears", Map.of("sim.duration.hours", "48", "eafr.gear.replicas", "2"), "run",
        List.of(Scenario.Variant.single(), new Scenario.Variant(FB_2010_PATHS_LABEL, 1,
            Map.of("sim.duration.hours", "24"), FB_2010_PATHS)), EAFR_COMPARISON,
        List.of("read_mean_ms", "read_p99_ms", "energy_kwh_day", "storage_tb", "repl_10000MB_s", "util_p99",
            "maint_p50", "success_lambda_0.1", "success_lambda_0.2")));
    add(new Scenario("replicas",
        "read latency vs replica count: 20 of 1,000 files read, 60 concurrent reads each (Fig. 5)",
        Map.of("sim.duration.hours", "1", "sim.files", "1000", "sim.read-files", "20", "sim.concurrency", "60",
            "sim.arrival-rate", "1", "eafr.interval.ms", "86400000"),
        "replicas", sweep("sim.hdfs.replicas", 2, 7, 1), List.of("hdfs"),
        List.of("read_p1_ms", "read_p50_ms", "read_p99_ms", "read_over_10ms")));
    add(new Scenario("concurrency", "read latency vs concurrent reads per trace read, 10 to 60 (Figs. 6, 12a, 13a)",
        Map.of("sim.duration.hours", LOAD_SWEEP_HOURS), "concurrent reads", sweep("sim.concurrency", 10, 60, 10), FIG6,
        LATENCY));
    add(new Scenario("arrival-rate", "read latency and overload vs arrival rate, 100 to 300/s (Figs. 7, 9b, 12b, 13b)",
        Map.of("sim.duration.hours", LOAD_SWEEP_HOURS), "reads per second", sweep("sim.arrival-rate", 100, 300, 50),
        FIG6, List.of("read_mean_ms", "read_over_10ms", "overloaded_share")));
    add(new Scenario("energy", "energy per day vs cluster size, files in proportion (Fig. 8b)",
        Map.of("sim.duration.hours", SWEEP_HOURS), "servers", clusterSizes(), List.of("hdfs", "cdrm", "eafr"),
        List.of("energy_kwh_day", "cold_servers")));
    add(new Scenario("storage", "storage used vs number of files (Fig. 10a)",
        Map.of("sim.duration.hours", SWEEP_HOURS), "files", fileCounts(), List.of("hdfs", "cdrm", "eafr"),
        List.of("storage_tb")));
    add(new Scenario("ablations", "EAFR against each ablation: replication time and read latency (Figs. 11-13)",
        Map.of("sim.duration.hours", SWEEP_HOURS), "run", List.of(Scenario.Variant.single()),
        List.of("eafr", "eafr-no-ewma", "eafr-no-rate-control", "eafr-random-reads", "eafr-random-recovery"),
        List.of("repl_1000MB_s", "repl_10000MB_s", "read_mean_ms", "read_over_10ms")));
    add(new Scenario("sample-size", "EAFR's destination choice ranking d sampled candidates, d = 0 (all) to 64,"
        + " against random destinations", Map.of("sim.duration.hours", SWEEP_HOURS), "d (0 = every candidate)",
        List.of(variant("eafr.destination.sample-size", 0), variant("eafr.destination.sample-size", 2),
            variant("eafr.destination.sample-size", 4), variant("eafr.destination.sample-size", 8),
            variant("eafr.destination.sample-size", 16), variant("eafr.destination.sample-size", 32),
            variant("eafr.destination.sample-size", 64)),
        List.of("eafr", "eafr-no-ewma"), List.of("repl_100MB_s", "repl_1000MB_s", "repl_10000MB_s", "replications",
            "energy_kwh_day")));
    add(new Scenario("recovery", "recovery latency vs servers failed every 30 minutes (Fig. 14)",
        Map.of("sim.duration.hours", "4"), "failed servers", List.of(variant("sim.failed-servers", 1),
            variant("sim.failed-servers", 2), variant("sim.failed-servers", 4), variant("sim.failed-servers", 8)),
        List.of("eafr", "eafr-random-recovery", "hdfs"), List.of("recovery_mean_s")));
    add(new Scenario("reliability", "successful reads under failure probability 0.1 and 0.2 with r = 2 and r = 3"
        + " (Fig. 10c, d)", Map.of("sim.duration.hours", SWEEP_HOURS), "r (EAFR)",
        List.of(variant("eafr.min-replicas", 2), variant("eafr.min-replicas", 3)), List.of("hdfs", "cdrm", "eafr"),
        List.of("success_lambda_0.1", "success_lambda_0.2")));
    add(new Scenario("gears", "power-proportional layouts on the SWIM traces, 24 h each: machine-hours against the"
        + " SpringFS 5.2 ideal, data migrated, energy, read latency", gearsBase(),
        "trace (1, 2: FB-2009 samples 0, 1; 3: FB-2010; 4: FB-2010 with generated input paths)",
        swimTracesAndPaths(), GEARS,
        List.of("machine_hours", "machine_hours_vs_ideal", "migrated_gb", "energy_kwh_day", "read_mean_ms",
            "read_p99_ms", "reads_waited_wake")));
    add(new Scenario("rabbit", "Rabbit's equal-work layout, 1 h of FB-2009: degree of power proportionality over the"
        + " gears from 5% of the servers up, and gear group size g against recovery group size (Sec. 3.4, 3.5,"
        + " Table 1)", rabbitBase(), "gear group size g", rabbitGroupSizes(), List.of("rabbit"),
        List.of("power_proportionality", "recovery_group_servers", "machine_hours", "read_mean_ms")));
    add(new Scenario("springfs", "SpringFS's offload set m on FB-2009 (0 = chosen each period from the write rate;"
        + " p = 40): machine-hours, migrated data, read latency (Sec. 3, 5.2)", gearsBase(), "offload set m (0 = on"
        + " the fly)", List.of(swimVariant("sim.springfs.offload-set", 0), swimVariant("sim.springfs.offload-set", 40),
            swimVariant("sim.springfs.offload-set", 60), swimVariant("sim.springfs.offload-set", 90),
            swimVariant("sim.springfs.offload-set", 150)), List.of("springfs"),
        List.of("machine_hours_vs_ideal", "migrated_gb", "cleanup_gb", "read_mean_ms", "read_p99_ms")));
    add(new Scenario("write-offload", "Rabbit's write offloading against SpringFS's bounded offloading on the SWIM"
        + " traces' output volume (each job writes its reduce output bytes, scaled like its input; sim.swim.output-bytes"
        + " = 1), 24 h each: data migrated and cleanup (SpringFS Sec. 5.2, Fig. 12)", writeHeavyBase(),
        "trace (1, 2: FB-2009 samples 0, 1; 3: FB-2010)", swimTraces(), List.of("ideal", "rabbit", "springfs"),
        List.of("migrated_gb", "cleanup_gb", "machine_hours_vs_ideal", "read_mean_ms")));
    add(new Scenario("accordion", "gear-up with data updated in low gears, FB-2009 sample 0, 24 h: reflected data and"
        + " throughput per watt while gearing up, against Rabbit and SpringFS (Accordion Sec. 3.4, 4)", gearsBase(),
        "run", List.of(new Scenario.Variant("FB-2009-0", 1, Map.of(), FB_2009_0)),
        List.of("accordion", "rabbit", "springfs"), List.of("reflection_gb", "gear_up_reads_per_joule",
            "machine_hours", "read_mean_ms", "gear_ups")));
    add(new Scenario("fill", "geared layouts on a cluster 10 / 25 / 50 / 75% full (3 replicas of the catalog over"
        + " the servers' raw capacity), 6 h of FB-2010: machine-hours against the ideal, energy, read latency, failed"
        + " writes, data migrated, power cycles; against the ideal with and without the gear controller's minimum"
        + " dwell", fillBase(), "fill (% of raw capacity)", fills(), FILL,
        List.of("machine_hours_vs_ideal", "machine_hours_vs_dwell_ideal", "power_cycles_mean_day",
            "power_cycles_max_day", "energy_kwh_day", "read_mean_ms", "read_p99_ms", "failed_writes", "short_writes",
            "migrated_gb")));
    add(new Scenario("carbon", "carbon- and price-aware background work on each shipped grid week, 7 days"
        + " (168 h) each with FB-2009 sample 0's 24 h replayed every day: eafr-geared and springfs energy-only,"
        + " carbon-aware and price-aware; kgCO2, EUR, kWh, read latency, data moved and how long deferred work waited",
        carbonBase(), "grid week (1-3: GB 2023 Jan, Jul, Oct; 4-6: DE 2024 Jan, Apr, Jul; 7: DE 2020 Apr)",
        gridWeeks(), CARBON, List.of("kg_co2_day", "eur_day", "move_g_co2_day", "grid_kwh_day", "read_mean_ms",
            "read_p99_ms", "move_gb_day", "deferred_hold_mean_h")));
    add(new Scenario("tiny", "a 20-server, 2-hour scenario for tests and quick checks",
        tinyBase(), "run", List.of(Scenario.Variant.single()), MAIN,
        List.of("read_mean_ms", "energy_kwh_day")));
  }

  private Scenarios() {
  }

  private static Map<String, String> tinyBase() {
    Map<String, String> base = new LinkedHashMap<>();
    base.put("sim.servers", "20");
    base.put("sim.racks", "2");
    base.put("sim.files", "400");
    base.put("sim.read-files", "150");
    base.put("sim.duration.hours", "2");
    base.put("sim.arrival-rate", "5");
    base.put("sim.concurrency", "5");
    base.put("sim.file-size.max-bytes", "2000000000");
    base.put("sim.failed-servers", "1");
    base.put("eafr.interval.ms", "1800000");
    return base;
  }

  /**
   * The geared scenarios' setup: 300 servers in 10 racks, the SWIM traces' 24 hours, each map task one reader
   * (x = 1: the trace's tasks are its concurrency), job outputs written as new blocks (sim.swim.rewrites = 1), and
   * 15,000 files of 100 KB to 2 GB (about 3 TB, one copy). The geared layouts count blocks, not bytes: the equal-work
   * layout's default p = N / e^2 = 40 primaries hold a whole copy and Accordion's lowest group two, so with the EAFR
   * catalog (43 TB of up to 10 GB files) on 250-750 GB servers the smaller servers overflow and replicas go missing.
   * eafr-geared keeps a read floor of 20% of the servers (eafr.gear.eafr.read-floor; the other policies ignore it):
   * they hold every block's 3 replicas and stay on, the fewest in steps of 5% that hold 3 copies of this catalog.
   */
  private static Map<String, String> gearsBase() {
    Map<String, String> base = new LinkedHashMap<>();
    base.put("sim.duration.hours", "24");
    base.put("sim.files", "15000");
    base.put("sim.read-files", "5000");
    base.put("sim.concurrency", "1");
    base.put("sim.swim.rewrites", "1");
    base.put("sim.file-size.max-bytes", "2000000000");
    base.put("eafr.gear.eafr.read-floor", "0.2");
    return base;
  }

  /**
   * The geared setup with the writes the traces carry: each job with output writes its reduce output bytes (times the
   * same servers / traced machines scale as its input) as new catalog file versions, instead of one file per job. The
   * traces' README defines write bytes as the reduce output, and SpringFS Sec. 5.2 sizes its write throughput from the
   * traces' HDFS writes; one file per job writes a third (FB-2009) to a seventh (FB-2010) of that.
   */
  private static Map<String, String> writeHeavyBase() {
    Map<String, String> base = new LinkedHashMap<>(gearsBase());
    base.put("sim.swim.output-bytes", "1");
    return base;
  }

  /**
   * The gears setup on 6 hours of FB-2010 with as many files as fill the cluster to each share: 300 servers of 250,
   * 500 or 750 GB hold 150 TB raw on average, so 3 copies of 24,765 / 61,912 / 123,824 / 185,736 catalog files
   * (201.9 MB on average) fill 10 / 25 / 50 / 75% (the run's "fill" column gives the share reached).
   */
  private static Map<String, String> fillBase() {
    Map<String, String> base = new LinkedHashMap<>(gearsBase());
    base.put("sim.duration.hours", "6");
    return base;
  }

  private static List<Scenario.Variant> fills() {
    List<Scenario.Variant> variants = new ArrayList<>();
    for (int percent : new int[] {10, 25, 50, 75}) {
      variants.add(new Scenario.Variant(percent + "%", percent, Map.of("sim.files",
          String.valueOf(Math.round(percent * FILES_PER_FILL_PERCENT))),
          "swim:classpath:FB-2010_samples_24_times_1hr_0.tsv.gz"));
    }
    return variants;
  }

  private static List<Scenario.Variant> swimTraces() {
    return List.of(
        new Scenario.Variant("FB-2009-0", 1, Map.of(), FB_2009_0),
        new Scenario.Variant("FB-2009-1", 2, Map.of(), "swim:classpath:FB-2009_samples_24_times_1hr_1.tsv.gz"),
        new Scenario.Variant("FB-2010", 3, Map.of(), "swim:classpath:FB-2010_samples_24_times_1hr_0.tsv.gz"));
  }

  /**
   * The three traces and FB-2010 with generated input paths; its catalog holds a file per distinct path (16,562 at
   * FB-2010's 24,442 jobs), so the files keep the paths' popularity.
   */
  private static List<Scenario.Variant> swimTracesAndPaths() {
    List<Scenario.Variant> variants = new ArrayList<>(swimTraces());
    variants.add(new Scenario.Variant(FB_2010_PATHS_LABEL, 4, Map.of("sim.files", "17000"), FB_2010_PATHS));
    return variants;
  }

  /**
   * Rabbit's layout measured on blocks that fit: the equal-work layout counts blocks, and with the EAFR sizes (up to
   * 10 GB) on 250-750 GB servers the 40 primaries' B / p blocks overflow the smaller servers; files up to 1 GB keep
   * every replica where the layout puts it. One hour of FB-2009 exercises the gears.
   */
  private static Map<String, String> rabbitBase() {
    Map<String, String> base = new LinkedHashMap<>(gearsBase());
    base.put("sim.duration.hours", "1");
    base.put("sim.file-size.max-bytes", "1000000000");
    return base;
  }

  /** The geared setup over a whole grid week: 168 h, the 24-hour trace replayed each day. */
  private static Map<String, String> carbonBase() {
    Map<String, String> base = new LinkedHashMap<>(gearsBase());
    base.put("sim.duration.hours", String.valueOf(GRID_WEEK_HOURS));
    base.put("sim.trace.period.hours", "24");
    return base;
  }

  /**
   * Each shipped grid week (resources grid/README.md), Monday 00:00 UTC to the next Monday, whole: work held late on
   * one day may run after midnight. GB's October week holds NESO's 45-hour outage from Friday 22:00.
   */
  static List<Scenario.Variant> gridWeeks() {
    return List.of(gridWeek("GB-2023-01", 1, "gb-2023-01-09"), gridWeek("GB-2023-07", 2, "gb-2023-07-10"),
        gridWeek("GB-2023-10", 3, "gb-2023-10-16"), gridWeek("DE-2024-01", 4, "de-2024-01-08"),
        gridWeek("DE-2024-04", 5, "de-2024-04-08"), gridWeek("DE-2024-07", 6, "de-2024-07-08"),
        gridWeek("DE-2020-04", 7, "de-2020-04-06"));
  }

  private static Scenario.Variant gridWeek(String label, int x, String week) {
    return new Scenario.Variant(label, x, Map.of("sim.grid.signal", "classpath:grid/" + week + ".csv",
        "sim.grid.start", week.substring(week.indexOf('-') + 1) + "T00:00:00Z"), FB_2009_0);
  }

  private static Scenario.Variant swimVariant(String key, int value) {
    Scenario.Variant plain = variant(key, value);
    return new Scenario.Variant(plain.label(), plain.x(), plain.settings(), FB_2009_0);
  }

  /**
   * g = 1, 5, 10, 20 with p = 40 (a multiple of each, N / e^2 for r = 3), on FB-2009 sample 0; and the paper's 5%:
   * r = 4 with p = 15 = N / e^3 rounded to a multiple of g = 5 (the x axis keeps g; the label says r = 4).
   */
  private static List<Scenario.Variant> rabbitGroupSizes() {
    List<Scenario.Variant> variants = new ArrayList<>();
    for (int g : new int[] {1, 5, 10, 20}) {
      variants.add(new Scenario.Variant("g=" + g, g, Map.of("eafr.gear.group-size", String.valueOf(g),
          "eafr.gear.primaries", "40"), FB_2009_0));
    }
    variants.add(new Scenario.Variant("r=4 g=5", 5, Map.of("eafr.gear.group-size", "5", "eafr.gear.primaries", "15",
        "eafr.gear.replicas", "4"), FB_2009_0));
    return variants;
  }

  private static void add(Scenario scenario) {
    SCENARIOS.put(scenario.name(), scenario);
  }

  private static Scenario.Variant variant(String key, int value) {
    return new Scenario.Variant(key.substring(key.lastIndexOf('.') + 1) + "=" + value, value,
        Map.of(key, String.valueOf(value)));
  }

  private static List<Scenario.Variant> sweep(String key, int from, int to, int step) {
    List<Scenario.Variant> variants = new ArrayList<>();
    for (int v = from; v <= to; v += step) {
      variants.add(variant(key, v));
    }
    return variants;
  }

  private static List<Scenario.Variant> clusterSizes() {
    List<Scenario.Variant> variants = new ArrayList<>();
    for (int servers = 100; servers <= 500; servers += 100) {
      variants.add(new Scenario.Variant("servers=" + servers, servers, Map.of("sim.servers", String.valueOf(servers),
          "sim.files", String.valueOf(servers * 50_000 / 300), "sim.read-files",
          String.valueOf(servers * 16_566 / 300))));
    }
    return variants;
  }

  private static List<Scenario.Variant> fileCounts() {
    List<Scenario.Variant> variants = new ArrayList<>();
    for (int files = 10_000; files <= 50_000; files += 10_000) {
      variants.add(new Scenario.Variant("files=" + files, files, Map.of("sim.files", String.valueOf(files),
          "sim.read-files", String.valueOf(files * 16_566 / 50_000))));
    }
    return variants;
  }

  /** The scenario named {@code name}; an unknown name throws listing the known ones. */
  public static Scenario get(String name) {
    Scenario scenario = SCENARIOS.get(name);
    if (scenario == null) {
      throw new InvalidSettingException("scenario", name, "unknown scenario; known scenarios are " + names());
    }
    return scenario;
  }

  public static List<String> names() {
    return List.copyOf(SCENARIOS.keySet());
  }

  public static List<Scenario> all() {
    return List.copyOf(SCENARIOS.values());
  }
}
