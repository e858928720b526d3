package org.eafr.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Random;
import java.util.function.DoubleConsumer;
import java.util.function.Function;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.gear.LoadSample;
import org.eafr.placement.grid.GridSignal;
import org.eafr.placement.grid.MoveEnergy;
import org.eafr.placement.rate.ReceiveRateController;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.sim.engine.EventQueue;
import org.eafr.sim.engine.UnsharedRandom;
import org.eafr.sim.model.Cluster;
import org.eafr.sim.model.GridSignals;
import org.eafr.sim.model.ModelConstants;
import org.eafr.sim.model.Network;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.model.SimServer;
import org.eafr.sim.policy.GearedPolicy;
import org.eafr.sim.policy.IntervalDecision;
import org.eafr.sim.policy.Policy;
import org.eafr.sim.policy.PolicyEnvironment;
import org.eafr.sim.policy.Registry;
import org.eafr.sim.stats.GridAccount;
import org.eafr.sim.stats.RunResult;
import org.eafr.sim.stats.RunStats;
import org.eafr.sim.workload.TraceEvent;
import org.eafr.sim.workload.TraceReader;
import org.eafr.sim.workload.Workload;

/**
 * One run: one policy over one workload on one simulated cluster, driven by the {@link EventQueue}. The simulator owns
 * the physics and asks the policy for every decision: where new files go, which replica serves a read, what to do
 * each interval T, how to recover a failed server. The physics is split along its seams, each a class sharing the
 * {@link RunState}: {@link ReadPath} and {@link WritePath}, {@link Transfers} (replica copies), {@link ServerPower}
 * (sleep and wake), {@link Gears} (a geared policy's active set), {@link Failures}, and {@link EnergySampler} (power,
 * utilization and the ideal). This class places the initial files, feeds the trace, runs interval T and sums up the
 * run. Every random draw comes from a stream seeded from {@code sim.seed}; nothing reads a wall clock.
 */
public final class Simulator {
  private static final int VIEW_REFRESH_FILES = 64;

  private final RunState run;
  private final Workload workload;
  private final WritePath writes;
  private final Failures failures;
  private final EnergySampler sampler;
  private TraceReader trace;

  public Simulator(SimSettings settings, String policyName, Workload workload, DoubleConsumer progress) {
    this(settings, policyName, Registry.get(policyName).factory(), workload, progress);
  }

  /** A run of the policy {@code factory} builds (tests give policies the registry does not list). */
  public Simulator(SimSettings settings, String policyName, Function<PolicyEnvironment, Policy> factory,
      Workload workload, DoubleConsumer progress) {
    this.workload = workload;
    long seed = settings.seed();
    EventQueue queue = new EventQueue();
    Random policyRandom = new UnsharedRandom(PolicyEnvironment.policySeed(seed, policyName));
    Policy policy = factory.apply(new PolicyEnvironment(settings, policyRandom,
        () -> queue.now() / RunState.MICROS_PER_MILLI));
    // A geared policy starts with every server hot (its data in the target layout) and puts its gear's others to sleep.
    Cluster cluster = Cluster.build(settings.servers(), settings.racks(), settings.hotFraction(),
        policy.powerManaged() && !(policy instanceof GearedPolicy), new UnsharedRandom(seed));
    Network network = new Network(cluster, queue,
        policy.receiveRateControl() ? ReceiveRateController.from(settings.eafr()) : null);
    long[] sizes = workload.fileSizes();
    this.run = new RunState(settings, policy, queue, cluster, network, new RunStats(sizes.length),
        new UnsharedRandom(seed + 1));
    for (int i = 0; i < sizes.length; i++) {
      run.files.add(new SimFile(i, sizes[i]));
    }
    run.reads = new ReadPath(run);
    run.transfers = new Transfers(run);
    run.serverPower = new ServerPower(run);
    this.writes = new WritePath(run);
    this.failures = new Failures(run, new UnsharedRandom(seed + 2));
    LoadSample model = EnergySampler.perServerThroughput(cluster, run.reads.serviceMicros());
    this.sampler = new EnergySampler(run, settings.tracePeakThroughput()
        ? EnergySampler.tracePeakThroughput(settings, workload, sizes, model, cluster.size()) : model, progress);
    GridSignal signal = GridSignals.of(settings);
    if (signal != null) {
      run.stats.grid(new GridAccount(signal, settings.gridStartMillis(),
          MoveEnergy.of(run.power, model.writeBytesPerSecond())));
    }
  }

  /** Runs to the end and returns the policy's metrics. */
  public RunResult run(String scenario, String variant) {
    return run(scenario, variant, 0);
  }

  /** Runs to the end and returns the policy's metrics, labelled as the point {@code x} of a sweep. */
  public RunResult run(String scenario, String variant, double x) {
    if (run.geared != null) {
      run.gears = new Gears(run, sampler.perServer());
    }
    placeFiles();
    run.stats.initialFill((double) storedBytes() / rawCapacity());
    if (run.gears != null) {
      run.gears.applyInitialGear();
    }
    if (run.policy.oracle()) {
      run.stats.reportAsIdeal(run.policy.oracleKeepsDwell());
    }
    trace = workload.open();
    pullTrace();
    long interval = run.settings.eafr().intervalMillis() * RunState.MICROS_PER_MILLI;
    run.queue.schedule(Math.min(interval, run.endMicros), this::endOfInterval);
    run.queue.schedule(Math.min(ModelConstants.SAMPLE_PERIOD_MICROS, run.endMicros), sampler::sample);
    if (run.settings.failedServers() > 0) {
      run.queue.schedule(Math.min(Failures.PERIOD_MICROS, run.endMicros), failures::failServers);
    }
    run.queue.runUntil(run.endMicros);
    if (run.gears != null) {
      LayoutShape.measure(run.geared, run.gears, run.files, run.cluster.size(), run.stats);
      run.stats.displacedReplicas(run.geared.displacedReplicas());
      if (run.stats.grid() != null) {
        run.stats.grid().deferred(run.geared.deferredWork());
      }
    }
    run.stats.maxServerFill(maxServerFill());
    run.stats.serverPowerOns(run.cluster.servers().stream().mapToLong(SimServer::powerOns).toArray());
    closeTrace();
    sampler.finish();
    return new RunResult(scenario, variant, x, run.policy.name(), run.stats.result(endState()));
  }

  /** The fullest server's peak stored bytes over its raw capacity. */
  private double maxServerFill() {
    double most = 0;
    for (SimServer server : run.cluster.servers()) {
      most = Math.max(most, (double) server.peakStorageUsed() / server.storageCapacity());
    }
    return most;
  }

  public Policy policy() {
    return run.policy;
  }

  public Cluster cluster() {
    return run.cluster;
  }

  public List<SimFile> files() {
    return run.files;
  }

  public long eventsFired() {
    return run.queue.fired();
  }

  // ---- initial placement ----

  private void placeFiles() {
    ClusterView view = run.cluster.view();
    boolean allLanded = true; // every replica chosen since the view was taken was placed
    boolean keepsCount = run.policy.countsPlacementsSinceView();
    for (SimFile file : run.files) {
      // A policy that counts its placements since the view answers from the old view as from a new one while all
      // landed (nothing else changes during the initial placement): 10^7 files on 10,000 servers skip 156,000 views.
      if (file.index() % VIEW_REFRESH_FILES == 0 && !(keepsCount && allLanded)) {
        view = run.cluster.view();
        allLanded = true;
      }
      int placed = 0;
      for (Server chosen : run.policy.placeNewFile(file, view)) {
        SimServer server = run.cluster.server(chosen.id());
        // The view is refreshed every 64 files; a server filled since then is skipped rather than overfilled.
        if (run.reserve.canHold(server.snapshot(), file.sizeBytes())) {
          run.replicaCounts.add(file, server.index());
          server.addStorage(file.sizeBytes());
          placed++;
        } else {
          allLanded = false;
        }
      }
      run.stats.write(placed, run.policy.replicasPerNewFile());
    }
  }

  // ---- trace ----

  private void pullTrace() {
    TraceEvent next;
    try {
      next = trace.next();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (next == null || next.timeMicros() > run.endMicros) {
      return;
    }
    if (next.file() >= run.files.size()) {
      throw new IllegalArgumentException("trace file index " + next.file() + " is not allowed: the workload has "
          + run.files.size() + " files");
    }
    TraceEvent event = next;
    run.queue.schedule(Math.max(event.timeMicros(), run.queue.now()), now -> {
      SimFile file = run.files.get(event.file());
      switch (event.kind()) {
        case READ -> run.reads.read(file, event.copies() * run.settings.concurrency(),
            event.bytesPerCopy() > 0 ? event.bytesPerCopy() : ModelConstants.RESPONSE_BYTES, now);
        case WRITE -> writes.write(file);
        case REWRITE -> writes.rewrite(file);
        default -> throw new IllegalStateException("trace event " + event.kind() + " is not handled");
      }
      pullTrace();
    });
  }

  private void closeTrace() {
    try {
      trace.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- interval T ----

  private void endOfInterval(long now) {
    IntervalDecision decision = run.policy.endOfInterval(run.files, run.cluster.viewWithPeakLoad(),
        now / RunState.MICROS_PER_MILLI);
    for (ReplicaAction action : decision.actions()) {
      execute(action);
    }
    run.serverPower.turnFullStandbysCold(now);
    long next = now + run.settings.eafr().intervalMillis() * RunState.MICROS_PER_MILLI;
    if (next <= run.endMicros) {
      run.queue.schedule(next, this::endOfInterval);
    }
  }

  private void execute(ReplicaAction action) {
    SimFile file = run.file(action.fileId());
    SimServer source = run.cluster.server(action.source());
    if (action.kind() == ReplicaAction.Kind.DELETE) {
      if (run.replicaCounts.remove(file, source.index())) {
        source.addStorage(-file.sizeBytes());
      }
      return;
    }
    run.transfers.enqueue(new Transfer(file, source.index(), run.cluster.server(action.target()).index(),
        action.kind(), null));
  }

  // ---- end of run ----

  private RunStats.EndState endState() {
    long replicas = 0;
    for (SimFile file : run.files) {
      replicas += file.replicaCount();
    }
    int cold = 0;
    for (SimServer server : run.cluster.servers()) {
      cold += server.role() == ServerRole.COLD ? 1 : 0;
    }
    return new RunStats.EndState(storedBytes(), run.files.isEmpty() ? 0 : (double) replicas / run.files.size(),
        successfulReads(0.1), successfulReads(0.2), cold, run.queue.fired());
  }

  private long rawCapacity() {
    long bytes = 0;
    for (SimServer server : run.cluster.servers()) {
      bytes += server.storageCapacity();
    }
    return bytes;
  }

  /** Bytes of landed replicas (storage reserved for copies in flight is not counted). */
  private long storedBytes() {
    long bytes = 0;
    for (SimFile file : run.files) {
      bytes += file.sizeBytes() * file.replicaCount();
    }
    return bytes;
  }

  /**
   * EAFR Sec. 4.1.6: each server fails independently with probability {@code lambda}; a read succeeds when a replica
   * of its file survives. The share of this run's reads that would succeed, averaged over 20 seeded failure draws.
   */
  private double successfulReads(double lambda) {
    Random random = new UnsharedRandom(run.settings.seed() + Math.round(lambda * 1000));
    long total = 0;
    for (SimFile file : run.files) {
      total += file.reads();
    }
    if (total == 0) {
      return Double.NaN;
    }
    int trials = 20;
    double share = 0;
    boolean[] failed = new boolean[run.cluster.size()];
    for (int t = 0; t < trials; t++) {
      for (int s = 0; s < failed.length; s++) {
        failed[s] = run.cluster.server(s).role() == ServerRole.FAILED || random.nextDouble() < lambda;
      }
      long ok = 0;
      for (SimFile file : run.files) {
        for (int r : file.replicas()) {
          if (!failed[r]) {
            ok += file.reads();
            break;
          }
        }
      }
      share += (double) ok / total;
    }
    return share / trials;
  }
}
