package org.eafr.placement.gear;

import java.util.Objects;

/**
 * One replica away from its home: block {@code blockId}'s replica number {@code replica} (0 is the primary) sits on
 * {@code holder} but the layout places it on {@code home}. It is a move the layout owes: before the holder sleeps
 * when it carries the block's last copy on the servers that stay on (SpringFS cleanup work), or once the home is on
 * (reflection, Accordion Sec. 3.4; passive migration, SpringFS Sec. 3). Immutable.
 */
public final class OffloadedReplica {
  private final String blockId;
  private final int replica;
  private final int holder;
  private final int home;

  public OffloadedReplica(String blockId, int replica, int holder, int home) {
    this.blockId = Objects.requireNonNull(blockId, "blockId");
    if (holder == home) {
      throw new IllegalArgumentException("block " + blockId + " replica " + replica + " is at home on " + home
          + ": an offloaded replica's holder and home differ");
    }
    this.replica = replica;
    this.holder = holder;
    this.home = home;
  }

  public String blockId() {
    return blockId;
  }

  /** The replica's number in its placement; 0 is the primary replica. */
  public int replica() {
    return replica;
  }

  public boolean isPrimary() {
    return replica == 0;
  }

  /** The chain position of the server that holds it now. */
  public int holder() {
    return holder;
  }

  /** The chain position of the server the layout places it on. */
  public int home() {
    return home;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof OffloadedReplica)) {
      return false;
    }
    OffloadedReplica r = (OffloadedReplica) o;
    return blockId.equals(r.blockId) && replica == r.replica && holder == r.holder && home == r.home;
  }

  @Override
  public int hashCode() {
    return Objects.hash(blockId, replica, holder, home);
  }

  @Override
  public String toString() {
    return blockId + "#" + replica + " on " + holder + " home " + home;
  }
}
