package org.eafr.namenode.gear;

import java.io.IOException;
import java.util.List;
import java.util.function.Supplier;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.PowerQuarantine;

/**
 * Keeps the power manager's quarantines with the gear state ({@link GearStore}): on a NameNode that has just become
 * active (started, or failed over to) it restores the persisted ones, then writes every change. A standby only
 * forgets that it restored, so it restores again when it becomes active.
 */
final class QuarantineSync {
  private final GearStore store;
  private final Supplier<PowerManager> power;
  private List<PowerQuarantine> persisted;

  QuarantineSync(GearStore store, Supplier<PowerManager> power) {
    this.store = store;
    this.power = power;
  }

  /** One step, on the gear service's thread, outside safe mode. */
  void step(boolean active) throws IOException {
    PowerManager manager = power.get();
    if (manager == null || !active) {
      persisted = null;
      return;
    }
    if (persisted == null) {
      persisted = store.readQuarantines();
      manager.restoreQuarantines(persisted);
    }
    List<PowerQuarantine> now = manager.quarantines();
    if (!now.equals(persisted)) {
      store.writeQuarantines(now);
      persisted = now;
    }
  }
}
