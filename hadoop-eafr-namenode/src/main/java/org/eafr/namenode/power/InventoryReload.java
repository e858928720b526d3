package org.eafr.namenode.power;

import java.util.function.Function;

/**
 * Whether a new power inventory may replace the one in force without stranding a host: a host that is asleep,
 * powering off or waking must keep an entry of the same driver kind (its BMC address, user or credential may change:
 * that is how a BMC is replaced), since otherwise nothing, or a driver of another kind that never switched it, would
 * have to wake it or finish its action. Hosts added, hosts that are on, and hosts of unknown state may change freely.
 */
final class InventoryReload {
  private InventoryReload() {
  }

  /**
   * Throws IllegalStateException naming the first host of {@code current} that {@code next} drops or gives another
   * driver while {@code phase} says it is asleep, powering off or waking (null: none of these).
   */
  static void refuseStranding(PowerInventory current, PowerInventory next, Function<String, String> phase) {
    for (InventoryEntry entry : current.entries().values()) {
      String host = entry.host();
      String now = phase.apply(host);
      if (now == null) {
        continue;
      }
      InventoryEntry after = next.entry(host);
      if (after == null) {
        throw new IllegalStateException("host " + host + " is " + now + ", and the new inventory " + next.source()
            + " drops it: nothing could then wake it or finish its action; wake it first (or let its action end),"
            + " then reload");
      }
      if (after.driver() != entry.driver()) {
        throw new IllegalStateException("host " + host + " is " + now + ", and the new inventory " + next.source()
            + " changes its driver from " + entry.driver().label() + " to " + after.driver().label() + ": the new"
            + " driver never switched it; wake it first (or let its action end), then reload");
      }
    }
  }
}
