package org.eafr.sim.model;

import java.util.Arrays;

/**
 * Every replica added to or removed from a file goes through here, so the blocks each server stores, the distinct
 * blocks stored and which files each server holds are known without walking the files (what a NameNode reads off its
 * per-DataNode block counts and block lists). Geared policies read the counts through
 * {@link org.eafr.placement.gear.StoredBlocks}: Rabbit's read balancer and SpringFS's passive migration; the gear
 * shift's availability checks read the lists. One block per file, as everywhere in the simulator.
 *
 * <p>A server's list is a primitive array of file indices (4 bytes a replica); a removal finds the file in it and
 * moves the last one into its slot, so the order is the adds' order until the first removal.
 */
public final class ReplicaCounts {
  private static final int[] NONE = new int[0];
  private final int[] held;
  private final int[][] filesOn;
  private long blocks;

  public ReplicaCounts(int servers) {
    held = new int[servers];
    filesOn = new int[servers][];
    Arrays.fill(filesOn, NONE);
  }

  /** Adds a replica of {@code file} on {@code server}. */
  public void add(SimFile file, int server) {
    boolean first = file.replicaCount() == 0;
    file.addReplica(server);
    int n = held[server];
    if (n == filesOn[server].length) {
      filesOn[server] = Arrays.copyOf(filesOn[server], Math.max(8, n + (n >> 1)));
    }
    filesOn[server][n] = file.index();
    held[server]++;
    blocks += first ? 1 : 0;
  }

  /** Removes {@code file}'s replica on {@code server}, if it has one; whether it had. */
  public boolean remove(SimFile file, int server) {
    if (!file.removeReplica(server)) {
      return false;
    }
    int[] list = filesOn[server];
    int last = --held[server];
    for (int i = last; i >= 0; i--) {
      if (list[i] == file.index()) {
        list[i] = list[last];
        break;
      }
    }
    blocks -= file.replicaCount() == 0 ? 1 : 0;
    return true;
  }

  /** Blocks the server with index {@code server} stores. */
  public int held(int server) {
    return held[server];
  }

  /** The indices of the files with a replica on server {@code server}, a copy. */
  public int[] filesOn(int server) {
    return Arrays.copyOf(filesOn[server], held[server]);
  }

  /** Distinct blocks with at least one replica. */
  public long blocks() {
    return blocks;
  }
}
