package org.eafr.placement.recovery;

import java.util.Objects;

/** A file the recovery plan could not re-replicate, and why. Immutable. */
public final class UnrecoverableFile {
  private final String fileId;
  private final RecoveryFailure reason;

  public UnrecoverableFile(String fileId, RecoveryFailure reason) {
    this.fileId = Objects.requireNonNull(fileId, "fileId");
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public String fileId() {
    return fileId;
  }

  public RecoveryFailure reason() {
    return reason;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof UnrecoverableFile)) {
      return false;
    }
    UnrecoverableFile u = (UnrecoverableFile) o;
    return fileId.equals(u.fileId) && reason == u.reason;
  }

  @Override
  public int hashCode() {
    return Objects.hash(fileId, reason);
  }

  @Override
  public String toString() {
    return fileId + ": " + reason;
  }
}
