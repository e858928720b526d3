package org.eafr.sim.engine;

/** Something that happens at one simulated instant; fired by {@link EventQueue} in time order. */
@FunctionalInterface
public interface Event {
  /** Runs the event; {@code nowMicros} is the simulated time it was scheduled for. */
  void fire(long nowMicros);
}
