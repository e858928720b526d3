package org.eafr.placement.gear.shift;

/** A host's power state, as a gear shift asks for it and as a power driver reads it. */
public enum Power {
  ON,
  OFF
}
