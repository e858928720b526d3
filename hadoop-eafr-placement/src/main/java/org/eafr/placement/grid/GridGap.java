package org.eafr.placement.grid;

import java.time.Instant;
import java.util.Objects;

/**
 * A run of slots a signal had no usable value for, filled with the last value before it (the first value after it at
 * the start of the series): {@code field} is "carbon", "forecast" or "price", the run covers [from, to) in UTC epoch
 * milliseconds, and {@code slots} is its length. Immutable.
 */
public final class GridGap {
  private final String field;
  private final long fromMillis;
  private final long toMillis;
  private final int slots;

  public GridGap(String field, long fromMillis, long toMillis, int slots) {
    this.field = Objects.requireNonNull(field, "field");
    this.fromMillis = fromMillis;
    this.toMillis = toMillis;
    this.slots = slots;
  }

  public String field() {
    return field;
  }

  public long fromMillis() {
    return fromMillis;
  }

  public long toMillis() {
    return toMillis;
  }

  public int slots() {
    return slots;
  }

  /** One line for a log or a status page. */
  public String describe() {
    return field + " missing for " + slots + " slot(s) from " + Instant.ofEpochMilli(fromMillis) + " to "
        + Instant.ofEpochMilli(toMillis) + " (filled with the nearest earlier value)";
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof GridGap)) {
      return false;
    }
    GridGap g = (GridGap) o;
    return field.equals(g.field) && fromMillis == g.fromMillis && toMillis == g.toMillis && slots == g.slots;
  }

  @Override
  public int hashCode() {
    return Objects.hash(field, fromMillis, toMillis, slots);
  }

  @Override
  public String toString() {
    return describe();
  }
}
