package org.eafr.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.DoubleConsumer;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.GearDecision;
import org.eafr.placement.gear.LoadSample;
import org.eafr.placement.gear.StoredBlocks;
import org.eafr.placement.grid.GridSignal;
import org.eafr.placement.grid.MoveEnergy;
import org.eafr.sim.model.GridSignals;
import org.eafr.sim.stats.GridAccount;
import org.eafr.placement.power.PowerModel;
import org.eafr.placement.rate.ReceiveRateController;
import org.eafr.placement.recovery.LostReplica;
import org.eafr.placement.recovery.RecoveryAssignment;
import org.eafr.placement.recovery.RecoveryPlan;
import org.eafr.placement.recovery.UnrecoverableFile;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.sim.engine.EventQueue;
import org.eafr.sim.engine.UnsharedRandom;
import org.eafr.sim.model.Cluster;
import org.eafr.sim.model.Flow;
import org.eafr.sim.model.ModelConstants;
import org.eafr.sim.model.Network;
import org.eafr.sim.model.ReplicaCounts;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.model.SimServer;
import org.eafr.sim.policy.GearedPolicy;
import org.eafr.sim.policy.IntervalDecision;
import org.eafr.sim.policy.Policy;
import org.eafr.sim.policy.PolicyEnvironment;
import org.eafr.sim.policy.Registry;
import org.eafr.sim.stats.RunResult;
import org.eafr.sim.stats.RunStats;
import org.eafr.sim.workload.TraceEvent;
import org.eafr.sim.workload.TraceReader;
import org.eafr.sim.workload.Workload;

/**
 * One run: one policy over one workload on one simulated cluster, driven by the {@link EventQueue}. The simulator owns
 * the physics (read service and queueing, transfers, power, failures) and asks the policy for every decision: where
 * new files go, which replica serves a read, what to do each interval T, how to recover a failed server. Every random
 * draw comes from a stream seeded from {@code sim.seed}; nothing reads a wall clock.
 */
public final class Simulator {
  private static final long MICROS_PER_MILLI = 1_000;
  private static final long FAILURE_PERIOD_MICROS = 30L * 60 * 1_000_000;
  private static final int VIEW_REFRESH_FILES = 64;

  private final SimSettings settings;
  private final Policy policy;
  private final Workload workload;
  private final EventQueue queue = new EventQueue();
  private final Cluster cluster;
  private final List<SimFile> files = new ArrayList<>();
  private final ReplicaCounts replicaCounts;
  private final Network network;
  private final RunStats stats;
  private final StorageReserve reserve;
  private final PowerModel power;
  private final Random readerRacks;
  private final Random failures;
  private final long[][] serviceMicros;
  private final double[] windowMax;
  private final String[] rackNames;
  private final List<ArrayDeque<Transfer>> waitingTransfers = new ArrayList<>();
  private final long endMicros;
  private final int concurrency;
  private final DoubleConsumer progress;
  private TraceReader trace;
  private int samples;
  private long lastSampleMicros;
  /** Non-null for a power-proportional policy: servers turn off and on as its gear controller decides. */
  private final GearedPolicy geared;
  private final LoadSample perServer;
  private final long[] oneCopyCapacityPrefix;
  private long oneCopyBytes;
  /** Load served in the current control period (what the servers did) and offered by clients (for the ideal). */
  private final LoadWindow served = new LoadWindow();
  private final LoadWindow offered = new LoadWindow();
  private long lastControlMicros;
  private GearState gears;
  private long readsServed;
  /** Reads served and their summed latency (us) at the last control period, for the period's mean latency. */
  private long readsAtControl;
  private double readSumAtControl;

  /** A replica copy waiting for, or using, one of its source's replication streams; {@code move} for a geared one. */
  private record Transfer(SimFile file, int source, int target, ReplicaAction.Kind kind, RecoveryBatch batch,
      BlockMove move, boolean cleanup) {
    Transfer(SimFile file, int source, int target, ReplicaAction.Kind kind, RecoveryBatch batch) {
      this(file, source, target, kind, batch, null, false);
    }
  }

  /** Reads and writes (operations and bytes) over one control period. */
  private static final class LoadWindow {
    double reads;
    double writes;
    double readBytes;
    double writeBytes;

    LoadSample rates(long micros) {
      double seconds = Math.max(1e-6, micros / 1e6);
      return new LoadSample(reads / seconds, writes / seconds, readBytes / seconds, writeBytes / seconds);
    }

    void reset() {
      reads = 0;
      writes = 0;
      readBytes = 0;
      writeBytes = 0;
    }
  }

  /** The active set of a geared run: which servers are on, which may sleep, the moves in flight. */
  private static final class GearState {
    final int[] positionOf;
    final int[] serverAt;
    final java.util.BitSet on = new java.util.BitSet();
    final java.util.BitSet maySleep = new java.util.BitSet();
    final int[] movesFrom;
    final java.util.Set<String> movesInFlight = new java.util.HashSet<>();
    boolean gearingUp;
    long readsAtSample;
    int reflectionsInFlight;

    GearState(int servers) {
      positionOf = new int[servers];
      serverAt = new int[servers];
      movesFrom = new int[servers];
    }
  }

  /** The copies that re-create one failure's replicas; done when none is outstanding. */
  private static final class RecoveryBatch {
    final long startMicros;
    int outstanding;
    final int total;

    RecoveryBatch(long startMicros, int total) {
      this.startMicros = startMicros;
      this.outstanding = total;
      this.total = total;
    }
  }

  public Simulator(SimSettings settings, String policyName, Workload workload, DoubleConsumer progress) {
    this(settings, policyName, Registry.get(policyName).factory(), workload, progress);
  }

  /** A run of the policy {@code factory} builds (tests give policies the registry does not list). */
  public Simulator(SimSettings settings, String policyName,
      java.util.function.Function<PolicyEnvironment, Policy> factory, Workload workload, DoubleConsumer progress) {
    this.settings = settings;
    this.workload = workload;
    this.progress = progress;
    long seed = settings.seed();
    Random policyRandom = new UnsharedRandom(PolicyEnvironment.policySeed(seed, policyName));
    this.policy = factory.apply(new PolicyEnvironment(settings, policyRandom, () -> queue.now() / MICROS_PER_MILLI));
    this.geared = policy instanceof GearedPolicy g ? g : null;
    // A geared policy starts with every server hot (its data in the target layout) and puts its gear's others to sleep.
    this.cluster = Cluster.build(settings.servers(), settings.racks(), settings.hotFraction(),
        policy.powerManaged() && geared == null, new UnsharedRandom(seed));
    this.replicaCounts = new ReplicaCounts(cluster.size());
    this.network = new Network(cluster, queue,
        policy.receiveRateControl() ? ReceiveRateController.from(settings.eafr()) : null);
    this.reserve = new StorageReserve(settings.eafr().storageReserveBytes());
    this.power = PowerModel.of(settings.eafr()); // Table 2 and 10 W asleep unless eafr.energy.* say otherwise
    this.readerRacks = new UnsharedRandom(seed + 1);
    this.failures = new UnsharedRandom(seed + 2);
    this.endMicros = settings.durationMicros();
    this.concurrency = settings.concurrency();
    this.serviceMicros = serviceTimes(cluster);
    this.windowMax = new double[cluster.size()];
    this.rackNames = new String[cluster.racks()];
    for (int r = 0; r < rackNames.length; r++) {
      rackNames[r] = "/rack" + r;
    }
    long[] sizes = workload.fileSizes();
    this.stats = new RunStats(sizes.length);
    for (int i = 0; i < sizes.length; i++) {
      files.add(new SimFile(i, sizes[i]));
    }
    for (int i = 0; i < cluster.size(); i++) {
      waitingTransfers.add(new ArrayDeque<>());
    }
    LoadSample model = perServerThroughput(cluster, serviceMicros);
    this.perServer = settings.tracePeakThroughput() ? tracePeakThroughput(model, sizes) : model;
    this.oneCopyCapacityPrefix = capacityPrefix(cluster, settings.eafr().storageReserveBytes());
    GridSignal signal = GridSignals.of(settings);
    if (signal != null) {
      stats.grid(new GridAccount(signal, settings.gridStartMillis(), MoveEnergy.of(power, model.writeBytesPerSecond())));
    }
    for (long size : sizes) {
      oneCopyBytes += size;
    }
  }

  /**
   * One server's throughput, for the gear controller and the ideal: the mean over servers of c_c reads in flight per
   * local service time (reads/s, and the same for replica writes), and of the link speed (bytes/s each way).
   */
  private static LoadSample perServerThroughput(Cluster cluster, long[][] serviceMicros) {
    double ops = 0;
    double bytes = 0;
    for (SimServer s : cluster.servers()) {
      ops += s.capacity() / (serviceMicros[s.index()][0] / 1e6);
      bytes += s.linkBytesPerSecond();
    }
    int n = cluster.size();
    return new LoadSample(ops / n, ops / n, bytes / n, bytes / n);
  }

  /**
   * SpringFS Sec. 5.2's server throughput: "the maximum measured total throughput divided by the number of machines",
   * so that the workload's busiest control period needs every server. Total = reads plus writes times the replication
   * (the bytes the ideal counts); reads and writes per second stay the model's.
   */
  private LoadSample tracePeakThroughput(LoadSample model, long[] sizes) {
    java.util.Map<Long, Double> bytesPerPeriod = new java.util.HashMap<>();
    long period = settings.controlMicros();
    try (var reader = workload.open()) {
      for (TraceEvent event = reader.next(); event != null && event.timeMicros() <= endMicros;
          event = reader.next()) {
        double bytes = switch (event.kind()) {
          case READ -> (double) event.copies() * concurrency
              * (event.bytesPerCopy() > 0 ? event.bytesPerCopy() : ModelConstants.RESPONSE_BYTES);
          case WRITE -> (double) settings.hdfsReplicas() * ModelConstants.UPDATE_BYTES;
          case REWRITE -> (double) settings.hdfsReplicas() * sizes[event.file()];
        };
        bytesPerPeriod.merge(event.timeMicros() / period, bytes, Double::sum);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    double peak = bytesPerPeriod.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    double perServerBytes = peak / (period / 1e6) / cluster.size();
    return perServerBytes > 0 ? new LoadSample(model.readsPerSecond(), model.writesPerSecond(), perServerBytes,
        perServerBytes) : model;
  }

  /** Prefix sums of the servers' usable storage, largest first: the fewest servers that hold one copy of the data. */
  private static long[] capacityPrefix(Cluster cluster, long reserve) {
    long[] capacities = cluster.servers().stream().mapToLong(s -> Math.max(0, s.storageCapacity() - reserve))
        .sorted().toArray();
    long[] prefix = new long[capacities.length + 1];
    for (int i = 0; i < capacities.length; i++) {
      prefix[i + 1] = prefix[i] + capacities[capacities.length - 1 - i];
    }
    return prefix;
  }

  /** The fewest servers whose storage holds one copy of every file (the ideal's floor, SpringFS Sec. 5.2). */
  int oneCopyServers() {
    int i = java.util.Arrays.binarySearch(oneCopyCapacityPrefix, oneCopyBytes);
    int servers = i >= 0 ? i : -i - 1;
    return Math.min(cluster.size(), Math.max(1, servers));
  }

  /** Read service time per server, from the same rack [0] and from another rack [1]. */
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

  /** Runs to the end and returns the policy's metrics. */
  public RunResult run(String scenario, String variant) {
    return run(scenario, variant, 0);
  }

  /** Runs to the end and returns the policy's metrics, labelled as the point {@code x} of a sweep. */
  public RunResult run(String scenario, String variant, double x) {
    if (geared != null) {
      startGears();
    }
    placeFiles();
    stats.initialFill((double) storedBytes() / rawCapacity());
    if (geared != null) {
      applyInitialGear();
      queue.schedule(Math.min(settings.controlMicros(), endMicros), this::control);
    }
    if (policy.oracle()) {
      stats.reportAsIdeal();
    }
    trace = workload.open();
    pullTrace();
    long interval = settings.eafr().intervalMillis() * MICROS_PER_MILLI;
    queue.schedule(Math.min(interval, endMicros), this::endOfInterval);
    queue.schedule(Math.min(ModelConstants.SAMPLE_PERIOD_MICROS, endMicros), this::sample);
    if (settings.failedServers() > 0) {
      queue.schedule(Math.min(FAILURE_PERIOD_MICROS, endMicros), this::failServers);
    }
    queue.runUntil(endMicros);
    if (geared != null) {
      measureLayoutShape();
      stats.displacedReplicas(geared.displacedReplicas());
      if (stats.grid() != null) {
        stats.grid().deferred(geared.deferredWork());
      }
    }
    closeTrace();
    finishEnergy();
    return new RunResult(scenario, variant, x, policy.name(), stats.result(endState()));
  }

  public Policy policy() {
    return policy;
  }

  public Cluster cluster() {
    return cluster;
  }

  public List<SimFile> files() {
    return files;
  }

  public long eventsFired() {
    return queue.fired();
  }

  // ---- initial placement ----

  private void placeFiles() {
    ClusterView view = cluster.view();
    for (SimFile file : files) {
      if (file.index() % VIEW_REFRESH_FILES == 0) {
        view = cluster.view();
      }
      int placed = 0;
      for (Server chosen : policy.placeNewFile(file, view)) {
        SimServer server = cluster.server(chosen.id());
        // The view is refreshed every 64 files; a server filled since then is skipped rather than overfilled.
        if (reserve.canHold(server.snapshot(), file.sizeBytes())) {
          replicaCounts.add(file, server.index());
          server.addStorage(file.sizeBytes());
          placed++;
        }
      }
      stats.write(placed, policy.replicasPerNewFile());
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
    if (next == null || next.timeMicros() > endMicros) {
      return;
    }
    if (next.file() >= files.size()) {
      throw new IllegalArgumentException("trace file index " + next.file() + " is not allowed: the workload has "
          + files.size() + " files");
    }
    TraceEvent event = next;
    queue.schedule(Math.max(event.timeMicros(), queue.now()), now -> {
      switch (event.kind()) {
        case READ -> read(files.get(event.file()), event.copies() * concurrency,
            event.bytesPerCopy() > 0 ? event.bytesPerCopy() : ModelConstants.RESPONSE_BYTES, now);
        case WRITE -> write(files.get(event.file()), now);
        case REWRITE -> rewrite(files.get(event.file()), now);
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

  // ---- reads ----

  /** {@code copies} concurrent reads of {@code file}, each reading {@code bytes} (the load; latency is one packet's). */
  private void read(SimFile file, int copies, long bytes, long now) {
    int[] replicas = file.replicas();
    List<Server> holders = new ArrayList<>(replicas.length);
    int serving = 0;
    for (int r : replicas) {
      Server holder = cluster.server(r).snapshot();
      holders.add(holder);
      serving += holder.role().servesReads() ? 1 : 0;
    }
    stats.readFanOut(copies, serving);
    offered.reads += copies;
    offered.readBytes += (double) copies * bytes;
    if (policy.oracle()) {
      return; // the ideal is a bound on machine-hours and energy: it needs the load, not the reads' service
    }
    for (int c = 0; c < copies; c++) {
      int rack = readerRacks.nextInt(cluster.racks());
      Optional<Server> chosen = policy.chooseReplica(rackNames[rack], holders);
      // The chosen holder's position maps it back to its server without parsing its id.
      int position = chosen.isPresent() ? indexOf(holders, chosen.get()) : -1;
      SimServer server = position >= 0 ? cluster.server(replicas[position]) : wakeHolder(file, now);
      if (server == null) {
        stats.failedRead();
        continue;
      }
      if (position < 0) {
        stats.readWaitedForWake();
      }
      file.countRead();
      served.reads++;
      served.readBytes += bytes;
      readsServed++;
      policy.readStarted(file, server.id(), now / MICROS_PER_MILLI);
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
    stats.read(now - arrival + service);
    queue.schedule(now + service, t -> finishRead(server, file, t));
  }

  private void finishRead(SimServer server, int file, long now) {
    server.finishServing(now);
    if (policy.wantsReadFinished()) {
      policy.readFinished(files.get(file), now / MICROS_PER_MILLI);
    }
    startQueued(server, now);
  }

  private void startQueued(SimServer server, long now) {
    while (server.hasQueued() && canServe(server)) {
      long arrival = server.queuedArrival();
      long service = server.queuedService();
      int file = server.queuedFile();
      server.dequeue();
      serve(server, arrival, service, file, now);
    }
  }

  /** No holder serves reads: wake a sleeping (cold) holder; null when every holder failed. */
  private SimServer wakeHolder(SimFile file, long now) {
    for (int r : file.replicas()) {
      SimServer server = cluster.server(r);
      if (server.role() == ServerRole.COLD) {
        wake(server, now);
        return server;
      }
    }
    return null;
  }

  private void wake(SimServer server, long now) {
    if (server.wakeAt() >= 0) {
      return;
    }
    server.setWakeAt(now + settings.wakeMicros());
    if (geared != null) {
      switchOn(server);
    }
    queue.schedule(now + settings.wakeMicros(), t -> {
      server.setWakeAt(-1);
      if (server.role() == ServerRole.COLD) {
        server.setRole(geared != null ? ServerRole.HOT : ServerRole.STANDBY, t);
      }
      startQueued(server, t);
      startTransfers(server.index());
      if (geared != null) {
        reflect();
      }
    });
  }

  // ---- geared policies: the time-varying active set ----

  private void startGears() {
    geared.start(cluster.view(), perServer);
    gears = new GearState(cluster.size());
    for (SimServer server : cluster.servers()) {
      int position = geared.chain().requirePosition(server.id());
      gears.positionOf[server.index()] = position;
      gears.serverAt[position] = server.index();
      gears.on.set(position);
    }
    geared.activeSetChanged(onSet());
    GearState state = gears;
    geared.storedBlocks(new StoredBlocks() {
      @Override
      public long held(int position) {
        return replicaCounts.held(state.serverAt[position]);
      }

      @Override
      public long blocks() {
        return replicaCounts.blocks();
      }
    });
  }

  /** The data is in its target layout at time 0; the servers outside the initial gear go to sleep. */
  private void applyInitialGear() {
    ActiveSet initial = geared.initialOn();
    for (SimServer server : cluster.servers()) {
      if (!initial.contains(gears.positionOf[server.index()])) {
        server.setRole(ServerRole.COLD, 0);
        gears.on.clear(gears.positionOf[server.index()]);
      }
    }
    geared.activeSetChanged(onSet());
  }

  private ActiveSet onSet() {
    return ActiveSet.of(geared.chain(), gears.on);
  }

  private ActiveSet failedSet() {
    java.util.BitSet failed = new java.util.BitSet();
    for (SimServer server : cluster.servers()) {
      if (server.role() == ServerRole.FAILED) {
        failed.set(gears.positionOf[server.index()]);
      }
    }
    return ActiveSet.of(geared.chain(), failed);
  }

  /** A server powering on (waking) is on: it draws power and the layout may count on it. */
  private void switchOn(SimServer server) {
    int position = gears.positionOf[server.index()];
    gears.maySleep.clear(position);
    if (!gears.on.get(position)) {
      gears.on.set(position);
      geared.activeSetChanged(onSet());
    }
  }

  /**
   * One control period: the gear controller sees the load the servers served, wakes servers, and names those that may
   * sleep once their cleanup moves are done; the simulator runs the moves as copies and puts a server to sleep once
   * none is left from it and it is idle.
   */
  private void control(long now) {
    LoadSample load = served.rates(now - lastControlMicros);
    served.reset();
    lastControlMicros = now;
    geared.readLatency(periodReadMeanMs());
    GearDecision decision = geared.decide(load, onSet(), failedSet());
    if (decision.shifts()) {
      stats.gearShift(decision.targetGear() > decision.previousGear());
      if (decision.targetGear() > decision.previousGear()) {
        gears.gearingUp = true;
      }
    }
    for (int p : decision.wake().positions()) {
      SimServer server = cluster.server(gears.serverAt[p]);
      if (server.role() == ServerRole.COLD) {
        wake(server, now);
      }
    }
    gears.maySleep.clear();
    for (int p : decision.maySleep().positions()) {
      gears.maySleep.set(p);
    }
    for (BlockMove move : decision.cleanup().moves()) {
      enqueueMove(move, true);
    }
    reflect();
    sleepIdleServers(now);
    long next = now + settings.controlMicros();
    if (next <= endMicros) {
      queue.schedule(next, this::control);
    }
  }

  /** The mean latency of the reads served since the last control period, in ms; NaN when none was. */
  private double periodReadMeanMs() {
    long count = stats.reads().count();
    double sum = stats.reads().mean() * count;
    double mean = count > readsAtControl ? (sum - readSumAtControl) / (count - readsAtControl) / 1e3 : Double.NaN;
    readsAtControl = count;
    readSumAtControl = sum;
    return mean;
  }

  /**
   * Rabbit's degree of power proportionality (Sec. 3.4, (B/n) / (B/n + b_e)) of the data as it lies at the end of the
   * run: for each full gear keeping on at least 5%, 10%, ..., 100% of the servers, every file is read once through a
   * fresh balancer of the policy's kind; the busiest server serves B/n + b_e. Reported: the least over those gears
   * (1 is ideal). Also the largest recovery group a failed server wakes.
   */
  private void measureLayoutShape() {
    var layout = geared.layout();
    int[][] holders = new int[files.size()][];
    for (SimFile file : files) {
      int[] replicas = file.replicas();
      holders[file.index()] = new int[replicas.length];
      for (int i = 0; i < replicas.length; i++) {
        holders[file.index()][i] = gears.positionOf[replicas[i]];
      }
    }
    double least = Double.NaN;
    int lastGear = -1;
    for (int percent = 5; percent <= 100; percent += 5) {
      int gear = 0;
      while (gear < layout.maximumGear() && layout.serversOn(gear).size() * 100 < percent * cluster.size()) {
        gear++;
      }
      if (gear == lastGear) {
        continue;
      }
      lastGear = gear;
      double degree = proportionality(holders, layout.serversOn(gear));
      least = Double.isNaN(least) ? degree : Math.min(least, degree);
    }
    int largest = 0;
    for (int p = 0; p < layout.serversOn(0).size(); p++) { // the gear-0 servers: those whose failure wakes others
      largest = Math.max(largest, layout.recoveryGroup(p).size());
    }
    stats.layoutShape(least, largest);
  }

  private double proportionality(int[][] holders, ActiveSet on) {
    var balancer = geared.newBalancer();
    long[] served = new long[cluster.size()];
    long reads = 0;
    for (int[] h : holders) {
      int chosen = h.length == 0 ? -1 : balancer.choose(h, on);
      if (chosen >= 0) {
        served[chosen]++;
        reads++;
      }
    }
    long busiest = 0;
    for (long s : served) {
      busiest = Math.max(busiest, s);
    }
    return busiest == 0 ? Double.NaN : (double) reads / on.size() / busiest;
  }

  /** Moves the layout owes to servers now on (reflection, passive migration), each once. */
  private void reflect() {
    for (BlockMove move : geared.reflection(onSet())) {
      enqueueMove(move, false);
    }
  }

  private void enqueueMove(BlockMove move, boolean cleanup) {
    SimFile file = files.get(Integer.parseInt(move.blockId().substring(1)));
    int from = gears.serverAt[move.from()];
    int to = gears.serverAt[move.to()];
    if (!file.isOn(from) || file.isOn(to) || !gears.movesInFlight.add(move.blockId())) {
      return;
    }
    gears.movesFrom[from]++;
    if (!cleanup) {
      gears.reflectionsInFlight++;
    }
    enqueueTransfer(new Transfer(file, from, to, move.dropSource() ? ReplicaAction.Kind.MIGRATE
        : ReplicaAction.Kind.ADD, null, move, cleanup));
  }

  private void moveEnded(Transfer transfer, boolean landed) {
    gears.movesInFlight.remove(transfer.move().blockId());
    gears.movesFrom[transfer.source()]--;
    if (!transfer.cleanup()) {
      gears.reflectionsInFlight--;
    }
    if (landed) {
      geared.moved(transfer.move());
      stats.moved(transfer.file().sizeBytes(), transfer.cleanup());
      stats.gridMove(queue.now() / MICROS_PER_MILLI, transfer.file().sizeBytes());
    }
  }

  /** Servers that may sleep do so once no move leaves them and they serve, queue and transfer nothing. */
  private void sleepIdleServers(long now) {
    boolean changed = false;
    for (int p = gears.maySleep.nextSetBit(0); p >= 0; p = gears.maySleep.nextSetBit(p + 1)) {
      SimServer server = cluster.server(gears.serverAt[p]);
      if (server.role() == ServerRole.HOT && gears.movesFrom[server.index()] == 0 && server.concurrentReads() == 0
          && network.inflows(server.index()) == 0 && server.replicationStreams() == 0
          && waitingTransfers.get(server.index()).isEmpty() && server.wakeAt() < 0) {
        server.setRole(ServerRole.COLD, now);
        gears.on.clear(p);
        gears.maySleep.clear(p);
        changed = true;
      }
    }
    if (changed) {
      geared.activeSetChanged(onSet());
    }
  }

  // ---- writes ----

  private void write(SimFile file, long now) {
    int rack = readerRacks.nextInt(cluster.racks());
    offered.writes += settings.hdfsReplicas();
    offered.writeBytes += (double) settings.hdfsReplicas() * ModelConstants.UPDATE_BYTES;
    for (int r : file.replicas()) {
      SimServer server = cluster.server(r);
      if (server.role() == ServerRole.COLD) {
        stats.deferredUpdate();
      } else if (server.role().servesReads()) {
        served.writes++;
        served.writeBytes += ModelConstants.UPDATE_BYTES;
        network.start(Flow.CLIENT, rack, r, ModelConstants.UPDATE_BYTES, (flow, t, completed) -> {
          if (completed) {
            stats.update(file.index(), t - flow.startMicros(), file.sizeBytes());
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
  private void rewrite(SimFile file, long now) {
    for (int r : file.replicas().clone()) {
      replicaCounts.remove(file, r);
      cluster.server(r).addStorage(-file.sizeBytes());
    }
    int rack = readerRacks.nextInt(cluster.racks());
    offered.writes += settings.hdfsReplicas();
    offered.writeBytes += (double) settings.hdfsReplicas() * file.sizeBytes();
    int placed = 0;
    for (Server chosen : policy.placeNewFile(file, cluster.view())) {
      SimServer server = cluster.server(chosen.id());
      if (!reserve.canHold(server.snapshot(), file.sizeBytes()) || file.isOn(server.index())) {
        continue;
      }
      placed++;
      replicaCounts.add(file, server.index());
      server.addStorage(file.sizeBytes());
      served.writes++;
      served.writeBytes += file.sizeBytes();
      network.start(Flow.CLIENT, rack, server.index(), file.sizeBytes(), (flow, t, completed) -> { });
    }
    stats.write(placed, policy.replicasPerNewFile());
  }

  // ---- interval T ----

  private void endOfInterval(long now) {
    IntervalDecision decision = policy.endOfInterval(files, cluster.viewWithPeakLoad(), now / MICROS_PER_MILLI);
    for (ReplicaAction action : decision.actions()) {
      execute(action);
    }
    turnFullStandbysCold(now);
    long next = now + settings.eafr().intervalMillis() * MICROS_PER_MILLI;
    if (next <= endMicros) {
      queue.schedule(next, this::endOfInterval);
    }
  }

  private void execute(ReplicaAction action) {
    SimFile file = files.get(Integer.parseInt(action.fileId().substring(1)));
    SimServer source = cluster.server(action.source());
    if (action.kind() == ReplicaAction.Kind.DELETE) {
      if (replicaCounts.remove(file, source.index())) {
        source.addStorage(-file.sizeBytes());
      }
      return;
    }
    enqueueTransfer(new Transfer(file, source.index(), cluster.server(action.target()).index(), action.kind(), null));
  }

  /** EAFR Eq. 8 through the core's {@link StorageReserve}: idle standby servers below the reserve go to sleep. */
  private void turnFullStandbysCold(long now) {
    if (!policy.powerManaged() || geared != null) {
      return;
    }
    for (SimServer server : cluster.servers()) {
      if (reserve.shouldTurnCold(server.snapshot()) && server.concurrentReads() == 0
          && network.inflows(server.index()) == 0 && waitingTransfers.get(server.index()).isEmpty()
          && server.wakeAt() < 0) {
        server.setRole(ServerRole.COLD, now);
      }
    }
  }

  // ---- transfers ----

  private void enqueueTransfer(Transfer transfer) {
    transfer.file().changePendingCopies(1);
    cluster.server(transfer.target()).addStorage(transfer.file().sizeBytes());
    waitingTransfers.get(transfer.source()).add(transfer);
    startTransfers(transfer.source());
  }

  private void startTransfers(int sourceIndex) {
    SimServer source = cluster.server(sourceIndex);
    ArrayDeque<Transfer> waiting = waitingTransfers.get(sourceIndex);
    if (source.role() == ServerRole.COLD && !waiting.isEmpty()) {
      wake(source, queue.now());
      return;
    }
    while (!waiting.isEmpty() && source.replicationStreams() < ModelConstants.REPLICATION_STREAMS_PER_SOURCE) {
      Transfer transfer = waiting.poll();
      SimServer target = cluster.server(transfer.target());
      if (source.role() == ServerRole.FAILED || target.role() == ServerRole.FAILED
          || !transfer.file().isOn(sourceIndex)) {
        abandon(transfer);
        continue;
      }
      source.changeReplicationStreams(1);
      network.start(sourceIndex, source.rack(), transfer.target(), transfer.file().sizeBytes(),
          (flow, t, completed) -> transferEnded(transfer, flow, t, completed));
    }
  }

  private void transferEnded(Transfer transfer, Flow flow, long now, boolean completed) {
    SimServer source = cluster.server(transfer.source());
    source.changeReplicationStreams(-1);
    // A recovery plan does not see copies in flight, so a copy may land where another one already did; a rewrite may
    // have replaced the file's replicas while its move was in flight.
    if (!completed || cluster.server(transfer.target()).role() == ServerRole.FAILED
        || transfer.file().isOn(transfer.target()) || !transfer.file().isOn(transfer.source())) {
      abandon(transfer);
    } else {
      land(transfer, flow, now);
    }
    startTransfers(transfer.source());
  }

  private void land(Transfer transfer, Flow flow, long now) {
    SimFile file = transfer.file();
    file.changePendingCopies(-1);
    replicaCounts.add(file, transfer.target());
    long elapsed = now - flow.startMicros();
    stats.replication(file.sizeBytes(), elapsed);
    policy.transferFinished(cluster.server(transfer.target()).id(), file.sizeBytes(), elapsed / MICROS_PER_MILLI);
    if (transfer.kind() == ReplicaAction.Kind.MIGRATE && replicaCounts.remove(file, transfer.source())) {
      cluster.server(transfer.source()).addStorage(-file.sizeBytes());
    }
    finishRecoveryCopy(transfer.batch(), now);
    if (transfer.move() != null) {
      moveEnded(transfer, true);
    }
    turnFullStandbysColdIfIdle(cluster.server(transfer.target()), now);
  }

  private void turnFullStandbysColdIfIdle(SimServer server, long now) {
    if (policy.powerManaged() && geared == null && reserve.shouldTurnCold(server.snapshot()) && server.concurrentReads() == 0
        && network.inflows(server.index()) == 0 && server.wakeAt() < 0) {
      server.setRole(ServerRole.COLD, now);
    }
  }

  private void abandon(Transfer transfer) {
    transfer.file().changePendingCopies(-1);
    SimServer target = cluster.server(transfer.target());
    if (target.role() != ServerRole.FAILED) {
      target.addStorage(-transfer.file().sizeBytes());
    }
    if (transfer.batch() != null) {
      stats.abandonedRecoveryCopy();
      finishRecoveryCopy(transfer.batch(), queue.now());
    }
    if (transfer.move() != null) {
      moveEnded(transfer, false);
    }
  }

  private void finishRecoveryCopy(RecoveryBatch batch, long now) {
    if (batch != null && --batch.outstanding == 0) {
      stats.recoveryBatch(now - batch.startMicros, batch.total);
    }
  }

  // ---- failures ----

  private void failServers(long now) {
    List<SimServer> candidates = new ArrayList<>();
    for (SimServer server : cluster.servers()) {
      if (server.role() == ServerRole.HOT) {
        candidates.add(server);
      }
    }
    for (int k = 0; k < settings.failedServers() && !candidates.isEmpty(); k++) {
      fail(candidates.remove(failures.nextInt(candidates.size())), now);
    }
    if (now + FAILURE_PERIOD_MICROS <= endMicros) {
      queue.schedule(now + FAILURE_PERIOD_MICROS, this::failServers);
    }
  }

  private void fail(SimServer server, long now) {
    server.setRole(ServerRole.FAILED, now);
    for (int i = server.dropQueue(); i > 0; i--) {
      stats.failedRead();
    }
    network.failServer(server.index(), now);
    ClusterView view = cluster.view();
    List<LostReplica> lost = new ArrayList<>();
    for (SimFile file : files) {
      if (file.isOn(server.index())) {
        lost.add(LostReplica.of(file.view(), policy.temperature(file.index())));
      }
    }
    RecoveryPlan plan = policy.recover(server.id(), lost, view);
    for (SimFile file : files) {
      replicaCounts.remove(file, server.index());
    }
    for (UnrecoverableFile file : plan.unrecoverable()) {
      stats.unrecoverable(file.reason());
    }
    // A failure whose plan copies nothing (no replicas, or none recoverable) has no recovery latency to report.
    RecoveryBatch batch = new RecoveryBatch(now, plan.assignments().size());
    for (RecoveryAssignment assignment : plan.assignments()) {
      SimFile file = files.get(Integer.parseInt(assignment.fileId().substring(1)));
      enqueueTransfer(new Transfer(file, cluster.server(assignment.sourceId()).index(),
          cluster.server(assignment.destinationId()).index(), ReplicaAction.Kind.ADD, batch));
    }
  }

  // ---- sampling: utilization, load balance, energy ----

  private void sample(long now) {
    long period = now - lastSampleMicros;
    samples++;
    int powered = 0;
    int waking = 0;
    double watts = 0;
    for (SimServer server : cluster.servers()) {
      double busy = server.takeBusySlotMicros(now);
      double meanUtilization = period == 0 ? 0 : busy / (server.capacity() * (double) period);
      // A waking server counts as asleep, in power and machine-hours, until it is up (sim.wake.seconds, 10 s).
      double draw = power.watts(server.role(), meanUtilization);
      watts += draw;
      powered += server.role().servesReads() ? 1 : 0;
      waking += server.wakeAt() >= 0 ? 1 : 0;
      stats.energy().record(server.id(), lastSampleMicros / MICROS_PER_MILLI, draw);
      if (server.role().servesReads()) {
        windowMax[server.index()] = Math.max(windowMax[server.index()],
            (double) server.serving() / server.capacity());
      }
    }
    idealPeriod(period, powered);
    stats.gridEnergy(lastSampleMicros / MICROS_PER_MILLI, watts * period / 1e6);
    if (gears != null && gears.gearingUp) {
      // Accordion's throughput per watt during a gear-up: from the shift until every woken server is up and the
      // reflection it caused has landed.
      stats.gearUpPeriod(readsServed - gears.readsAtSample, watts * period / 1e6);
      gears.gearingUp = waking > 0 || gears.reflectionsInFlight > 0;
    }
    if (gears != null) {
      gears.readsAtSample = readsServed;
    }
    lastSampleMicros = now;
    if (samples % ModelConstants.SAMPLES_PER_REPORT == 0) {
      reportUtilization();
    }
    progress.accept((double) now / endMicros);
    long next = now + ModelConstants.SAMPLE_PERIOD_MICROS;
    if (now < endMicros) {
      queue.schedule(Math.min(next, endMicros), this::sample);
    }
  }

  /**
   * The ideal of SpringFS Sec. 5.2 for the period just sampled: the fewest servers that carry the clients' load (reads,
   * and writes times HDFS's replication, over one server's throughput), at least those that hold one copy of all data,
   * each at the utilization the load gives it; the others asleep.
   */
  private void idealPeriod(long period, int powered) {
    LoadSample load = offered.rates(period);
    offered.reset();
    double needed = load.serversNeeded(perServer);
    int servers = Math.min(cluster.size(), Math.max(oneCopyServers(), (int) Math.ceil(needed)));
    double utilization = Math.min(1.0, needed / servers);
    double idealWatts = servers * power.watts(ServerRole.HOT, utilization)
        + (cluster.size() - servers) * power.watts(ServerRole.COLD, 0);
    stats.period(period, powered, servers, idealWatts);
  }

  private void reportUtilization() {
    int awake = 0;
    int overloaded = 0;
    double threshold = settings.eafr().overloadThreshold();
    for (SimServer server : cluster.servers()) {
      if (server.role().servesReads()) {
        double u = windowMax[server.index()];
        stats.utilization(u);
        awake++;
        if (u > threshold) {
          overloaded++;
        }
      }
      windowMax[server.index()] = 0;
    }
    stats.overloadedShare(awake == 0 ? 0 : (double) overloaded / awake);
  }

  private void finishEnergy() {
    for (SimServer server : cluster.servers()) {
      stats.energy().record(server.id(), endMicros / MICROS_PER_MILLI, 0.0);
    }
  }

  // ---- end of run ----

  private RunStats.EndState endState() {
    long replicas = 0;
    for (SimFile file : files) {
      replicas += file.replicaCount();
    }
    int cold = 0;
    for (SimServer server : cluster.servers()) {
      cold += server.role() == ServerRole.COLD ? 1 : 0;
    }
    return new RunStats.EndState(storedBytes(), files.isEmpty() ? 0 : (double) replicas / files.size(),
        successfulReads(0.1), successfulReads(0.2), cold, queue.fired());
  }

  /** Bytes of landed replicas (storage reserved for copies in flight is not counted). */
  private long rawCapacity() {
    long bytes = 0;
    for (SimServer server : cluster.servers()) {
      bytes += server.storageCapacity();
    }
    return bytes;
  }

  private long storedBytes() {
    long bytes = 0;
    for (SimFile file : files) {
      bytes += file.sizeBytes() * file.replicaCount();
    }
    return bytes;
  }

  /**
   * EAFR Sec. 4.1.6: each server fails independently with probability {@code lambda}; a read succeeds when a replica
   * of its file survives. The share of this run's reads that would succeed, averaged over 20 seeded failure draws.
   */
  private double successfulReads(double lambda) {
    Random random = new UnsharedRandom(settings.seed() + Math.round(lambda * 1000));
    long total = 0;
    for (SimFile file : files) {
      total += file.reads();
    }
    if (total == 0) {
      return Double.NaN;
    }
    int trials = 20;
    double share = 0;
    boolean[] failed = new boolean[cluster.size()];
    for (int t = 0; t < trials; t++) {
      for (int s = 0; s < failed.length; s++) {
        failed[s] = cluster.server(s).role() == ServerRole.FAILED || random.nextDouble() < lambda;
      }
      long ok = 0;
      for (SimFile file : files) {
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
