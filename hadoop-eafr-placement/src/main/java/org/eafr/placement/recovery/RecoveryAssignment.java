package org.eafr.placement.recovery;

import java.util.Objects;

/**
 * One re-replication of Alg. 4: copy {@code fileId} from {@code sourceId} to {@code destinationId}. When the source
 * is a cold server it has to be woken first ({@link #wakesColdSource()}). Immutable.
 */
public final class RecoveryAssignment {
  private final String fileId;
  private final String sourceId;
  private final String destinationId;
  private final boolean wakesColdSource;

  public RecoveryAssignment(String fileId, String sourceId, String destinationId, boolean wakesColdSource) {
    this.fileId = Objects.requireNonNull(fileId, "fileId");
    this.sourceId = Objects.requireNonNull(sourceId, "sourceId");
    this.destinationId = Objects.requireNonNull(destinationId, "destinationId");
    if (sourceId.equals(destinationId)) {
      throw new IllegalArgumentException("file " + fileId + ": source and destination " + sourceId
          + " are not allowed to be the same server");
    }
    this.wakesColdSource = wakesColdSource;
  }

  public String fileId() {
    return fileId;
  }

  public String sourceId() {
    return sourceId;
  }

  public String destinationId() {
    return destinationId;
  }

  /** Whether the source is a sleeping cold server that must be woken to send the copy. */
  public boolean wakesColdSource() {
    return wakesColdSource;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RecoveryAssignment)) {
      return false;
    }
    RecoveryAssignment a = (RecoveryAssignment) o;
    return fileId.equals(a.fileId) && sourceId.equals(a.sourceId) && destinationId.equals(a.destinationId)
        && wakesColdSource == a.wakesColdSource;
  }

  @Override
  public int hashCode() {
    return Objects.hash(fileId, sourceId, destinationId, wakesColdSource);
  }

  @Override
  public String toString() {
    return fileId + ": " + sourceId + (wakesColdSource ? " (woken)" : "") + " -> " + destinationId;
  }
}
