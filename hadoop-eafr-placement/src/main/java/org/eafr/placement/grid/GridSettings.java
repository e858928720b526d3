package org.eafr.placement.grid;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.placement.settings.Range;
import org.eafr.placement.settings.Setting;

/**
 * The {@code eafr.grid.*} settings of carbon- and price-aware scheduling, typed and range-checked like
 * {@code EafrSettings}: the objective, the forecast horizon, the least saving worth waiting for, each work kind's
 * longest wait, how far the gear controller's target utilization u may move, and the read-latency bound that stops u
 * from rising. Defaults schedule for energy only and leave u where {@code eafr.gear.target-utilization} puts it.
 * Immutable.
 */
public final class GridSettings {
  public static final String PREFIX = "eafr.grid.";
  public static final String OBJECTIVE_KEY = "eafr.grid.objective";
  private static final long HOUR_MS = 3_600_000L;

  public static final Setting<Long> HORIZON_MS = Setting.ofLong("eafr.grid.horizon.ms", "-",
      "How far ahead the scheduler reads the forecast.", 24 * HOUR_MS, Range.closed(HOUR_MS, 7 * 24 * HOUR_MS));
  public static final Setting<Double> MIN_SAVING = Setting.ofDouble("eafr.grid.min-saving", "-",
      "Work waits only for a slot at least this share cleaner or cheaper than now.", 0.05, Range.closedOpen(0.0, 1.0));
  public static final Setting<Double> UTILIZATION_LOWER = Setting.ofDouble("eafr.grid.utilization.lower", "-",
      "How far below u the target utilization goes in the cleanest or cheapest hour of the horizon.", 0.0,
      Range.closed(0.0, 0.5));
  public static final Setting<Double> UTILIZATION_RAISE = Setting.ofDouble("eafr.grid.utilization.raise", "-",
      "How far above u the target utilization goes in the dirtiest or dearest hour (never above 1).", 0.0,
      Range.closed(0.0, 0.5));
  public static final Setting<Double> READ_LATENCY_BOUND_MS = Setting.ofDouble("eafr.grid.read-latency-bound.ms",
      "-", "While the last period's mean read latency is above this, no work is held and u is not raised; 0: no bound.",
      0.0,
      Range.atLeast(0.0));

  private final Objective objective;
  private final Map<Setting<?>, Number> values;
  private final Map<WorkKind, Long> maxWait;

  private GridSettings(Objective objective, Map<Setting<?>, Number> values, Map<WorkKind, Long> maxWait) {
    this.objective = objective;
    this.values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
    this.maxWait = java.util.Collections.unmodifiableMap(new EnumMap<>(maxWait));
  }

  /** Every numeric setting, in documentation order. */
  public static List<Setting<?>> numericSettings() {
    List<Setting<?>> all = new ArrayList<>(List.of(HORIZON_MS, MIN_SAVING, UTILIZATION_LOWER, UTILIZATION_RAISE,
        READ_LATENCY_BOUND_MS));
    for (WorkKind kind : WorkKind.values()) {
      all.add(kind.maxWait());
    }
    return all;
  }

  /** Every key, the objective's first. */
  public static List<String> keys() {
    List<String> keys = new ArrayList<>();
    keys.add(OBJECTIVE_KEY);
    numericSettings().forEach(s -> keys.add(s.key()));
    return keys;
  }

  public static GridSettings defaults() {
    return of(Map.of());
  }

  /**
   * Settings from {@code raw}: its {@code eafr.grid.*} entries (others are ignored). A misspelled grid key, an
   * unknown objective or a value out of range throws {@link InvalidSettingException} naming the key, the value and
   * what is allowed.
   */
  public static GridSettings of(Map<String, String> raw) {
    List<String> known = keys();
    for (String key : raw.keySet()) {
      if (key.startsWith(PREFIX) && !known.contains(key)) {
        throw new InvalidSettingException(key, raw.get(key), "unknown key; known eafr.grid keys are " + known);
      }
    }
    return of(raw::get);
  }

  /** Settings from a lookup of the {@code eafr.grid.*} keys (a missing or blank value takes the default). */
  public static GridSettings of(Function<String, String> lookup) {
    String rawObjective = lookup.apply(OBJECTIVE_KEY);
    Objective objective = rawObjective == null || rawObjective.isBlank() ? Objective.ENERGY
        : Objective.parse(OBJECTIVE_KEY, rawObjective);
    Map<Setting<?>, Number> values = new LinkedHashMap<>();
    for (Setting<?> setting : List.of(HORIZON_MS, MIN_SAVING, UTILIZATION_LOWER, UTILIZATION_RAISE,
        READ_LATENCY_BOUND_MS)) {
      values.put(setting, setting.read(lookup));
    }
    Map<WorkKind, Long> maxWait = new EnumMap<>(WorkKind.class);
    for (WorkKind kind : WorkKind.values()) {
      maxWait.put(kind, kind.maxWait().read(lookup));
    }
    return new GridSettings(objective, values, maxWait);
  }

  /** These settings with the objective {@code objective}. */
  public GridSettings withObjective(Objective objective) {
    return new GridSettings(objective, values, maxWait);
  }

  public Objective objective() {
    return objective;
  }

  @SuppressWarnings("unchecked")
  public <T extends Number & Comparable<T>> T get(Setting<T> setting) {
    return (T) values.get(setting);
  }

  /** The longest {@code kind} work may wait, in milliseconds. */
  public long maxWaitMillis(WorkKind kind) {
    return maxWait.get(kind);
  }

  /** Every key with its value as text, in {@link #keys()} order. */
  public Map<String, String> asMap() {
    Map<String, String> map = new LinkedHashMap<>();
    map.put(OBJECTIVE_KEY, objective.toString());
    values.forEach((s, v) -> map.put(s.key(), String.valueOf(v)));
    maxWait.forEach((k, v) -> map.put(k.maxWait().key(), String.valueOf(v)));
    return map;
  }
}
