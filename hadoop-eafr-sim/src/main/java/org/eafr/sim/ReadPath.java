package org.eafr.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.sim.model.Cluster;
import org.eafr.sim.model.ModelConstants;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.model.SimServer;

/**
 * The read path: the policy picks the holder of each read among the file's replicas; the holder serves it in one of
 * its c_c slots or queues it (the wait counts in the read's latency); a read that finds no holder serving wakes a
 * sleeping one and waits for it.
 */
final class ReadPath {
  private final RunState run;
  /** Read service time per server, from the same rack [0] and from another rack [1]. */
  private final long[][] serviceMicros;
  private final String[] rackNames;

  ReadPath(RunState run) {
    this.run = run;
    this.serviceMicros = serviceTimes(run.cluster);
    this.rackNames = new String[run.cluster.racks()];
    for (int r = 0; r < rackNames.length; r++) {
      rackNames[r] = "/rack" + r;
    }
  }

  long[][] serviceMicros() {
    return serviceMicros;
  }

  private static long[][] serviceTimes(Cluster cluster) {
    long[][] times = new long[cluster.size()][2];
    for (SimServer s : cluster.servers()) {
      double local = ModelConstants.RESPONSE_BYTES / s.linkBytesPerSecond();
      double remote = ModelConstants.RESPONSE_BYTES / (s.linkBytesPerSecond() * ModelConstants.CROSS_RACK_FACTOR);
      times[s.index()][0] = ModelConstants.DISK_ACCESS_MICROS + Math.round(local * 1e6);
      times[s.index()][1] = ModelConstants.DISK_ACCESS_MICROS + Math.round(remote * 1e6);
    }
    return times;
  }

  /** {@code copies} concurrent reads of {@code file}, each reading {@code bytes} (the load; latency is one packet's). */
  void read(SimFile file, int copies, long bytes, long now) {
    int[] replicas = file.replicas();
    List<Server> holders = new ArrayList<>(replicas.length);
    int serving = 0;
    for (int r : replicas) {
      Server holder = run.cluster.server(r).snapshot();
      holders.add(holder);
      serving += holder.role().servesReads() ? 1 : 0;
    }
    run.stats.readFanOut(copies, serving);
    run.offered.reads += copies;
    run.offered.readBytes += (double) copies * bytes;
    if (run.policy.oracle()) {
      return; // the ideal is a bound on machine-hours and energy: it needs the load, not the reads' service
    }
    for (int c = 0; c < copies; c++) {
      int rack = run.clientRacks.nextInt(run.cluster.racks());
      Optional<Server> chosen = run.policy.chooseReplica(rackNames[rack], holders);
      // The chosen holder's position maps it back to its server without parsing its id.
      int position = chosen.isPresent() ? indexOf(holders, chosen.get()) : -1;
      SimServer server = position >= 0 ? run.cluster.server(replicas[position]) : wakeHolder(file, now);
      if (server == null) {
        run.stats.failedRead();
        continue;
      }
      if (position < 0 && server.wakeAt() >= 0) {
        run.stats.readWaitedForWake();
      }
      file.countRead();
      run.served.reads++;
      run.served.readBytes += bytes;
      run.readsServed++;
      run.policy.readStarted(file, server.id(), now / RunState.MICROS_PER_MILLI);
      long service = serviceMicros[server.index()][server.rack() == rack ? 0 : 1];
      if (canServe(server)) {
        serve(server, now, service, file.index(), now);
      } else {
        server.enqueue(now, service, file.index());
      }
      if (position >= 0) {
        // The next copy sees this one's load, as the NameNode sees each read's queue.
        holders.set(position, server.snapshot());
      }
    }
  }

  /** The position of {@code chosen} among the holders: by identity (policies return a holder), else by id. */
  private static int indexOf(List<Server> holders, Server chosen) {
    for (int i = 0; i < holders.size(); i++) {
      if (holders.get(i) == chosen) {
        return i;
      }
    }
    for (int i = 0; i < holders.size(); i++) {
      if (holders.get(i).id().equals(chosen.id())) {
        return i;
      }
    }
    throw new IllegalStateException("holder " + chosen.id() + " not among " + holders);
  }

  private static boolean canServe(SimServer server) {
    return server.role().servesReads() && server.hasFreeSlot();
  }

  private void serve(SimServer server, long arrival, long service, int file, long now) {
    server.startServing(now);
    run.stats.read(now - arrival + service);
    run.queue.schedule(now + service, t -> finishRead(server, file, t));
  }

  private void finishRead(SimServer server, int file, long now) {
    server.finishServing(now);
    if (run.policy.wantsReadFinished()) {
      run.policy.readFinished(run.files.get(file), now / RunState.MICROS_PER_MILLI);
    }
    startQueued(server, now);
  }

  /** Starts the reads queued on {@code server} while it has free slots (after a read, or once it is awake). */
  void startQueued(SimServer server, long now) {
    while (server.hasQueued() && canServe(server)) {
      long arrival = server.queuedArrival();
      long service = server.queuedService();
      int file = server.queuedFile();
      server.dequeue();
      serve(server, arrival, service, file, now);
    }
  }

  /**
   * The policy found no holder to serve: wake a sleeping (cold) holder; null when every holder failed. In a geared run
   * the gear shift wakes a group out of turn, and a holder in maintenance that is still up serves.
   */
  private SimServer wakeHolder(SimFile file, long now) {
    if (run.gears != null) {
      return run.gears.holderFor(file, now);
    }
    for (int r : file.replicas()) {
      SimServer server = run.cluster.server(r);
      if (server.role() == ServerRole.COLD) {
        run.serverPower.wake(server, now);
        return server;
      }
    }
    return null;
  }
}
