package org.eafr.sim.gear;

import java.util.BitSet;
import java.util.Set;
import org.eafr.placement.gear.shift.MaintenancePort;
import org.eafr.sim.model.Cluster;

/**
 * HDFS maintenance as simulated bookkeeping: a server in maintenance takes no new reads or writes (the policy's
 * servers on leave it out, as they leave out a sleeping server); it shows IN_MAINTENANCE once it serves, queues and
 * transfers nothing (the simulated counterpart of HDFS having checked its blocks), ENTERING_MAINTENANCE before.
 * {@code changed} runs after every call that changed the set.
 */
public final class SimMaintenance implements MaintenancePort {
  private final Cluster cluster;
  private final Runnable changed;
  private final BitSet in = new BitSet();
  /** Servers seen alive and IN_MAINTENANCE since they entered (the power-off guard trusts their block list). */
  private final BitSet seenAlive = new BitSet();

  public SimMaintenance(Cluster cluster, Runnable changed) {
    this.cluster = cluster;
    this.changed = changed;
  }

  @Override
  public void enter(Set<String> ids) {
    boolean any = false;
    for (String id : ids) {
      int index = cluster.server(id).index();
      any |= !in.get(index);
      in.set(index);
    }
    if (any) {
      changed.run();
    }
  }

  @Override
  public void leave(Set<String> ids) {
    boolean any = false;
    for (String id : ids) {
      int index = cluster.server(id).index();
      any |= in.get(index);
      in.clear(index);
      seenAlive.clear(index);
    }
    if (any) {
      changed.run();
    }
  }

  public boolean in(int index) {
    return in.get(index);
  }

  /** The servers in maintenance, by index: read it, never change it. */
  BitSet inSet() {
    return in;
  }

  boolean seenAlive(int index) {
    return seenAlive.get(index);
  }

  void seeAlive(int index) {
    seenAlive.set(index);
  }
}
