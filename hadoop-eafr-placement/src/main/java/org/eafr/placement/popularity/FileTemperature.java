package org.eafr.placement.popularity;

/**
 * A file's class in one interval (EAFR Sec. 3.2.2): HOT when Eq. 2 or Eq. 3 holds, COLD only when both Eq. 4 and
 * Eq. 5 hold, NORMAL otherwise (replicas left as they are).
 */
public enum FileTemperature {
  HOT,
  NORMAL,
  COLD
}
