package org.eafr.sim;

import java.util.List;
import java.util.Map;

/**
 * A named experiment: base settings, the variants to sweep (each a label, the x value charts plot, and settings on
 * top of the base), the policies to compare, and the metrics its charts plot (EAFR Figs. 5-14).
 */
public record Scenario(String name, String description, Map<String, String> base, String xLabel,
    List<Variant> variants, List<String> policies, List<String> chartMetrics) {

  /** One point of a sweep. */
  public record Variant(String label, double x, Map<String, String> settings) {
  }

  public Scenario {
    base = Map.copyOf(base);
    variants = List.copyOf(variants);
    policies = List.copyOf(policies);
    chartMetrics = List.copyOf(chartMetrics);
  }
}
