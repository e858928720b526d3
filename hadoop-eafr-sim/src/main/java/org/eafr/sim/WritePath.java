package org.eafr.sim;

import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.sim.model.Flow;
import org.eafr.sim.model.ModelConstants;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.model.SimServer;

/**
 * The write path: an update streams to every holder that serves (a sleeping holder defers it, as EAFR's consistency
 * update does); a rewrite replaces the file's replicas with those the policy places now.
 */
final class WritePath {
  private final RunState run;

  WritePath(RunState run) {
    this.run = run;
  }

  /** An update of {@code file}: one packet to each holder that is on. */
  void write(SimFile file) {
    int rack = run.clientRacks.nextInt(run.cluster.racks());
    int replicas = run.settings.hdfsReplicas();
    run.offered.writes += replicas;
    run.offered.writeBytes += (double) replicas * ModelConstants.UPDATE_BYTES;
    for (int r : file.replicas()) {
      SimServer server = run.cluster.server(r);
      if (server.role() == ServerRole.COLD) {
        run.stats.deferredUpdate();
      } else if (server.role().servesReads()) {
        run.served.writes++;
        run.served.writeBytes += ModelConstants.UPDATE_BYTES;
        run.network.start(Flow.CLIENT, rack, r, ModelConstants.UPDATE_BYTES, (flow, t, completed) -> {
          if (completed) {
            run.stats.update(file.index(), t - flow.startMicros(), file.sizeBytes());
          }
        });
      }
    }
  }

  /**
   * A new version of {@code file}: its old replicas are dropped and the policy places the new blocks now (for a
   * geared policy, under the servers on, offloading what its layout's homes cannot take); the client streams the file
   * to every new holder.
   */
  void rewrite(SimFile file) {
    file.newVersion();
    for (int r : file.replicas().clone()) {
      run.replicaCounts.remove(file, r);
      run.cluster.server(r).addStorage(-file.sizeBytes());
    }
    int rack = run.clientRacks.nextInt(run.cluster.racks());
    run.offered.writes += run.settings.hdfsReplicas();
    run.offered.writeBytes += (double) run.settings.hdfsReplicas() * file.sizeBytes();
    int placed = 0;
    for (Server chosen : run.policy.placeNewFile(file, run.cluster.view())) {
      SimServer server = run.cluster.server(chosen.id());
      if (!run.reserve.canHold(server.snapshot(), file.sizeBytes()) || file.isOn(server.index())) {
        continue;
      }
      placed++;
      run.replicaCounts.add(file, server.index());
      server.addStorage(file.sizeBytes());
      run.served.writes++;
      run.served.writeBytes += file.sizeBytes();
      run.network.start(Flow.CLIENT, rack, server.index(), file.sizeBytes(), (flow, t, completed) -> { });
    }
    run.stats.write(placed, run.policy.replicasPerNewFile());
  }
}
