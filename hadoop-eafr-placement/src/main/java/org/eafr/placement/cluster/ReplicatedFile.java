package org.eafr.placement.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * A file (or a block, which EAFR treats as a file, Sec. 3.1) with its size b and the ids of the servers that hold its
 * replicas, A_i = {a_i1, ..., a_ir_i}. Immutable; the replica list keeps its order and has no duplicates.
 */
public final class ReplicatedFile {
  private final String id;
  private final long sizeBytes;
  private final List<String> replicaServers;

  public ReplicatedFile(String id, long sizeBytes, List<String> replicaServers) {
    this.id = Objects.requireNonNull(id, "id");
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("file " + id + ": size " + sizeBytes + " is not allowed: expected >= 0");
    }
    this.sizeBytes = sizeBytes;
    LinkedHashSet<String> unique = new LinkedHashSet<>(replicaServers);
    if (unique.size() != replicaServers.size()) {
      throw new IllegalArgumentException("file " + id + ": replica servers " + replicaServers + " repeat a server");
    }
    this.replicaServers = Collections.unmodifiableList(new ArrayList<>(unique));
  }

  public static ReplicatedFile of(String id, long sizeBytes, String... replicaServers) {
    return new ReplicatedFile(id, sizeBytes, List.of(replicaServers));
  }

  public String id() {
    return id;
  }

  /** b: the file's size in bytes. */
  public long sizeBytes() {
    return sizeBytes;
  }

  /** The servers holding a replica, in order. */
  public List<String> replicaServers() {
    return replicaServers;
  }

  /** r_i: the current number of replicas. */
  public int replicaCount() {
    return replicaServers.size();
  }

  public boolean isOn(String serverId) {
    return replicaServers.contains(serverId);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ReplicatedFile)) {
      return false;
    }
    ReplicatedFile f = (ReplicatedFile) o;
    return id.equals(f.id) && sizeBytes == f.sizeBytes && replicaServers.equals(f.replicaServers);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, sizeBytes, replicaServers);
  }

  @Override
  public String toString() {
    return id + "(" + sizeBytes + "B on " + replicaServers + ")";
  }
}
