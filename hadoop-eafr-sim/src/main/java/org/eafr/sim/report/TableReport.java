package org.eafr.sim.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.eafr.sim.stats.RunResult;

/**
 * The headline metrics as an aligned text table for stdout, one row per (variant, policy). Failed reads come first:
 * latencies are those of the served reads, so a run that lost reads must say so before its latencies are read.
 */
public final class TableReport {
  /** Column header, metric, and whether it is a count (printed without decimals), in table order. */
  private record Column(String header, String metric, boolean count) {
  }

  private static final Column[] COLUMNS = {
      new Column("failed reads", "failed_reads", true), new Column("mean ms", "read_mean_ms", false),
      new Column("p1 ms", "read_p1_ms", false), new Column("p50 ms", "read_p50_ms", false),
      new Column("p99 ms", "read_p99_ms", false), new Column(">10ms", "read_over_10ms", false),
      new Column("repl 1GB s", "repl_1000MB_s", false), new Column("repl 10GB s", "repl_10000MB_s", false),
      new Column("kWh/day", "energy_kwh_day", false), new Column("util p99", "util_p99", false),
      new Column("overload", "overloaded_share", false), new Column("storage TB", "storage_tb", false),
      new Column("ok@0.1", "success_lambda_0.1", false), new Column("ok@0.2", "success_lambda_0.2", false),
      new Column("recovery s", "recovery_mean_s", false)};

  private TableReport() {
  }

  public static String render(List<RunResult> results) {
    StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "%-16s %-22s", "variant", "policy"));
    for (Column column : COLUMNS) {
      table.append(String.format(Locale.ROOT, " %12s", column.header()));
    }
    table.append('\n');
    for (RunResult result : results) {
      table.append(String.format(Locale.ROOT, "%-16s %-22s", result.variant(), result.policy()));
      for (Column column : COLUMNS) {
        double value = result.metrics().getOrDefault(column.metric(), Double.NaN);
        if (Double.isNaN(value)) {
          table.append(String.format(Locale.ROOT, " %12s", "n/a"));
        } else if (column.count()) {
          table.append(String.format(Locale.ROOT, " %12d", Math.round(value)));
        } else {
          table.append(String.format(Locale.ROOT, " %12.3f", value));
        }
      }
      table.append('\n');
    }
    return table.toString();
  }

  /**
   * One warning line per run that lost reads: how many of its reads failed and that its latencies cover only the
   * reads that were served. Empty when every read was served.
   */
  public static List<String> warnings(List<RunResult> results) {
    List<String> warnings = new ArrayList<>();
    for (RunResult result : results) {
      double failed = result.metrics().getOrDefault("failed_reads", 0.0);
      if (failed > 0) {
        double total = failed + result.get("reads");
        warnings.add(String.format(Locale.ROOT, "warning: %s (%s): %,d of %,d reads failed (%.1f%%), no live replica"
            + " of the file; its latencies are of the %,d reads served", result.policy(), result.variant(),
            Math.round(failed), Math.round(total), 100 * failed / total, Math.round(result.get("reads"))));
      }
    }
    return warnings;
  }
}
