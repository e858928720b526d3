package org.eafr.sim;

import java.util.List;
import java.util.Map;

/**
 * A named experiment: base settings, the variants to sweep (each a label, the x value charts plot, and settings on
 * top of the base), the policies to compare, and the metrics its charts plot (EAFR Figs. 5-14).
 */
public record Scenario(String name, String description, Map<String, String> base, String xLabel,
    List<Variant> variants, List<String> policies, List<String> chartMetrics) {

  /**
   * One point of a sweep; {@code trace}, when not null, is the workload it runs (a scenario comparing traces), else
   * the command's {@code --trace}. A variant with no settings of its own (a scenario's single run) is labelled by what it
   * runs, its simulated time ("48h", or "24h" under {@code --set sim.duration.hours=24}), never by a fixed name.
   */
  public record Variant(String label, double x, Map<String, String> settings, String trace) {
    public Variant {
      settings = Map.copyOf(settings);
    }

    /** A variant run on the command's trace. */
    public Variant(String label, double x, Map<String, String> settings) {
      this(label, x, settings, null);
    }

    /** One run of the scenario's base settings. */
    public static Variant single() {
      return new Variant("", 0, Map.of());
    }

    /** The label of this variant run with {@code effective} settings. */
    public String labelFor(org.eafr.sim.SimSettings effective) {
      return settings.isEmpty() && trace == null ? hours(effective.durationMicros() / 3.6e9) : label;
    }

    private static String hours(double hours) {
      return hours == Math.rint(hours) ? (long) hours + "h"
          : java.math.BigDecimal.valueOf(hours).round(new java.math.MathContext(3)).stripTrailingZeros()
              .toPlainString() + "h";
    }
  }

  /**
   * This scenario with only the variants named in {@code labels} (all of them when empty); a variant without a label
   * of its own (a single run) is named "default". An unknown name throws listing the known ones.
   */
  public Scenario only(List<String> labels) {
    if (labels.isEmpty()) {
      return this;
    }
    List<String> known = variants.stream().map(Scenario::nameOf).toList();
    for (String label : labels) {
      if (!known.contains(label)) {
        throw new IllegalArgumentException("--variants " + label + " is not allowed: scenario " + name
            + " has the variants " + known);
      }
    }
    return new Scenario(name, description, base, xLabel,
        variants.stream().filter(v -> labels.contains(nameOf(v))).toList(), policies, chartMetrics);
  }

  private static String nameOf(Variant variant) {
    return variant.label().isEmpty() ? "default" : variant.label();
  }

  public Scenario {
    base = Map.copyOf(base);
    variants = List.copyOf(variants);
    policies = List.copyOf(policies);
    chartMetrics = List.copyOf(chartMetrics);
  }
}
