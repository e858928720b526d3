package org.eafr.namenode.gear;

import org.eafr.placement.gear.shift.ReflectionGate;

/**
 * The core's {@link ReflectionGate} over the NameNode's grid gate ({@code GridGate}): reflection after a gear-up
 * waits for a cleaner or cheaper slot of the grid before its deadline, and a gear-down asked meanwhile releases it.
 * The gate is looked up on each call: it follows the settings reloaded at run time.
 */
final class GridReflectionGate implements ReflectionGate {
  private final GearRuntime gears;

  GridReflectionGate(GearRuntime gears) {
    this.gears = gears;
  }

  @Override
  public boolean mayReflect(long owed) {
    return gears.grid().mayReflect(owed);
  }

  @Override
  public boolean releaseForGearDown() {
    return gears.grid().gearDownAsked();
  }
}
