package org.eafr.placement.destination;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import org.eafr.placement.cluster.ReplicatedFile;

/**
 * What a new replica needs: the file's id and size, the server it will be copied from (null for a new write), and the
 * servers it must not go to (those already holding the file, plus any the caller rules out). Immutable.
 */
public final class PlacementRequest {
  private final String fileId;
  private final long sizeBytes;
  private final String sourceId;
  private final Set<String> excludedServers;

  public PlacementRequest(String fileId, long sizeBytes, String sourceId, Set<String> excludedServers) {
    this.fileId = Objects.requireNonNull(fileId, "fileId");
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("file " + fileId + ": size " + sizeBytes + " is not allowed: expected >= 0");
    }
    this.sizeBytes = sizeBytes;
    this.sourceId = sourceId;
    this.excludedServers = Collections.unmodifiableSet(new LinkedHashSet<>(excludedServers));
  }

  /** A new replica of {@code file} copied from {@code sourceId}, excluding every server that already holds it. */
  public static PlacementRequest newReplica(ReplicatedFile file, String sourceId) {
    return new PlacementRequest(file.id(), file.sizeBytes(), sourceId, new LinkedHashSet<>(file.replicaServers()));
  }

  public String fileId() {
    return fileId;
  }

  public long sizeBytes() {
    return sizeBytes;
  }

  /** The sending server, or null when unknown. */
  public String sourceId() {
    return sourceId;
  }

  public Set<String> excludedServers() {
    return excludedServers;
  }

  public boolean excludes(String serverId) {
    return excludedServers.contains(serverId);
  }

  @Override
  public String toString() {
    return "PlacementRequest[" + fileId + " " + sizeBytes + "B from " + sourceId + " excluding " + excludedServers
        + "]";
  }
}
