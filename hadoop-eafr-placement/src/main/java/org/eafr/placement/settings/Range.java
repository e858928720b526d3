package org.eafr.placement.settings;

import java.util.Objects;

/**
 * An interval of allowed values, each end open or closed or unbounded. {@link #toString()} prints it the way error
 * messages show it: {@code (0, 1)}, {@code [1, +inf)}.
 *
 * @param <T> the value type
 */
public final class Range<T extends Comparable<T>> {
  private final T low;
  private final boolean lowInclusive;
  private final T high;
  private final boolean highInclusive;

  private Range(T low, boolean lowInclusive, T high, boolean highInclusive) {
    this.low = low;
    this.lowInclusive = lowInclusive;
    this.high = high;
    this.highInclusive = highInclusive;
  }

  /** (low, high): both ends excluded. */
  public static <T extends Comparable<T>> Range<T> open(T low, T high) {
    return new Range<>(Objects.requireNonNull(low), false, Objects.requireNonNull(high), false);
  }

  /** [low, high]: both ends included. */
  public static <T extends Comparable<T>> Range<T> closed(T low, T high) {
    return new Range<>(Objects.requireNonNull(low), true, Objects.requireNonNull(high), true);
  }

  /** (low, high]. */
  public static <T extends Comparable<T>> Range<T> openClosed(T low, T high) {
    return new Range<>(Objects.requireNonNull(low), false, Objects.requireNonNull(high), true);
  }

  /** [low, high). */
  public static <T extends Comparable<T>> Range<T> closedOpen(T low, T high) {
    return new Range<>(Objects.requireNonNull(low), true, Objects.requireNonNull(high), false);
  }

  /** [low, +inf). */
  public static <T extends Comparable<T>> Range<T> atLeast(T low) {
    return new Range<>(Objects.requireNonNull(low), true, null, false);
  }

  /** (low, +inf). */
  public static <T extends Comparable<T>> Range<T> greaterThan(T low) {
    return new Range<>(Objects.requireNonNull(low), false, null, false);
  }

  public boolean contains(T value) {
    if (value == null) {
      return false;
    }
    int vsLow = value.compareTo(low);
    if (vsLow < 0 || (vsLow == 0 && !lowInclusive)) {
      return false;
    }
    if (high == null) {
      return !(value instanceof Double && ((Double) value).isInfinite());
    }
    int vsHigh = value.compareTo(high);
    return vsHigh < 0 || (vsHigh == 0 && highInclusive);
  }

  /** Returns {@code value} when allowed, otherwise throws naming {@code key}, the value and this range. */
  public T check(String key, T value) {
    if (!contains(value)) {
      throw new InvalidSettingException(key, String.valueOf(value), "expected a number in " + this);
    }
    return value;
  }

  @Override
  public String toString() {
    return (lowInclusive ? "[" : "(") + low + ", " + (high == null ? "+inf)" : high + (highInclusive ? "]" : ")"));
  }
}
