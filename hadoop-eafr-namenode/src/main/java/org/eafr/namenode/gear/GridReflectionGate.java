package org.eafr.namenode.gear;

import org.eafr.placement.gear.shift.ReflectionGate;
import org.eafr.placement.gear.shift.ShiftPhase;

/**
 * The core's {@link ReflectionGate} over the NameNode's grid gate ({@code GridGate}): reflection after a gear-up
 * waits for a cleaner or cheaper slot of the grid before its deadline, and a gear-down asked meanwhile releases it.
 * The gate is looked up on each call: it follows the settings reloaded at run time. A NameNode reflects at gear-ups
 * only: while steady, what is owed waits for the next gear-up (the core would go on in the background).
 */
final class GridReflectionGate implements ReflectionGate {
  private final GearRuntime gears;

  GridReflectionGate(GearRuntime gears) {
    this.gears = gears;
  }

  @Override
  public boolean mayReflect(long owed) {
    return gears.state().phase() == ShiftPhase.REFLECTING && gears.grid().mayReflect(owed);
  }

  @Override
  public boolean releaseForGearDown() {
    return gears.grid().gearDownAsked();
  }
}
