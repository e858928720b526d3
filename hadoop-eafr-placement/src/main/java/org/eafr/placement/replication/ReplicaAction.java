package org.eafr.placement.replication;

import java.util.Objects;

/**
 * One change the planner asks for; it executes nothing. ADD copies the file from {@code source} to {@code target};
 * DELETE removes the replica on {@code source}; MIGRATE copies to {@code target} and then removes the replica on
 * {@code source}. Immutable.
 */
public final class ReplicaAction {
  /** What to do with a replica. */
  public enum Kind {
    ADD,
    DELETE,
    MIGRATE
  }

  private final Kind kind;
  private final String fileId;
  private final long sizeBytes;
  private final String source;
  private final String target;

  private ReplicaAction(Kind kind, String fileId, long sizeBytes, String source, String target) {
    this.kind = kind;
    this.fileId = Objects.requireNonNull(fileId, "fileId");
    this.sizeBytes = sizeBytes;
    this.source = Objects.requireNonNull(source, "source");
    this.target = target;
  }

  /** A new replica on {@code target}, copied from {@code source}. */
  public static ReplicaAction add(String fileId, long sizeBytes, String source, String target) {
    return new ReplicaAction(Kind.ADD, fileId, sizeBytes, source, Objects.requireNonNull(target, "target"));
  }

  /** Remove the replica held by {@code server}. */
  public static ReplicaAction delete(String fileId, long sizeBytes, String server) {
    return new ReplicaAction(Kind.DELETE, fileId, sizeBytes, server, null);
  }

  /** Move the replica held by {@code source} to {@code target}. */
  public static ReplicaAction migrate(String fileId, long sizeBytes, String source, String target) {
    return new ReplicaAction(Kind.MIGRATE, fileId, sizeBytes, source, Objects.requireNonNull(target, "target"));
  }

  public Kind kind() {
    return kind;
  }

  public String fileId() {
    return fileId;
  }

  /** Bytes this action transfers (ADD, MIGRATE) or frees (DELETE). */
  public long sizeBytes() {
    return sizeBytes;
  }

  /** The server copied from (ADD), deleted from (DELETE) or moved from (MIGRATE). */
  public String source() {
    return source;
  }

  /** The server receiving the replica; null for DELETE. */
  public String target() {
    return target;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ReplicaAction)) {
      return false;
    }
    ReplicaAction a = (ReplicaAction) o;
    return kind == a.kind && fileId.equals(a.fileId) && sizeBytes == a.sizeBytes && source.equals(a.source)
        && Objects.equals(target, a.target);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, fileId, sizeBytes, source, target);
  }

  @Override
  public String toString() {
    return kind + " " + fileId + (kind == Kind.DELETE ? " on " + source : " " + source + " -> " + target);
  }
}
