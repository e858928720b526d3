package org.eafr.sim.report;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What each metric column means to a reader: a short name and its unit, for chart titles and axes. The CSV keeps the
 * column names (scripts read them); charts and people read these. Every metric a scenario charts must be here
 * ({@code ScenariosTest} checks), so no chart is titled with a raw column name.
 */
public final class MetricTitles {
  /** A metric's name as people read it, and its unit ("" for a count or a share). */
  public record Name(String title, String unit) {
    /** "title (unit)", or the title alone for unitless metrics. */
    public String withUnit() {
      return unit.isEmpty() ? title : title + " (" + unit + ")";
    }
  }

  private static final Map<String, Name> NAMES = new LinkedHashMap<>();

  static {
    put("reads", "reads served", "reads");
    put("failed_reads", "failed reads (no live replica)", "reads");
    put("failed_read_share", "share of reads that failed", "fraction");
    put("read_mean_ms", "mean read latency", "ms");
    put("read_p1_ms", "1st-percentile read latency", "ms");
    put("read_p50_ms", "median read latency", "ms");
    put("read_p99_ms", "99th-percentile read latency", "ms");
    put("read_over_10ms", "share of reads slower than 10 ms", "fraction");
    put("reads_waited_wake", "reads that waited for a server to wake", "reads");
    put("reads_one_awake_replica_share", "share of reads whose file had one awake replica", "fraction");
    put("awake_replicas_per_read", "awake replicas of the file per read", "replicas");
    for (int mb : org.eafr.sim.stats.RunStats.SIZE_GROUPS_MB) {
      put("repl_" + mb + "MB_s", "mean replication time of " + sizeName(mb) + " files", "s");
    }
    put("replications", "replica copies made", "copies");
    put("energy_kwh_day", "energy per day", "kWh/day");
    put("util_p1", "1st-percentile server utilization", "fraction of capacity");
    put("util_p50", "median server utilization", "fraction of capacity");
    put("util_p99", "99th-percentile server utilization", "fraction of capacity");
    put("overloaded_share", "share of awake servers overloaded (u > tau_c)", "fraction");
    put("storage_tb", "storage used", "TB");
    put("replicas_per_file", "replicas per file", "replicas");
    put("fill", "stored bytes over raw capacity at the start", "fraction");
    put("failed_writes", "writes with no replica placed", "file versions");
    put("short_writes", "writes with fewer replicas than meant", "file versions");
    put("displaced_replicas", "replicas put off a full layout home", "replicas");
    put("max_server_fill", "the fullest server's peak stored bytes over its raw capacity", "fraction");
    put("maint_p1", "1st-percentile maintenance overhead per file", "ms x MB");
    put("maint_p50", "median maintenance overhead per file", "ms x MB");
    put("maint_p99", "99th-percentile maintenance overhead per file", "ms x MB");
    put("deferred_updates", "updates postponed on sleeping replicas", "updates");
    put("success_lambda_0.1", "successful reads at failure probability 0.1", "fraction");
    put("success_lambda_0.2", "successful reads at failure probability 0.2", "fraction");
    put("recovery_mean_s", "mean recovery latency per failure", "s");
    put("recovered_replicas", "replicas recovered", "replicas");
    put("unrecoverable", "replicas not recovered", "replicas");
    put("unrecoverable_no_replica", "files lost (no live replica)", "files");
    put("unrecoverable_no_room", "replicas without a destination with room", "replicas");
    put("recovery_copies_abandoned", "recovery copies abandoned", "copies");
    put("cold_servers", "sleeping servers at the end", "servers");
    put("events", "simulated events", "events");
    put("machine_hours", "machine-hours (servers on x hours)", "machine-hours");
    put("grid_kwh_day", "energy per day, servers and data movement", "kWh/day");
    put("kg_co2_day", "carbon per day (grid intensity x energy)", "kgCO2/day");
    put("eur_day", "electricity cost per day (day-ahead price x energy)", "EUR/day");
    put("move_gb_day", "background data moved per day", "GB/day");
    put("move_kwh_day", "energy of background data movement per day", "kWh/day");
    put("move_g_co2_day", "carbon of background data movement per day", "gCO2/day");
    put("move_eur_day", "cost of background data movement per day", "EUR/day");
    put("grid_uncovered_kwh", "energy outside the grid signal", "kWh");
    put("grid_gap_h", "run time in the signal's gaps (last value before the gap carried)", "h");
    put("deferred_releases", "releases of deferred background work", "releases");
    put("deferred_wait_mean_h", "mean wait of deferred background work", "h");
    put("deferred_wait_max_h", "longest wait of deferred background work", "h");
    put("deferred_holds", "holds of deferrable background work", "holds");
    put("deferred_holds_unreleased", "holds that ended without a release or were open at the end", "holds");
    put("deferred_hold_mean_h", "mean hold of deferrable background work", "h");
    put("deferred_hold_max_h", "longest hold of deferrable background work", "h");
    put("ideal_machine_hours", "ideal machine-hours (SpringFS 5.2 oracle)", "machine-hours");
    put("machine_hours_vs_ideal", "machine-hours relative to the ideal", "x ideal");
    put("dwell_ideal_machine_hours", "machine-hours of the dwell-bounded ideal", "machine-hours");
    put("machine_hours_vs_dwell_ideal", "machine-hours vs the dwell-bounded ideal", "x ideal-dwell");
    put("power_cycles_mean_day", "mean power cycles per server", "cycles/server/day");
    put("power_cycles_max_day", "most power cycles of one server", "cycles/server/day");
    put("migrated_gb", "data migrated (cleanup and reflection)", "GB");
    put("cleanup_gb", "cleanup data moved before servers slept", "GB");
    put("reflection_gb", "data reflected or migrated after servers woke", "GB");
    put("gear_shifts", "gear shifts", "shifts");
    put("gear_ups", "gear-ups", "shifts");
    put("gear_up_reads_per_joule", "throughput per watt during gear-up", "reads/s per W");
    put("power_proportionality", "least degree of power proportionality over gears from 5% (Rabbit)", "fraction");
    put("recovery_group_servers", "servers a failed server's recovery group wakes (largest)", "servers");
  }

  private MetricTitles() {
  }

  private static String sizeName(int mb) {
    return mb >= 1_000 ? (mb / 1_000) + " GB" : mb + " MB";
  }

  private static void put(String metric, String title, String unit) {
    NAMES.put(metric, new Name(title, unit));
  }

  /** Whether {@code metric} has a readable name. */
  public static boolean isKnown(String metric) {
    return NAMES.containsKey(metric);
  }

  /** The readable name of {@code metric}; an unknown metric throws naming it and the known ones. */
  public static Name of(String metric) {
    Name name = NAMES.get(metric);
    if (name == null) {
      throw new IllegalArgumentException("metric " + metric + " is not allowed: it has no readable name; known"
          + " metrics are " + NAMES.keySet());
    }
    return name;
  }
}
