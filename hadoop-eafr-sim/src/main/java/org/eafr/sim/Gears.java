package org.eafr.sim;

import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.GearDecision;
import org.eafr.placement.gear.LoadSample;
import org.eafr.placement.gear.StoredBlocks;
import org.eafr.placement.gear.shift.GearShift;
import org.eafr.placement.gear.shift.ShiftAnswer;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.gear.shift.ShiftPorts;
import org.eafr.placement.gear.shift.ShiftSettings;
import org.eafr.placement.gear.shift.ShiftState;
import org.eafr.placement.grid.DeferredWork;
import org.eafr.placement.grid.WorkKind;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.placement.settings.EafrSettings;
import org.eafr.sim.gear.MemoryShiftStore;
import org.eafr.sim.gear.SimMaintenance;
import org.eafr.sim.gear.SimMoves;
import org.eafr.sim.gear.SimPower;
import org.eafr.sim.gear.SimShiftCluster;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.model.SimServer;
import org.eafr.sim.policy.GearedPolicy;

/**
 * A geared run's host of the core's {@link GearShift}, the protocol a NameNode runs: each control period the
 * policy's gear controller picks a gear from the load the servers served, and that gear is requested from the shift;
 * the shift puts leaving servers into maintenance, checks availability, powers them off, wakes servers for a
 * gear-up or out of turn, and takes them out of maintenance, through the ports of {@code org.eafr.sim.gear}. The
 * policy's servers on are those not in maintenance. The shift is stepped on each control period, when a wake or a
 * move ends, and every {@link #POLL_MICROS} while a shift is under way. The policy's own moves (reflection, passive
 * migration, cleanup) go through the same {@link SimMoves}.
 */
final class Gears {
  /** How often a shift under way is stepped between other events (it waits for reads to drain, for instance). */
  static final long POLL_MICROS = 1_000_000;
  private static final int MOST_STEPS = 16;

  private final RunState run;
  private final GearedPolicy geared;
  private final int[] positionOf;
  private final int[] serverAt;
  private final BitSet on = new BitSet();
  private final int[] movesFrom;
  private final Set<String> movesInFlight = new HashSet<>();
  private final SimMaintenance maintenance;
  private final SimMoves moves;
  private final MemoryShiftStore store = new MemoryShiftStore();
  private final ShiftPorts ports;
  private GearShift shift;
  private boolean onChanged;
  private boolean pollScheduled;
  private boolean gearingUp;
  private long readsAtSample;
  private int reflectionsInFlight;
  /** The moves of the reflection the grid held and a gear-down released, which that gear-down waits for. */
  private final Set<String> releasedBeforeGearDown = new HashSet<>();
  /** The next {@link #reflect()} is the release a gear-down waits for. */
  private boolean collectingRelease;
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
    geared.catalog(run.files.stream().mapToLong(org.eafr.sim.model.SimFile::sizeBytes).sum());
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
    maintenance = new SimMaintenance(run.cluster, () -> onChanged = true);
    moves = new SimMoves(this::enqueueMove);
    ports = new ShiftPorts(new SimShiftCluster(run.cluster, run.files, maintenance, this::idle, this::busy,
        run.replicaCounts),
        new SimPower(run.cluster, server -> run.serverPower.wake(server, run.queue.now()),
            server -> server.setRole(ServerRole.COLD, run.queue.now())),
        maintenance, moves, store);
  }

  /**
   * The data is in its target layout at time 0; the servers outside the initial gear sleep, in maintenance, and the
   * shift resumes from that state; the first control period is scheduled.
   */
  void applyInitialGear() {
    ActiveSet initial = geared.initialOn();
    Set<String> sleeping = new TreeSet<>();
    for (SimServer server : run.cluster.servers()) {
      if (!initial.contains(positionOf[server.index()])) {
        server.setRole(ServerRole.COLD, 0);
        sleeping.add(server.id());
      }
    }
    int gear = geared.gear();
    store.save(new ShiftState(gear, gear, ShiftPhase.STEADY, sleeping, Set.of()));
    shift = GearShift.resume(geared.layout(), ports, shiftSettings());
    afterSteps(0);
    run.queue.schedule(Math.min(run.settings.controlMicros(), run.endMicros), this::control);
  }

  /**
   * Moves per step from Accordion's batch; a power command waits for its reply three wakes (at least a minute)
   * before the shift reads the server again, and a move an hour.
   */
  private ShiftSettings shiftSettings() {
    long wakeMillis = run.settings.wakeMicros() / RunState.MICROS_PER_MILLI;
    return new ShiftSettings(run.settings.eafr().get(EafrSettings.GEAR_REFLECTION_BATCH_BLOCKS),
        Math.max(60_000, 3 * wakeMillis), 3_600_000);
  }

  private ActiveSet onSet() {
    return ActiveSet.of(geared.chain(), on);
  }

  /** The servers powered on or waking (what the controller counts as on). */
  private ActiveSet poweredSet() {
    BitSet powered = new BitSet();
    for (SimServer server : run.cluster.servers()) {
      if (server.role() != ServerRole.COLD || server.wakeAt() >= 0) {
        powered.set(positionOf[server.index()]);
      }
    }
    return ActiveSet.of(geared.chain(), powered);
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

  /**
   * Whether server {@code index} serves, queues and sends nothing (then HDFS would show it IN_MAINTENANCE; a copy
   * still flowing to it is abandoned when it arrives).
   */
  private boolean idle(int index) {
    SimServer server = run.cluster.server(index);
    return server.concurrentReads() == 0 && server.replicationStreams() == 0 && run.transfers.noneWaiting(index)
        && movesFrom[index] == 0 && server.wakeAt() < 0;
  }

  /** The reads server {@code index} serves, the copies it sends or queues, and the moves from it. */
  private long busy(int index) {
    SimServer server = run.cluster.server(index);
    return server.concurrentReads() + server.replicationStreams() + run.transfers.waiting(index) + movesFrom[index];
  }

  boolean inMaintenance(int index) {
    return maintenance.in(index);
  }

  /**
   * One control period: the gear controller sees the load the servers served and picks a gear; the gear is asked of
   * the shift (refused while another shift is under way, or when a block would keep no live replica: asked again
   * next period); cleanup and reflection moves start.
   */
  private void control(long now) {
    LoadSample load = run.served.rates(now - lastControlMicros);
    run.served.reset();
    lastControlMicros = now;
    geared.readLatency(periodReadMeanMs());
    GearDecision decision = geared.decide(load, poweredSet(), failedSet());
    for (BlockMove move : decision.cleanup().moves()) {
      moves.startForPolicy(move, true);
    }
    if (!waitsForReflection(decision.targetGear())) {
      request(decision.targetGear());
    }
    reflect();
    step(now);
    long next = now + run.settings.controlMicros();
    if (next <= run.endMicros) {
      run.queue.schedule(next, this::control);
    }
  }

  /**
   * Whether a gear-down to {@code target} waits for reflection, as the NameNode's does: a gear-down is refused while
   * the grid holds reflection, which the gear-down's decision releases (its deadline, {@code reflect()} next), and is
   * asked again each period until the moves it released then have landed or been given up (not the work that
   * comes due after them: passive migration is a stream). Without it the leaving homes
   * would enter maintenance as the released moves start, and those replicas would stay owed.
   */
  private boolean waitsForReflection(int target) {
    if (target >= shift.state().gear()) {
      releasedBeforeGearDown.clear();
      return false;
    }
    DeferredWork deferred = geared.deferredWork();
    if (deferred != null && deferred.held(WorkKind.REFLECTION)) {
      collectingRelease = true;
      return true;
    }
    return !releasedBeforeGearDown.isEmpty();
  }

  private void request(int target) {
    ShiftState state = shift.state();
    if (state.phase() != ShiftPhase.STEADY || target == state.gear()) {
      return;
    }
    ShiftAnswer answer = shift.request(target);
    if (answer.accepted()) {
      run.stats.gearShift(target > state.gear());
      gearingUp |= target > state.gear();
    }
  }

  /** Steps the shift until a step changes nothing twice running, then follows what changed. */
  private void step(long now) {
    ShiftState last = shift.state();
    String lastText = null; // encoded only when a step gave a new state (states are immutable)
    int quiet = 0;
    for (int i = 0; i < MOST_STEPS && quiet < 2; i++) {
      shift.step(now / RunState.MICROS_PER_MILLI);
      ShiftState state = shift.state();
      boolean same = state == last;
      if (!same) {
        lastText = lastText == null ? last.encode() : lastText;
        String text = state.encode();
        same = text.equals(lastText);
        lastText = text;
      }
      quiet = same ? quiet + 1 : 0;
      last = state;
    }
    afterSteps(now);
  }

  /** Gives the policy its servers on when maintenance changed; polls again while a shift is under way. */
  private void afterSteps(long now) {
    if (onChanged) {
      onChanged = false;
      on.clear();
      for (SimServer server : run.cluster.servers()) {
        if (!maintenance.in(server.index())) {
          on.set(positionOf[server.index()]);
        }
      }
      geared.activeSetChanged(onSet());
      reflect();
    }
    ShiftState state = shift.state();
    if (state.phase() != ShiftPhase.STEADY || !state.waking().isEmpty()) {
      schedulePoll(now);
    }
  }

  private void schedulePoll(long now) {
    if (!pollScheduled && now + POLL_MICROS <= run.endMicros) {
      pollScheduled = true;
      run.queue.schedule(now + POLL_MICROS, t -> {
        pollScheduled = false;
        step(t);
      });
    }
  }

  /** A server finished waking: the shift sees it up. */
  void woke(long now) {
    step(now);
  }

  /**
   * No holder of {@code file} serves: the shift wakes the smallest group holding it out of turn. Returns the holder
   * to wait for: one that is up (in maintenance) or being woken; null when there is none.
   */
  SimServer holderFor(SimFile file, long now) {
    shift.readFoundNoReplica(file.id());
    step(now);
    SimServer waking = null;
    for (int r : file.replicas()) {
      SimServer server = run.cluster.server(r);
      if (server.role().servesReads()) {
        return server;
      }
      if (waking == null && server.wakeAt() >= 0) {
        waking = server;
      }
    }
    return waking;
  }

  /** A copy of {@code file} waits on a sleeping source: the shift wakes a group holding it out of turn. */
  void wakeOutOfTurn(SimFile file) {
    shift.readFoundNoReplica(file.id());
    schedulePoll(run.queue.now());
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
      gearingUp = waking > 0 || reflectionsInFlight > 0 || shift.state().phase() != ShiftPhase.STEADY;
    }
    readsAtSample = run.readsServed;
  }

  /** Moves the layout owes to servers now on (reflection, passive migration), each once. */
  private void reflect() {
    for (BlockMove move : geared.reflection(onSet())) {
      moves.startForPolicy(move, false);
      if (collectingRelease && movesInFlight.contains(move.blockId())) {
        releasedBeforeGearDown.add(move.blockId());
      }
    }
    collectingRelease = false;
  }

  private boolean enqueueMove(BlockMove move, boolean cleanup) {
    SimFile file = run.file(move.blockId());
    int from = serverAt[move.from()];
    int to = serverAt[move.to()];
    if (!file.isOn(from) || file.isOn(to) || !movesInFlight.add(move.blockId())) {
      return false;
    }
    movesFrom[from]++;
    if (!cleanup) {
      reflectionsInFlight++;
    }
    run.transfers.enqueue(new Transfer(file, from, to, move.dropSource() ? ReplicaAction.Kind.MIGRATE
        : ReplicaAction.Kind.ADD, null, move, cleanup));
    return true;
  }

  /** A geared move landed or was abandoned. */
  void moveEnded(Transfer transfer, boolean landed) {
    movesInFlight.remove(transfer.move().blockId());
    releasedBeforeGearDown.remove(transfer.move().blockId());
    movesFrom[transfer.source()]--;
    if (!transfer.cleanup()) {
      reflectionsInFlight--;
    }
    if (landed) {
      geared.moved(transfer.move());
      run.stats.moved(transfer.file().sizeBytes(), transfer.cleanup());
      run.stats.gridMove(run.nowMillis(), transfer.file().sizeBytes());
    }
    moves.ended(transfer.move(), landed);
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
