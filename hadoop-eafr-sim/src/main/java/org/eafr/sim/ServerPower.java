package org.eafr.sim;

import org.eafr.placement.cluster.ServerRole;
import org.eafr.sim.model.SimServer;

/**
 * Servers going to sleep and waking: EAFR Eq. 8 through the core's {@code StorageReserve} (an idle standby server
 * below the reserve turns cold), and a wake that takes {@code sim.wake.seconds} before the server serves (a geared
 * run's wakes are the gear shift's power-ons).
 */
final class ServerPower {
  private final RunState run;

  ServerPower(RunState run) {
    this.run = run;
  }

  /** Starts waking {@code server} unless it is waking already; once up it serves its queued reads and copies. */
  void wake(SimServer server, long now) {
    if (server.wakeAt() >= 0) {
      return;
    }
    long wakeMicros = run.settings.wakeMicros();
    server.setWakeAt(now + wakeMicros);
    run.queue.schedule(now + wakeMicros, t -> {
      server.setWakeAt(-1);
      if (server.role() == ServerRole.COLD) {
        server.setRole(run.gears != null ? ServerRole.HOT : ServerRole.STANDBY, t);
        server.poweredOn();
      }
      run.reads.startQueued(server, t);
      run.transfers.start(server.index());
      if (run.gears != null) {
        run.gears.woke(t);
      }
    });
  }

  /** EAFR Eq. 8 at the end of an interval: idle standby servers below the reserve go to sleep. */
  void turnFullStandbysCold(long now) {
    if (!ejectsFullServers()) {
      return;
    }
    for (SimServer server : run.cluster.servers()) {
      if (run.reserve.shouldTurnCold(server.snapshot()) && server.concurrentReads() == 0
          && run.network.inflows(server.index()) == 0 && run.transfers.noneWaiting(server.index())
          && server.wakeAt() < 0) {
        server.setRole(ServerRole.COLD, now);
      }
    }
  }

  /** EAFR Eq. 8 after a copy landed on {@code server}: it sleeps when below the reserve and idle. */
  void turnColdIfFullAndIdle(SimServer server, long now) {
    if (ejectsFullServers() && run.reserve.shouldTurnCold(server.snapshot()) && server.concurrentReads() == 0
        && run.network.inflows(server.index()) == 0 && server.wakeAt() < 0) {
      server.setRole(ServerRole.COLD, now);
    }
  }

  /** EAFR's power management (a geared policy's servers sleep by gears instead). */
  private boolean ejectsFullServers() {
    return run.policy.powerManaged() && run.geared == null;
  }
}
