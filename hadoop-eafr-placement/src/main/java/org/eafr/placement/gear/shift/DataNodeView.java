package org.eafr.placement.gear.shift;

import java.util.Objects;
import org.eafr.placement.power.PowerOffGuard;

/**
 * One DataNode as the NameNode shows it now: registered or not, alive (heartbeating), stale (alive, but no heartbeat
 * for {@code dfs.namenode.stale.datanode.interval}), block report received since it registered, admin state, and whether this NameNode saw it alive and reported in maintenance (what
 * {@link PowerOffGuard.Member} needs to trust the block list of a dead one). Immutable.
 */
public final class DataNodeView {
  /** A DataNode this NameNode has not registered (asleep since before it started, or never seen). */
  public static final DataNodeView UNREGISTERED =
      new DataNodeView(false, false, false, AdminState.NORMAL, false);

  private final boolean registered;
  private final boolean alive;
  private final boolean stale;
  private final boolean reported;
  private final AdminState admin;
  private final boolean seenAliveInMaintenance;

  public DataNodeView(boolean registered, boolean alive, boolean reported, AdminState admin,
      boolean seenAliveInMaintenance) {
    this(registered, alive, false, reported, admin, seenAliveInMaintenance);
  }

  /** @param stale alive, but no heartbeat for the stale interval (HDFS declares it dead only much later) */
  public DataNodeView(boolean registered, boolean alive, boolean stale, boolean reported, AdminState admin,
      boolean seenAliveInMaintenance) {
    this.registered = registered;
    this.alive = registered && alive;
    this.stale = this.alive && stale;
    this.reported = reported;
    this.admin = Objects.requireNonNull(admin, "admin");
    this.seenAliveInMaintenance = seenAliveInMaintenance;
  }

  public boolean registered() {
    return registered;
  }

  public boolean alive() {
    return alive;
  }

  /** Alive as HDFS counts it, but without a heartbeat for the stale interval: failing, or its link is. */
  public boolean stale() {
    return stale;
  }

  public boolean reported() {
    return reported;
  }

  public AdminState admin() {
    return admin;
  }

  /** Alive and in service: a replica there can be read and a block written there. */
  public boolean liveInService() {
    return alive && admin == AdminState.NORMAL;
  }

  /** Registered, alive, and its block report received: it may be taken out of maintenance. */
  public boolean registeredAndReported() {
    return alive && reported;
  }

  /** The power-off guard's view of this DataNode; empty when it is not registered (HDFS shows nothing of it). */
  PowerOffGuard.Member member(String id) {
    return new PowerOffGuard.Member(id, admin.name(), alive, reported, seenAliveInMaintenance);
  }

  @Override
  public String toString() {
    return (registered ? "" : "unregistered ") + (alive ? stale ? "stale" : "alive" : "dead") + (reported ? " reported " : " ")
        + admin;
  }
}
