package org.eafr.namenode.config;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.placement.settings.Range;
import org.eafr.placement.settings.Setting;

/**
 * The keys of the cold-sleep service ({@code org.eafr.namenode.cold.ColdSleep}): whether EAFR's cold servers (Eq. 8) are switched off through
 * the power manager, how often a sleeping one wakes for its consistency check (EAFR Sec. 3.2.1: "cold servers wake up
 * periodically (e.g., once a week) and check for file consistency"), how long a woken one stays in service, and how
 * often the service looks. Built whole or not at all: a bad value throws naming the key, the value and what is allowed.
 */
public final class ColdSleepSettings {
  public static final String POWER_OFF_KEY = "eafr.cold.power-off";
  public static final Setting<Long> CONSISTENCY_CHECK_MS = Setting.ofLong("eafr.cold.consistency-check.interval.ms",
      "-", "How long a cold server whose host EAFR switched off sleeps before it is woken for its consistency check"
          + " (its block report lets HDFS bring its replicas up to date), in milliseconds.", 604_800_000L,
      Range.closed(60_000L, 31_536_000_000L));
  public static final Setting<Long> AWAKE_MS = Setting.ofLong("eafr.cold.awake.ms", "-",
      "How long a cold server woken for a read, a recovery or its consistency check stays in service before it goes"
          + " back into maintenance and to sleep (when it is still a nearly full standby server), in milliseconds.",
      600_000L, Range.closed(0L, 86_400_000L));
  public static final Setting<Long> STEP_MS = Setting.ofLong("eafr.cold.step.ms", "-",
      "How often the cold-sleep service looks at the cold servers (power-offs to ask for, wakes, hosts back), in"
          + " milliseconds; a read that finds no live replica has it look at once.", 5_000L,
      Range.closed(100L, 3_600_000L));

  private final boolean powerOff;
  private final long consistencyCheckMillis;
  private final long awakeMillis;
  private final long stepMillis;

  private ColdSleepSettings(Function<String, String> lookup) {
    this.powerOff = parseBoolean(POWER_OFF_KEY, lookup.apply(POWER_OFF_KEY));
    this.consistencyCheckMillis = CONSISTENCY_CHECK_MS.read(lookup);
    this.awakeMillis = AWAKE_MS.read(lookup);
    this.stepMillis = STEP_MS.read(lookup);
  }

  /** Reads every key from {@code lookup} (e.g. {@code conf::get}); absent keys keep their defaults. */
  public static ColdSleepSettings from(Function<String, String> lookup) {
    return new ColdSleepSettings(lookup);
  }

  private static boolean parseBoolean(String key, String raw) {
    if (raw == null || raw.trim().isEmpty()) {
      return false;
    }
    switch (raw.trim().toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new InvalidSettingException(key, raw, "must be true or false");
    }
  }

  /** The numeric settings, for eafr-default.xml and the configuration reference. */
  public static List<Setting<?>> numericSettings() {
    return List.of(CONSISTENCY_CHECK_MS, AWAKE_MS, STEP_MS);
  }

  /** Every key read here. */
  public static Set<String> keys() {
    Set<String> keys = new TreeSet<>();
    keys.add(POWER_OFF_KEY);
    numericSettings().forEach(setting -> keys.add(setting.key()));
    return keys;
  }

  /** Whether cold servers' hosts are switched off ({@code eafr.cold.power-off}, false by default). */
  public boolean powerOff() {
    return powerOff;
  }

  public long consistencyCheckMillis() {
    return consistencyCheckMillis;
  }

  public long awakeMillis() {
    return awakeMillis;
  }

  public long stepMillis() {
    return stepMillis;
  }
}
