package org.eafr.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.recovery.LostReplica;
import org.eafr.placement.recovery.RecoveryAssignment;
import org.eafr.placement.recovery.RecoveryPlan;
import org.eafr.placement.recovery.UnrecoverableFile;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.model.SimServer;

/**
 * Server failures: every {@link #PERIOD_MICROS} {@code sim.failures} hot servers, drawn from a seeded stream, fail;
 * their queued reads fail, their flows stop, and the policy's recovery plan copies their replicas elsewhere.
 */
final class Failures {
  static final long PERIOD_MICROS = 30L * 60 * 1_000_000;

  private final RunState run;
  private final Random random;

  Failures(RunState run, Random random) {
    this.run = run;
    this.random = random;
  }

  void failServers(long now) {
    List<SimServer> candidates = new ArrayList<>();
    for (SimServer server : run.cluster.servers()) {
      if (server.role() == ServerRole.HOT) {
        candidates.add(server);
      }
    }
    for (int k = 0; k < run.settings.failedServers() && !candidates.isEmpty(); k++) {
      fail(candidates.remove(random.nextInt(candidates.size())), now);
    }
    if (now + PERIOD_MICROS <= run.endMicros) {
      run.queue.schedule(now + PERIOD_MICROS, this::failServers);
    }
  }

  private void fail(SimServer server, long now) {
    server.setRole(ServerRole.FAILED, now);
    for (int i = server.dropQueue(); i > 0; i--) {
      run.stats.failedRead();
    }
    run.network.failServer(server.index(), now);
    List<LostReplica> lost = new ArrayList<>();
    for (SimFile file : run.files) {
      if (file.isOn(server.index())) {
        lost.add(LostReplica.of(file.view(), run.policy.temperature(file.index())));
      }
    }
    RecoveryPlan plan = run.policy.recover(server.id(), lost, run.cluster.view());
    for (SimFile file : run.files) {
      run.replicaCounts.remove(file, server.index());
    }
    for (UnrecoverableFile file : plan.unrecoverable()) {
      run.stats.unrecoverable(file.reason());
    }
    // A failure whose plan copies nothing (no replicas, or none recoverable) has no recovery latency to report.
    Transfer.RecoveryBatch batch = new Transfer.RecoveryBatch(now, plan.assignments().size());
    for (RecoveryAssignment assignment : plan.assignments()) {
      run.transfers.enqueue(new Transfer(run.file(assignment.fileId()),
          run.cluster.server(assignment.sourceId()).index(), run.cluster.server(assignment.destinationId()).index(),
          ReplicaAction.Kind.ADD, batch));
    }
  }
}
