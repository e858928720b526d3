package org.eafr.sim.model;

import java.util.Arrays;
import java.util.List;
import org.eafr.placement.cluster.ReplicatedFile;

/**
 * One simulated file: its size and the servers holding its replicas (indices, in replica order). The core sees it as a
 * {@link ReplicatedFile}, built on demand. Replicas being copied are not listed until the copy lands.
 */
public final class SimFile {
  private final int index;
  private final String id;
  private final long sizeBytes;
  private int[] replicas = new int[0];
  private int pendingCopies;
  private long reads;
  /** Rewrites so far: a copy queued for an older version is abandoned (it would move the new version's replica). */
  private int version;

  public SimFile(int index, long sizeBytes) {
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("file f" + index + ": size " + sizeBytes + " is not allowed: expected >= 0");
    }
    this.index = index;
    this.id = "f" + index;
    this.sizeBytes = sizeBytes;
  }

  public int index() {
    return index;
  }

  public String id() {
    return id;
  }

  public long sizeBytes() {
    return sizeBytes;
  }

  public int version() {
    return version;
  }

  /** The file was rewritten: its replicas are a new version's. */
  public void newVersion() {
    version++;
  }

  public int[] replicas() {
    return replicas;
  }

  public int replicaCount() {
    return replicas.length;
  }

  public boolean isOn(int server) {
    for (int r : replicas) {
      if (r == server) {
        return true;
      }
    }
    return false;
  }

  public void addReplica(int server) {
    if (isOn(server)) {
      throw new IllegalStateException("file " + id + " already has a replica on s" + server);
    }
    replicas = Arrays.copyOf(replicas, replicas.length + 1);
    replicas[replicas.length - 1] = server;
  }

  public boolean removeReplica(int server) {
    for (int i = 0; i < replicas.length; i++) {
      if (replicas[i] == server) {
        int[] next = new int[replicas.length - 1];
        System.arraycopy(replicas, 0, next, 0, i);
        System.arraycopy(replicas, i + 1, next, i, replicas.length - i - 1);
        replicas = next;
        return true;
      }
    }
    return false;
  }

  /** Copies of this file in flight (planned ADD, MIGRATE or recovery not yet landed). */
  public int pendingCopies() {
    return pendingCopies;
  }

  public void changePendingCopies(int delta) {
    pendingCopies += delta;
  }

  public void countRead() {
    reads++;
  }

  /** Trace reads of this file so far (each concurrent copy counted). */
  public long reads() {
    return reads;
  }

  /** The core's view, with server ids ("s" + index, as {@link SimServer#id()}) in replica order. */
  public ReplicatedFile view() {
    String[] ids = new String[replicas.length];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = SimServer.idOf(replicas[i]);
    }
    return new ReplicatedFile(id, sizeBytes, List.of(ids));
  }
}
