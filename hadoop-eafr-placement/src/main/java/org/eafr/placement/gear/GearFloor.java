package org.eafr.placement.gear;

import java.util.Optional;

/**
 * What the gear controller asks before it lets servers sleep: the cleanup work that must finish first, and whether,
 * once it is done, a set of servers staying on keeps every block live. The simulator answers from its replica map
 * and the layout's {@link OffloadLedger}; the NameNode from its block map. Implementations must be safe to call from
 * the thread that runs the controller.
 */
public interface GearFloor {
  /** The moves that must finish before only {@code staysOn} may stay on; {@link CleanupWork#none()} when none. */
  CleanupWork cleanupFor(ActiveSet staysOn);

  /** The first block with no live replica on {@code staysOn} once {@link #cleanupFor} is done; empty when none. */
  Optional<UnavailableBlock> firstUnavailable(ActiveSet staysOn);
}
