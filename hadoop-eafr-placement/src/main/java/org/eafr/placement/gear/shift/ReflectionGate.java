package org.eafr.placement.gear.shift;

/**
 * Whether reflection may move blocks now: a host may hold it for a cleaner or cheaper slot of the grid before a
 * deadline (the NameNode's grid gate), given how much is owed. A held gear-up stays in
 * {@link ShiftPhase#REFLECTING}, and nothing owed is forgotten meanwhile.
 */
@FunctionalInterface
public interface ReflectionGate {
  /** Reflection is never held. */
  ReflectionGate OPEN = owed -> true;

  /** Whether reflection may move blocks now, with {@code owed} records still owed. */
  boolean mayReflect(long owed);

  /**
   * A gear-down was asked while reflection is under way: the gate stops holding it (a held gear-up must end before a
   * gear-down can start). Returns whether it was holding reflection and released it now; the request is still
   * refused, and says so.
   */
  default boolean releaseForGearDown() {
    return false;
  }
}
