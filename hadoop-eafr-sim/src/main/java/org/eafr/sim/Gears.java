package org.eafr.sim;

import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.GearDecision;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.LoadSample;
import org.eafr.placement.gear.ReadBalancer;
import org.eafr.placement.gear.StoredBlocks;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.model.SimServer;
import org.eafr.sim.policy.GearedPolicy;

/**
 * The active set of a geared run: which servers are on, which may sleep, the moves in flight. Every control period
 * the policy's gear controller sees the load the servers served, wakes servers and names those that may sleep once
 * their cleanup moves are done; the moves run as {@link Transfers}, and a server sleeps once none is left from it and
 * it is idle.
 */
final class Gears {
  private final RunState run;
  private final GearedPolicy geared;
  private final int[] positionOf;
  private final int[] serverAt;
  private final BitSet on = new BitSet();
  private final BitSet maySleep = new BitSet();
  private final int[] movesFrom;
  private final Set<String> movesInFlight = new HashSet<>();
  private boolean gearingUp;
  private long readsAtSample;
  private int reflectionsInFlight;
  private long lastControlMicros;
  /** Reads served and their summed latency (us) at the last control period, for the period's mean latency. */
  private long readsAtControl;
  private double readSumAtControl;

  /** Starts the policy over the cluster with every server on. */
  Gears(RunState run, LoadSample perServer) {
    this.run = run;
    this.geared = run.geared;
    int servers = run.cluster.size();
    positionOf = new int[servers];
    serverAt = new int[servers];
    movesFrom = new int[servers];
    geared.start(run.cluster.view(), perServer);
    for (SimServer server : run.cluster.servers()) {
      int position = geared.chain().requirePosition(server.id());
      positionOf[server.index()] = position;
      serverAt[position] = server.index();
      on.set(position);
    }
    geared.activeSetChanged(onSet());
    geared.storedBlocks(new StoredBlocks() {
      @Override
      public long held(int position) {
        return run.replicaCounts.held(serverAt[position]);
      }

      @Override
      public long blocks() {
        return run.replicaCounts.blocks();
      }
    });
  }

  /**
   * The data is in its target layout at time 0; the servers outside the initial gear go to sleep, and the first
   * control period is scheduled.
   */
  void applyInitialGear() {
    ActiveSet initial = geared.initialOn();
    for (SimServer server : run.cluster.servers()) {
      if (!initial.contains(positionOf[server.index()])) {
        server.setRole(ServerRole.COLD, 0);
        on.clear(positionOf[server.index()]);
      }
    }
    geared.activeSetChanged(onSet());
    run.queue.schedule(Math.min(run.settings.controlMicros(), run.endMicros), this::control);
  }

  private ActiveSet onSet() {
    return ActiveSet.of(geared.chain(), on);
  }

  private ActiveSet failedSet() {
    BitSet failed = new BitSet();
    for (SimServer server : run.cluster.servers()) {
      if (server.role() == ServerRole.FAILED) {
        failed.set(positionOf[server.index()]);
      }
    }
    return ActiveSet.of(geared.chain(), failed);
  }

  /** A server powering on (waking) is on: it draws power and the layout may count on it. */
  void switchOn(SimServer server) {
    int position = positionOf[server.index()];
    maySleep.clear(position);
    if (!on.get(position)) {
      on.set(position);
      geared.activeSetChanged(onSet());
    }
  }

  /**
   * One control period: the gear controller sees the load the servers served, wakes servers, and names those that may
   * sleep once their cleanup moves are done; the moves run as copies and a server sleeps once none is left from it
   * and it is idle.
   */
  private void control(long now) {
    LoadSample load = run.served.rates(now - lastControlMicros);
    run.served.reset();
    lastControlMicros = now;
    geared.readLatency(periodReadMeanMs());
    GearDecision decision = geared.decide(load, onSet(), failedSet());
    if (decision.shifts()) {
      run.stats.gearShift(decision.targetGear() > decision.previousGear());
      if (decision.targetGear() > decision.previousGear()) {
        gearingUp = true;
      }
    }
    for (int p : decision.wake().positions()) {
      SimServer server = run.cluster.server(serverAt[p]);
      if (server.role() == ServerRole.COLD) {
        run.serverPower.wake(server, now);
      }
    }
    maySleep.clear();
    for (int p : decision.maySleep().positions()) {
      maySleep.set(p);
    }
    for (BlockMove move : decision.cleanup().moves()) {
      enqueueMove(move, true);
    }
    reflect();
    sleepIdleServers(now);
    long next = now + run.settings.controlMicros();
    if (next <= run.endMicros) {
      run.queue.schedule(next, this::control);
    }
  }

  /** The mean latency of the reads served since the last control period, in ms; NaN when none was. */
  private double periodReadMeanMs() {
    long count = run.stats.reads().count();
    double sum = run.stats.reads().mean() * count;
    double mean = count > readsAtControl ? (sum - readSumAtControl) / (count - readsAtControl) / 1e3 : Double.NaN;
    readsAtControl = count;
    readSumAtControl = sum;
    return mean;
  }

  /**
   * Accordion's throughput per watt during a gear-up, per sample: from the shift until every woken server is up
   * ({@code waking} is none) and the reflection it caused has landed.
   */
  void sampled(int waking, double joules) {
    if (gearingUp) {
      run.stats.gearUpPeriod(run.readsServed - readsAtSample, joules);
      gearingUp = waking > 0 || reflectionsInFlight > 0;
    }
    readsAtSample = run.readsServed;
  }

  /** Moves the layout owes to servers now on (reflection, passive migration), each once. */
  void reflect() {
    for (BlockMove move : geared.reflection(onSet())) {
      enqueueMove(move, false);
    }
  }

  private void enqueueMove(BlockMove move, boolean cleanup) {
    SimFile file = run.file(move.blockId());
    int from = serverAt[move.from()];
    int to = serverAt[move.to()];
    if (!file.isOn(from) || file.isOn(to) || !movesInFlight.add(move.blockId())) {
      return;
    }
    movesFrom[from]++;
    if (!cleanup) {
      reflectionsInFlight++;
    }
    run.transfers.enqueue(new Transfer(file, from, to, move.dropSource() ? ReplicaAction.Kind.MIGRATE
        : ReplicaAction.Kind.ADD, null, move, cleanup));
  }

  /** A geared move landed or was abandoned. */
  void moveEnded(Transfer transfer, boolean landed) {
    movesInFlight.remove(transfer.move().blockId());
    movesFrom[transfer.source()]--;
    if (!transfer.cleanup()) {
      reflectionsInFlight--;
    }
    if (landed) {
      geared.moved(transfer.move());
      run.stats.moved(transfer.file().sizeBytes(), transfer.cleanup());
      run.stats.gridMove(run.nowMillis(), transfer.file().sizeBytes());
    }
  }

  /** Servers that may sleep do so once no move leaves them and they serve, queue and transfer nothing. */
  private void sleepIdleServers(long now) {
    boolean changed = false;
    for (int p = maySleep.nextSetBit(0); p >= 0; p = maySleep.nextSetBit(p + 1)) {
      SimServer server = run.cluster.server(serverAt[p]);
      if (server.role() == ServerRole.HOT && movesFrom[server.index()] == 0 && server.concurrentReads() == 0
          && run.network.inflows(server.index()) == 0 && server.replicationStreams() == 0
          && run.transfers.noneWaiting(server.index()) && server.wakeAt() < 0) {
        server.setRole(ServerRole.COLD, now);
        on.clear(p);
        maySleep.clear(p);
        changed = true;
      }
    }
    if (changed) {
      geared.activeSetChanged(onSet());
    }
  }

  /** The chain positions of {@code file}'s holders. */
  int[] positions(SimFile file) {
    int[] replicas = file.replicas();
    int[] positions = new int[replicas.length];
    for (int i = 0; i < replicas.length; i++) {
      positions[i] = positionOf[replicas[i]];
    }
    return positions;
  }
}
