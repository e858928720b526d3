package org.eafr.sim;

import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.sim.model.SimFile;

/**
 * A replica copy waiting for, or using, one of its source's replication streams: {@code batch} for a recovery copy,
 * {@code move} for a geared one ({@code cleanup} when it empties a server before it sleeps).
 */
record Transfer(SimFile file, int source, int target, ReplicaAction.Kind kind, Transfer.RecoveryBatch batch,
    BlockMove move, boolean cleanup, int version) {
  Transfer(SimFile file, int source, int target, ReplicaAction.Kind kind, RecoveryBatch batch) {
    this(file, source, target, kind, batch, null, false);
  }

  /** A copy of the file's version now. */
  Transfer(SimFile file, int source, int target, ReplicaAction.Kind kind, RecoveryBatch batch, BlockMove move,
      boolean cleanup) {
    this(file, source, target, kind, batch, move, cleanup, file.version());
  }

  /** Whether the file was rewritten since this copy was queued. */
  boolean stale() {
    return version != file.version();
  }

  /** The copies that re-create one failure's replicas; done when none is outstanding. */
  static final class RecoveryBatch {
    final long startMicros;
    int outstanding;
    final int total;

    RecoveryBatch(long startMicros, int total) {
      this.startMicros = startMicros;
      this.outstanding = total;
      this.total = total;
    }
  }
}
