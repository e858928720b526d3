package org.eafr.placement.grid;

import java.util.Arrays;
import java.util.Locale;
import org.eafr.placement.settings.InvalidSettingException;

/**
 * What deferrable work is scheduled against: nothing (energy only: work runs as soon as it may), the grid's carbon
 * intensity (gCO2/kWh), or its day-ahead price (EUR/MWh).
 */
public enum Objective {
  /** Work runs when it may; the grid signal is only accounted. */
  ENERGY,
  /** Work waits for the hours of lowest forecast carbon intensity before its deadline. */
  CARBON,
  /** Work waits for the hours of lowest day-ahead price before its deadline. */
  PRICE;

  /** The objective named {@code raw} (any case); anything else throws naming {@code key} and the allowed names. */
  public static Objective parse(String key, String raw) {
    for (Objective objective : values()) {
      if (objective.name().equalsIgnoreCase(raw.trim())) {
        return objective;
      }
    }
    throw new InvalidSettingException(key, raw, "one of " + Arrays.toString(names()));
  }

  /** The lower-case names, as settings spell them. */
  public static String[] names() {
    return Arrays.stream(values()).map(o -> o.name().toLowerCase(Locale.ROOT)).toArray(String[]::new);
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
