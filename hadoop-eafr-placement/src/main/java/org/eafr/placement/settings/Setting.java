package org.eafr.placement.settings;

import java.util.Objects;
import java.util.function.Function;

/**
 * One typed, documented, range-checked setting: its key, its default, what it means (with the paper symbol) and the
 * range it accepts. Settings are read from a string lookup (hdfs-site.xml, a simulator config, a test map), so parsing
 * and range checks live here once.
 *
 * @param <T> the value type (Integer, Long or Double)
 */
public final class Setting<T extends Number & Comparable<T>> {
  private final String key;
  private final String symbol;
  private final String description;
  private final T defaultValue;
  private final Range<T> range;
  private final Function<String, T> parser;

  private Setting(String key, String symbol, String description, T defaultValue, Range<T> range,
      Function<String, T> parser) {
    this.key = Objects.requireNonNull(key);
    this.symbol = Objects.requireNonNull(symbol);
    this.description = Objects.requireNonNull(description);
    this.defaultValue = range.check(key, defaultValue);
    this.range = range;
    this.parser = parser;
  }

  public static Setting<Double> ofDouble(String key, String symbol, String description, double defaultValue,
      Range<Double> range) {
    return new Setting<>(key, symbol, description, defaultValue, range, Double::valueOf);
  }

  public static Setting<Integer> ofInt(String key, String symbol, String description, int defaultValue,
      Range<Integer> range) {
    return new Setting<>(key, symbol, description, defaultValue, range, Integer::valueOf);
  }

  public static Setting<Long> ofLong(String key, String symbol, String description, long defaultValue,
      Range<Long> range) {
    return new Setting<>(key, symbol, description, defaultValue, range, Long::valueOf);
  }

  /** The value from {@code lookup}, or the default when the lookup has none; malformed or out-of-range values throw. */
  public T read(Function<String, String> lookup) {
    String raw = lookup.apply(key);
    if (raw == null || raw.trim().isEmpty()) {
      return defaultValue;
    }
    return parse(raw.trim());
  }

  /** Parses and range-checks one raw value. */
  public T parse(String raw) {
    T value;
    try {
      value = parser.apply(raw);
    } catch (NumberFormatException e) {
      throw new InvalidSettingException(key, raw, "expected a number in " + range);
    }
    if (value instanceof Double && ((Double) value).isNaN()) {
      throw new InvalidSettingException(key, raw, "expected a number in " + range);
    }
    return range.check(key, value);
  }

  /** Range-checks a typed value, as given to a builder. */
  public T check(T value) {
    return range.check(key, value);
  }

  public String key() {
    return key;
  }

  public String symbol() {
    return symbol;
  }

  public String description() {
    return description;
  }

  public T defaultValue() {
    return defaultValue;
  }

  public Range<T> range() {
    return range;
  }

  @Override
  public String toString() {
    return key + " (" + symbol + ", default " + defaultValue + ", " + range + ")";
  }
}
