package org.eafr.sim.model;

/**
 * Every replica added to or removed from a file goes through here, so the blocks each server stores and the distinct
 * blocks stored are known in O(1) (what a NameNode reads off its per-DataNode block counts). Geared policies read
 * them through {@link org.eafr.placement.gear.StoredBlocks}: Rabbit's read balancer and SpringFS's passive migration.
 * One block per file, as everywhere in the simulator.
 */
public final class ReplicaCounts {
  private final int[] held;
  private long blocks;

  public ReplicaCounts(int servers) {
    held = new int[servers];
  }

  /** Adds a replica of {@code file} on {@code server}. */
  public void add(SimFile file, int server) {
    boolean first = file.replicaCount() == 0;
    file.addReplica(server);
    held[server]++;
    blocks += first ? 1 : 0;
  }

  /** Removes {@code file}'s replica on {@code server}, if it has one; whether it had. */
  public boolean remove(SimFile file, int server) {
    if (!file.removeReplica(server)) {
      return false;
    }
    held[server]--;
    blocks -= file.replicaCount() == 0 ? 1 : 0;
    return true;
  }

  /** Blocks the server with index {@code server} stores. */
  public int held(int server) {
    return held[server];
  }

  /** Distinct blocks with at least one replica. */
  public long blocks() {
    return blocks;
  }
}
