package org.eafr.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.sim.model.Flow;
import org.eafr.sim.model.ModelConstants;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.model.SimServer;

/**
 * Replica copies (EAFR's replica actions, recovery, geared moves): each waits in its source's FIFO for one of the
 * source's {@link ModelConstants#REPLICATION_STREAMS_PER_SOURCE} replication streams, then flows over the network. The
 * target's storage is reserved when the copy is queued (a target without room refuses it); a copy whose source or
 * target failed, whose target went into maintenance, or whose file changed under it, is abandoned. A sleeping source
 * is woken first (in a geared run, the gear shift wakes a group holding the block out of turn).
 */
final class Transfers {
  private final RunState run;
  private final List<ArrayDeque<Transfer>> waiting = new ArrayList<>();

  Transfers(RunState run) {
    this.run = run;
    for (int i = 0; i < run.cluster.size(); i++) {
      waiting.add(new ArrayDeque<>());
    }
  }

  /** How many copies wait for a stream of server {@code index}. */
  int waiting(int index) {
    return waiting.get(index).size();
  }

  /** Whether no copy waits for a stream of server {@code index}. */
  boolean noneWaiting(int index) {
    return waiting.get(index).isEmpty();
  }

  /**
   * Queues a copy, reserving its target's storage; a target without room for it (past its storage reserve) refuses it
   * at once, as a DataNode without space fails HDFS's block move.
   */
  void enqueue(Transfer transfer) {
    transfer.file().changePendingCopies(1);
    SimServer target = run.cluster.server(transfer.target());
    if (target.role() != ServerRole.FAILED && !run.reserve.canHold(target.snapshot(), transfer.file().sizeBytes())) {
      abandon(transfer, false);
      return;
    }
    target.addStorage(transfer.file().sizeBytes());
    waiting.get(transfer.source()).add(transfer);
    start(transfer.source());
  }

  /** Starts the copies waiting on server {@code sourceIndex} while it has streams free (waking it when asleep). */
  void start(int sourceIndex) {
    SimServer source = run.cluster.server(sourceIndex);
    ArrayDeque<Transfer> queued = waiting.get(sourceIndex);
    if (source.role() == ServerRole.COLD && !queued.isEmpty()) {
      if (run.gears != null) {
        run.gears.wakeOutOfTurn(queued.peek().file());
      } else {
        run.serverPower.wake(source, run.queue.now());
      }
      return;
    }
    while (!queued.isEmpty() && source.replicationStreams() < ModelConstants.REPLICATION_STREAMS_PER_SOURCE) {
      Transfer transfer = queued.poll();
      SimServer target = run.cluster.server(transfer.target());
      if (source.role() == ServerRole.FAILED || target.role() == ServerRole.FAILED
          || !transfer.file().isOn(sourceIndex) || transfer.stale() || refused(transfer.target())) {
        abandon(transfer);
        continue;
      }
      source.changeReplicationStreams(1);
      run.network.start(sourceIndex, source.rack(), transfer.target(), transfer.file().sizeBytes(),
          (flow, t, completed) -> ended(transfer, flow, t, completed));
    }
  }

  private void ended(Transfer transfer, Flow flow, long now, boolean completed) {
    SimServer source = run.cluster.server(transfer.source());
    source.changeReplicationStreams(-1);
    // A recovery plan does not see copies in flight, so a copy may land where another one already did; a rewrite may
    // have replaced the file's replicas while its move was in flight (a new version may even sit on the same source).
    if (!completed || run.cluster.server(transfer.target()).role() == ServerRole.FAILED
        || transfer.file().isOn(transfer.target()) || !transfer.file().isOn(transfer.source()) || transfer.stale()
        || refused(transfer.target())) {
      abandon(transfer);
    } else {
      land(transfer, flow, now);
    }
    start(transfer.source());
  }

  /** A server in maintenance takes no new replica (HDFS chooses no target there). */
  private boolean refused(int target) {
    return run.gears != null && run.gears.inMaintenance(target);
  }

  private void land(Transfer transfer, Flow flow, long now) {
    SimFile file = transfer.file();
    file.changePendingCopies(-1);
    run.replicaCounts.add(file, transfer.target());
    long elapsed = now - flow.startMicros();
    run.stats.replication(file.sizeBytes(), elapsed);
    run.policy.transferFinished(run.cluster.server(transfer.target()).id(), file.sizeBytes(),
        elapsed / RunState.MICROS_PER_MILLI);
    if (transfer.kind() == ReplicaAction.Kind.MIGRATE && run.replicaCounts.remove(file, transfer.source())) {
      run.cluster.server(transfer.source()).addStorage(-file.sizeBytes());
    }
    finishRecoveryCopy(transfer.batch(), now);
    if (transfer.move() != null) {
      run.gears.moveEnded(transfer, true);
    }
    run.serverPower.turnColdIfFullAndIdle(run.cluster.server(transfer.target()), now);
  }

  private void abandon(Transfer transfer) {
    abandon(transfer, true);
  }

  /** Gives a copy up; {@code reserved}: its target's storage was reserved and is released. */
  private void abandon(Transfer transfer, boolean reserved) {
    transfer.file().changePendingCopies(-1);
    SimServer target = run.cluster.server(transfer.target());
    if (reserved && target.role() != ServerRole.FAILED) {
      target.addStorage(-transfer.file().sizeBytes());
    }
    if (transfer.batch() != null) {
      run.stats.abandonedRecoveryCopy();
      finishRecoveryCopy(transfer.batch(), run.queue.now());
    }
    if (transfer.move() != null) {
      run.gears.moveEnded(transfer, false);
    }
  }

  private void finishRecoveryCopy(Transfer.RecoveryBatch batch, long now) {
    if (batch != null && --batch.outstanding == 0) {
      run.stats.recoveryBatch(now - batch.startMicros, batch.total);
    }
  }
}
