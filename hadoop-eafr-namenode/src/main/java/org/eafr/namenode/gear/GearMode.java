package org.eafr.namenode.gear;

import java.util.Locale;

/**
 * Who chooses the gear: the operator ({@code hdfs eafr gear N|up|down}) or the {@link GearAutopilot} from the
 * NameNode's load. Configured by {@code eafr.gear.mode}; switched at run time by {@code hdfs eafr gear auto} and by a
 * manual gear command, and persisted in the namespace ({@link GearStore}), so a restart or failover keeps it.
 */
public enum GearMode {
  MANUAL,
  AUTO;

  /** The name operators write ({@code manual}, {@code auto}). */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The mode named {@code word}, or null when it names none. */
  static GearMode of(String word) {
    for (GearMode mode : values()) {
      if (mode.word().equals(word)) {
        return mode;
      }
    }
    return null;
  }
}
