package org.eafr.sim.report;

import java.util.List;
import java.util.Locale;
import org.eafr.sim.stats.RunResult;

/** The headline metrics as an aligned text table for stdout, one row per (variant, policy). */
public final class TableReport {
  /** Column header and metric, in table order. */
  private static final String[][] COLUMNS = {
      {"mean ms", "read_mean_ms"}, {"p1 ms", "read_p1_ms"}, {"p50 ms", "read_p50_ms"}, {"p99 ms", "read_p99_ms"},
      {">10ms", "read_over_10ms"}, {"repl 1GB s", "repl_1000MB_s"}, {"repl 10GB s", "repl_10000MB_s"},
      {"kWh/day", "energy_kwh_day"}, {"util p99", "util_p99"}, {"overload", "overloaded_share"},
      {"storage TB", "storage_tb"}, {"ok@0.1", "success_lambda_0.1"}, {"ok@0.2", "success_lambda_0.2"},
      {"recovery s", "recovery_mean_s"}};

  private TableReport() {
  }

  public static String render(List<RunResult> results) {
    StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "%-16s %-22s", "variant", "policy"));
    for (String[] column : COLUMNS) {
      table.append(String.format(Locale.ROOT, " %11s", column[0]));
    }
    table.append('\n');
    for (RunResult result : results) {
      table.append(String.format(Locale.ROOT, "%-16s %-22s", result.variant(), result.policy()));
      for (String[] column : COLUMNS) {
        double value = result.get(column[1]);
        table.append(Double.isNaN(value) ? String.format(Locale.ROOT, " %11s", "-")
            : String.format(Locale.ROOT, " %11.3f", value));
      }
      table.append('\n');
    }
    return table.toString();
  }
}
