package org.eafr.sim.report;

import java.util.List;
import org.eafr.sim.stats.RunResult;

/**
 * Results as CSV: one row per (variant, policy), every metric a column, fixed formatting and no timestamps, so the
 * same seed gives byte-identical files (the regression oracle compares them).
 */
public final class CsvReport {
  private CsvReport() {
  }

  public static String render(List<RunResult> results) {
    if (results.isEmpty()) {
      return "";
    }
    StringBuilder csv = new StringBuilder("scenario,variant,policy");
    for (String metric : results.get(0).metrics().keySet()) {
      csv.append(',').append(metric);
    }
    csv.append('\n');
    for (RunResult result : results) {
      csv.append(result.scenario()).append(',').append(result.variant()).append(',').append(result.policy());
      for (double value : result.metrics().values()) {
        csv.append(',').append(RunResult.format(value));
      }
      csv.append('\n');
    }
    return csv.toString();
  }
}
