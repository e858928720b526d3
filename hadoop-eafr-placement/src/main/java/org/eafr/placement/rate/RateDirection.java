package org.eafr.placement.rate;

/**
 * Which way a receiver asks one sender to move its transmission rate (EAFR Alg. 2): DOWN when the receive link is
 * nearly saturated (Eq. 14), UP when it has room to spare (Eq. 15), HOLD in between.
 */
public enum RateDirection {
  DOWN,
  UP,
  HOLD
}
