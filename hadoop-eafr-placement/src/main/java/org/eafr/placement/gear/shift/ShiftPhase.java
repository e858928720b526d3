package org.eafr.placement.gear.shift;

/**
 * Where a gear shift stands (Rabbit, Amur et al., Sec. 3: a gear is a prefix of the expansion chain; SpringFS Sec. 4
 * and Accordion Sec. 3.4: servers leave and rejoin a gear, their missed writes reflected). Persisted with the
 * {@link ShiftState}, so a restarted or newly active NameNode resumes the phase.
 */
public enum ShiftPhase {
  /** No shift under way: the gear is the target gear. */
  STEADY,
  /** Gear-down: the leaving DataNodes were put into maintenance; waiting until each shows IN_MAINTENANCE. */
  ENTERING_MAINTENANCE,
  /** Gear-down: the availability check passed once more; the leaving hosts are powered off and verified off. */
  POWERING_OFF,
  /** Gear-up: the waking hosts are powered on and verified on. */
  POWERING_ON,
  /** Gear-up: waiting until each waking DataNode has registered and sent its block report. */
  REGISTERING,
  /** Gear-up: out of maintenance; the copies owed to the woken servers are moved home, a budget per step. */
  REFLECTING
}
