package org.eafr.placement.gear.shift;

import java.util.Collections;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What a gear shift persists: the gear in force, the target gear, the phase, the DataNodes kept in maintenance because
 * their gear sleeps, those among them being woken out of turn (Rabbit Sec. 3.5), and those the gear-down under way
 * added (a cancelled gear-down takes only these out of maintenance again: the ones asleep since an earlier shift are
 * powered off, and out of maintenance HDFS would re-replicate all they hold). Immutable; {@link #encode()} and
 * {@link #decode(String)} give the one-line text a {@link ShiftStore} keeps, e.g.
 * {@code gear=2;target=0;phase=ENTERING_MAINTENANCE;sleeping=s4,s5,s6;waking=;joining=s4,s5}.
 */
public final class ShiftState {
  private final int gear;
  private final int target;
  private final ShiftPhase phase;
  private final SortedSet<String> sleeping;
  private final SortedSet<String> waking;
  private final SortedSet<String> joining;

  public ShiftState(int gear, int target, ShiftPhase phase, Set<String> sleeping, Set<String> waking) {
    this(gear, target, phase, sleeping, waking, Set.of());
  }

  /**
   * @param joining the sleeping DataNodes the gear-down under way added (empty outside a gear-down)
   */
  public ShiftState(int gear, int target, ShiftPhase phase, Set<String> sleeping, Set<String> waking,
      Set<String> joining) {
    if (gear < 0 || target < 0) {
      throw new IllegalArgumentException("gear " + gear + " and target " + target + " are not allowed: expected"
          + " both >= 0");
    }
    if (phase == ShiftPhase.STEADY && gear != target) {
      throw new IllegalArgumentException("a steady state in gear " + gear + " with target " + target
          + " is not allowed: steady means the target is reached");
    }
    this.gear = gear;
    this.target = target;
    this.phase = phase;
    this.sleeping = Collections.unmodifiableSortedSet(new TreeSet<>(sleeping));
    TreeSet<String> kept = new TreeSet<>(waking);
    kept.retainAll(sleeping);
    this.waking = Collections.unmodifiableSortedSet(kept);
    TreeSet<String> added = new TreeSet<>(joining);
    added.retainAll(sleeping);
    this.joining = Collections.unmodifiableSortedSet(added);
  }

  /** Steady in {@code gear} with every DataNode awake. */
  public static ShiftState steady(int gear) {
    return new ShiftState(gear, gear, ShiftPhase.STEADY, Set.of(), Set.of());
  }

  public int gear() {
    return gear;
  }

  public int target() {
    return target;
  }

  public ShiftPhase phase() {
    return phase;
  }

  /** DataNodes kept in maintenance because their gear sleeps (or is going to sleep). */
  public SortedSet<String> sleeping() {
    return sleeping;
  }

  /** Sleeping DataNodes being woken out of turn (a subset of {@link #sleeping()}). */
  public SortedSet<String> waking() {
    return waking;
  }

  /** The sleeping DataNodes the gear-down under way added; empty outside a gear-down. */
  public SortedSet<String> joining() {
    return joining;
  }

  public ShiftState withPhase(ShiftPhase next) {
    return new ShiftState(gear, target, next, sleeping, waking, joining);
  }

  /**
   * A shift toward {@code newTarget} in phase {@code next} with these sleeping DataNodes; those not sleeping before
   * are the ones it adds ({@link #joining()}).
   */
  public ShiftState shifting(int newTarget, ShiftPhase next, Set<String> newSleeping) {
    Set<String> added = new TreeSet<>(newSleeping);
    added.removeAll(sleeping);
    added.addAll(joining);
    return new ShiftState(gear, newTarget, next, newSleeping, waking, added);
  }

  /** {@code more} sleeping DataNodes are to be woken out of turn as well. */
  public ShiftState withWaking(Set<String> more) {
    Set<String> next = new TreeSet<>(waking);
    next.addAll(more);
    return new ShiftState(gear, target, phase, sleeping, next, joining);
  }

  /** The DataNodes being woken out of turn are on, registered and reported: they sleep no more. */
  public ShiftState woken() {
    Set<String> still = new TreeSet<>(sleeping);
    still.removeAll(waking);
    return new ShiftState(gear, target, phase, still, Set.of(), joining);
  }

  /**
   * The expansion chain grew between shifts, its highest gear from {@code topBefore} to {@code topAfter} (every server
   * kept its position): the highest gear stays the highest, so the newcomers are on; any lower gear stays in force
   * (the newcomers stay on until the next shift down), and the sleepers sleep on.
   */
  public ShiftState grown(int topBefore, int topAfter) {
    int next = gear == topBefore ? topAfter : gear;
    return new ShiftState(next, next, phase, sleeping, waking, joining);
  }

  /** The target reached: steady in it. */
  public ShiftState reached() {
    return new ShiftState(target, target, ShiftPhase.STEADY, sleeping, waking);
  }

  /** The gear-down given up: steady in the gear in force; only the DataNodes it added sleep no more. */
  public ShiftState cancelled() {
    return cancelled(Set.of());
  }

  /**
   * The gear-down given up after maintenance: steady in the gear in force; the DataNodes it added and every one of
   * {@code running} sleep no more (a DataNode that runs is never counted asleep). Only those asleep since an earlier
   * shift and not running stay in maintenance: their hosts are off, and out of it HDFS would re-replicate all they
   * hold while no gear-up would power them on.
   */
  public ShiftState cancelled(Set<String> running) {
    Set<String> still = new TreeSet<>(sleeping);
    still.removeAll(joining);
    still.removeAll(running);
    return new ShiftState(gear, gear, ShiftPhase.STEADY, still, waking);
  }

  /**
   * A shift ended where it stands by an operator ({@link ShiftCancel}): steady in {@code reachedGear}, with
   * {@code stillSleeping} (not running) asleep and nothing waking.
   */
  public ShiftState cancelledAt(int reachedGear, Set<String> stillSleeping) {
    return new ShiftState(reachedGear, reachedGear, ShiftPhase.STEADY, stillSleeping, Set.of());
  }

  public String encode() {
    return "gear=" + gear + ";target=" + target + ";phase=" + phase + ";sleeping=" + String.join(",", sleeping)
        + ";waking=" + String.join(",", waking) + ";joining=" + String.join(",", joining);
  }

  /** Parses what {@link #encode()} wrote; damaged text throws naming the text and what is wrong. */
  public static ShiftState decode(String text) {
    String[] fields = text.split(";", -1);
    if (fields.length != 6) {
      throw damaged(text, "expected 6 fields gear;target;phase;sleeping;waking;joining, found " + fields.length);
    }
    try {
      return new ShiftState(Integer.parseInt(value(text, fields[0], "gear")),
          Integer.parseInt(value(text, fields[1], "target")), ShiftPhase.valueOf(value(text, fields[2], "phase")),
          ids(value(text, fields[3], "sleeping")), ids(value(text, fields[4], "waking")),
          ids(value(text, fields[5], "joining")));
    } catch (IllegalArgumentException e) {
      throw damaged(text, e.getMessage());
    }
  }

  private static String value(String text, String field, String key) {
    if (!field.startsWith(key + "=")) {
      throw damaged(text, "expected field " + key + "=..., found '" + field + "'");
    }
    return field.substring(key.length() + 1);
  }

  private static Set<String> ids(String list) {
    Set<String> ids = new TreeSet<>();
    for (String id : list.split(",")) {
      if (!id.isEmpty()) {
        ids.add(id);
      }
    }
    return ids;
  }

  private static IllegalArgumentException damaged(String text, String why) {
    return new IllegalArgumentException("gear shift state '" + text + "' is damaged: " + why);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ShiftState && ((ShiftState) o).encode().equals(encode());
  }

  @Override
  public int hashCode() {
    return encode().hashCode();
  }

  @Override
  public String toString() {
    return "gear " + gear + (target != gear ? " -> " + target : "") + " " + phase + ", " + sleeping.size()
        + " sleeping" + (waking.isEmpty() ? "" : ", " + waking.size() + " waking");
  }
}
