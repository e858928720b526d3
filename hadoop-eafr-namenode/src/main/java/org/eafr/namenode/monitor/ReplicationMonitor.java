package org.eafr.namenode.monitor;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.grid.GridGate;
import org.eafr.namenode.replication.RoundPlanner;
import org.eafr.namenode.replication.RoundPreview;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.grid.WorkKind;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.popularity.IntervalReads;
import org.eafr.placement.popularity.PopularityClassifier;
import org.eafr.placement.destination.DestinationPolicy;
import org.eafr.placement.replication.ClassifiedFile;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.placement.replication.ReplicationPlan;
import org.eafr.placement.replication.ReplicationPlanner;
import org.eafr.placement.settings.EafrSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One NameNode's EAFR replication rounds (Alg. 1). A round: end the read interval, take the namespace and the
 * DataNodes as the core's inputs, classify (Eq. 2-5) and plan (Alg. 1, Eq. 6-8) with the core, then act through
 * HDFS's own mechanisms, so HDFS copies, checks and deletes as it always does:
 * <ul>
 *   <li>ADD: the core's destination becomes the file's pending target, then setReplication(n + 1); HDFS
 *       re-replicates to it through the placement policy.</li>
 *   <li>DELETE: setReplication(n - 1); HDFS deletes the excess through the placement policy's Eq. 7.</li>
 *   <li>MIGRATE: as ADD to the core's standby destination; once the copy is live the source is marked draining and
 *       setReplication(n) returns the file to n replicas, deleting the source's copy.</li>
 * </ul>
 * Constraints: one action per file at a time (a file with an action in flight, or with a block whose replicas do not
 * match its replication factor, is left out of the round); at most {@code eafr.monitor.max-concurrent-actions} in
 * flight; copies started per round within {@code eafr.monitor.bytes-per-second} x T. The core never plans below r or
 * eps on hot servers. Cold migrations and trimming are deferrable: with {@code eafr.grid.objective} carbon or price the
 * grid's scheduler ({@link GridGate}) may hold them for a cleaner or cheaper slot, each kind at most {@code
 * eafr.grid.defer.<kind>.ms} after it became due (released one round before that deadline); held, they are planned
 * again each round and start when released. ADDs for hot files never wait. Everything in flight is in memory: after
 * a restart the files keep their replication factors, nothing is below r, and the next rounds plan from what HDFS
 * then holds.
 *
 * <p>With {@code eafr.layout = eafr-geared} a round plans with EAFR on gears instead ({@link GearedEafrRounds}: the
 * core's geared planner for the gear in force, its cold migrations owed until their targets' gear runs); it carries
 * the actions out as above, and its DELETEs drain the planned replica, so the one HDFS deletes is the one the gears
 * let go. The gears, not Eq. 8, decide which DataNodes sleep.
 *
 * <p>A file's replica servers are the holders of its first block (exact for single-block files); its size is its
 * length. An action is done when every block shows it: an ADD when each block has one more replica, a MIGRATE's
 * source is drained only once the target holds every block. Unread files are cold; a file read in the interval is
 * classified by the counts of {@code ReadStatistics}.
 */
public final class ReplicationMonitor implements RoundPlanner {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicationMonitor.class);
  /** Rounds an action may wait for HDFS before it is given up. */
  private static final int PATIENCE_ROUNDS = 3;
  /** Files planned together; a round holds at most this many files' states at once. */
  static final int PLAN_BATCH_FILES = 1_000;
  /** Files below r named in the log and in {@code hdfs eafr status}; the metrics count them all. */
  static final int BELOW_MIN_EXAMPLES = 10;

  private final NameNode nameNode;
  private final EafrRuntime runtime;
  private final ServerTranslator translator;
  private final PopularityClassifier classifier;
  private final ReplicationPlanner planner;
  private final StorageReserve reserve;
  private final int batchFiles;
  private final NamespaceFiles files;
  private final Map<String, InFlight> inFlight = new LinkedHashMap<>();
  /** EAFR on gears, with eafr.layout = eafr-geared; null for plain Alg. 1. */
  private final GearedEafrRounds geared;

  public ReplicationMonitor(NameNode nameNode, EafrRuntime runtime) {
    this(nameNode, runtime, PLAN_BATCH_FILES);
  }

  /** A monitor that plans {@code batchFiles} files at a time (tests use small batches). */
  ReplicationMonitor(NameNode nameNode, EafrRuntime runtime, int batchFiles) {
    this.geared = GearedEafrRounds.of(runtime.gears(), runtime.settings().core()).orElse(null);
    this.nameNode = nameNode;
    this.runtime = runtime;
    this.batchFiles = batchFiles;
    this.files = new NamespaceFiles(nameNode);
    this.translator = runtime.translator();
    this.classifier = PopularityClassifier.from(runtime.settings().core());
    this.planner = ReplicationPlanner.from(runtime.settings().core(), runtime.destinations());
    this.reserve = runtime.reserve();
  }

  /**
   * Runs one round now; the plugin calls it every T, tests call it directly. The namespace is walked once, a page of
   * listings at a time, and planned {@link #PLAN_BATCH_FILES} files at a time until the budgets are spent, so a round
   * holds one batch of files in memory however large the namespace is; each batch is planned on the cluster as the
   * earlier batches' actions left it. Returns every batch's plan as one (the actions started are those the budgets
   * allowed).
   */
  public synchronized ReplicationPlan round() throws IOException {
    long start = System.nanoTime();
    IntervalReads reads = runtime.reads().snapshotAndReset();
    Map<String, Server> servers = servers();
    progress();
    Round round = new Round(reads, ClusterView.of(servers.values()), batchPlanner(runtime.destinations(), true), null);
    round.migrateDue();
    files.walk("/", round::accept);
    round.planBatch();
    Map<ServerRole, Integer> perRole = new EnumMap<>(ServerRole.class);
    for (Server server : servers.values()) {
      perRole.merge(server.role(), 1, Integer::sum);
    }
    List<String> turningCold = geared == null ? nearlyFullStandbys(servers.values(), targetsInFlight()) : List.of();
    if (geared != null) {
      runtime.monitorStats().owedMigrations(geared.owedCount());
    }
    round.gridIdle();
    runtime.monitorStats().roundDone(System.nanoTime() - start - round.actingNanos, round.perClass, perRole);
    reportBelowMinReplicas(round);
    sleep(turningCold);
    return round.plan;
  }

  /**
   * What {@link #round()} would do now, without doing it ({@code hdfs eafr plan}): the same walk, classification,
   * plan and budgets, on the reads counted so far in this interval (a live view: nothing is reset), with the
   * destination choice drawing from a copy of its random stream (so the next round, if nothing else draws first,
   * picks the same targets). Nothing is started, no counter moves, and the actions in flight are left as they are: a
   * round first moves them on, so one HDFS finishes in between lets that round plan its file again.
   */
  public synchronized RoundPreview preview() throws IOException {
    IntervalReads reads = runtime.reads().currentInterval();
    Map<String, Server> servers = servers();
    Round round = new Round(reads, ClusterView.of(servers.values()),
        batchPlanner(runtime.destinationsPreview(), false), new RoundPreview.Builder());
    files.walk("/", round::accept);
    round.planBatch();
    Set<String> targets = targetsInFlight();
    round.preview.starting().forEach(planned -> {
      if (planned.action().target() != null) {
        targets.add(planned.action().target());
      }
    });
    return round.preview.build(reads, round.plan, round.perClass, inFlight(),
        geared == null ? nearlyFullStandbys(servers.values(), targets) : List.of(), round.belowMinReplicas);
  }

  /**
   * How a round plans a batch: plain Alg. 1 with {@code destinations}, or EAFR on gears (a preview, {@code owe}
   * false, records no migration).
   */
  private BiFunction<List<ClassifiedFile>, ClusterView, ReplicationPlan> batchPlanner(
      DestinationPolicy destinations, boolean owe) {
    if (geared != null) {
      return geared.planner(destinations, owe);
    }
    ReplicationPlanner plain = destinations == runtime.destinations() ? planner
        : ReplicationPlanner.from(runtime.settings().core(), destinations);
    return plain::plan;
  }

  /**
   * Files whose replication factor is below r: EAFR reports them and leaves them as their writer set them (raising
   * them would spend space nobody asked for; docs/namenode.md), so an operator can raise them with setrep.
   */
  private void reportBelowMinReplicas(Round round) {
    runtime.monitorStats().belowMinReplicas(round.belowMinReplicas, round.someBelowMinReplicas);
    if (round.belowMinReplicas > 0) {
      LOG.warn("EAFR: {} files have a replication factor below eafr.min-replicas = {} (e.g. {}); EAFR leaves them as"
          + " set: raise them with 'hdfs dfs -setrep' if they must survive a failure or a gear shift",
          round.belowMinReplicas, runtime.settings().core().minReplicas(), round.someBelowMinReplicas);
    }
  }

  /** eafr.monitor.bytes-per-second x T, saturating instead of overflowing for huge settings. */
  private long bytesPerInterval() {
    long seconds = runtime.settings().core().intervalMillis() / 1000;
    long perSecond = runtime.settings().maxBytesPerSecond();
    return perSecond > Long.MAX_VALUE / Math.max(1, seconds) ? Long.MAX_VALUE : perSecond * seconds;
  }

  /**
   * Eq. 8: standby servers whose free storage is below tau_s now (core {@code StorageReserve}) and that no action in
   * flight still copies to, nor held in service after a wake ({@code ColdHosts#heldAwake}). Servers the round's own
   * migrations will fill turn cold in a later round, after the copies.
   */
  private List<String> nearlyFullStandbys(Iterable<Server> servers, Set<String> targeted) {
    List<String> cold = new ArrayList<>();
    for (Server server : servers) {
      if (server.role() == ServerRole.STANDBY && reserve.shouldTurnCold(server) && !targeted.contains(server.id())
          && !runtime.roles().isSleeping(server.id()) && !runtime.coldHosts().heldAwake(server.id())) {
        cold.add(server.id());
      }
    }
    return cold;
  }

  /** The targets of the copies in flight: a standby still receiving one does not turn cold yet. */
  private Set<String> targetsInFlight() {
    Set<String> targets = new LinkedHashSet<>();
    inFlight.values().forEach(a -> {
      if (a.action.target() != null) {
        targets.add(a.action.target());
      }
    });
    return targets;
  }

  /** Puts servers to sleep: HDFS maintenance through EafrHostConfigManager's overlay on the next refresh. */
  private void sleep(List<String> servers) throws IOException {
    if (servers.isEmpty()) {
      return;
    }
    for (String id : servers) {
      runtime.roles().sleep(id);
    }
    LOG.info("EAFR puts nearly full standby servers to sleep (maintenance): {}", servers);
    nameNode.getNamesystem().getBlockManager().getDatanodeManager().refreshNodes(nameNode.getConf());
  }

  /** Actions still waiting for HDFS, by file. */
  public synchronized Map<String, String> inFlight() {
    Map<String, String> view = new LinkedHashMap<>();
    inFlight.forEach((path, action) -> view.put(path, action.toString()));
    return view;
  }

  /** Starts the plan's actions while the round's budgets last; true while budget is left for more. */
  private boolean act(ReplicationPlan plan, Map<String, FileState> files, Round round) throws IOException {
    int maxActions = runtime.settings().maxConcurrentActions();
    for (ReplicaAction action : plan.actions()) {
      FileState file = files.get(action.fileId());
      WorkKind deferrable = deferrable(action.kind());
      if (deferrable != null && !round.gridLets(deferrable, plan)) {
        round.deferred(action, file, "held for the grid (eafr.grid.objective = " + grid().settings().objective()
            + "): " + grid().heldWhy(deferrable));
        continue;
      }
      if (round.inFlightCount() >= maxActions) {
        round.deferred(action, file, "the most actions in flight (eafr.monitor.max-concurrent-actions = "
            + maxActions + ") are under way");
        continue;
      }
      boolean copies = action.kind() != ReplicaAction.Kind.DELETE;
      if (copies && action.sizeBytes() > round.byteBudget) {
        round.deferred(action, file, "its " + action.sizeBytes() + " bytes are over what is left of this round's"
            + " copy budget (eafr.monitor.bytes-per-second x T): " + round.byteBudget + " bytes");
        continue;
      }
      if (!copies && file.replication - 1 < runtime.settings().core().minReplicas()) {
        continue;
      }
      if (copies) {
        round.copying(action);
      }
      if (round.preview != null) {
        round.preview.starts(action, reason(action, file));
        continue;
      }
      if (copies) {
        runtime.pending().target(file.path, action.target());
        try {
          setReplication(file.path, file.replication + 1);
        } catch (IOException | RuntimeException e) { // no copy follows: the target must not steer later copies
          runtime.pending().clearTarget(file.path);
          throw e;
        }
      } else {
        if (geared != null) { // HDFS deletes the replica the gears let go (a draining source goes first)
          runtime.pending().trim(action.source());
        }
        setReplication(file.path, file.replication - 1);
      }
      InFlight started = new InFlight(action, file.replication);
      started.trimming = !copies && geared != null;
      inFlight.put(file.path, started);
    }
    return round.inFlightCount() < maxActions;
  }

  /** The grid's scheduler, which decides when cold migrations and trimming run. */
  private GridGate grid() {
    return runtime.gears().grid();
  }

  /**
   * The kind of deferrable work an action is: a MIGRATE a cold migration, a DELETE trimming; an ADD (a hot file
   * overloading its servers) never waits for the grid.
   */
  static WorkKind deferrable(ReplicaAction.Kind kind) {
    switch (kind) {
      case MIGRATE:
        return WorkKind.COLD_MIGRATION;
      case DELETE:
        return WorkKind.TRIM;
      default:
        return null;
    }
  }

  /** Why the plan chose {@code action} for {@code file}, in the paper's terms, for {@code hdfs eafr plan}. */
  private String reason(ReplicaAction action, FileState file) {
    EafrSettings core = runtime.settings().core();
    String reads = file.reads.readsLowerBound() == file.reads.readsUpperBound() ? file.reads.readsLowerBound()
        + " reads" : "[" + file.reads.readsLowerBound() + ", " + file.reads.readsUpperBound() + "] reads";
    switch (action.kind()) {
      case ADD:
        return "HOT (" + reads + " this interval) and more than gamma_s = " + core.overloadedFraction() + " of its"
            + " awake replica servers overloaded (Eq. 6): add a replica on " + action.target() + ", copied from "
            + action.source() + " (Eq. 10-12)";
      case DELETE:
        return "COLD (" + reads + " this interval) with " + file.replication + " replicas, above r = "
            + core.minReplicas() + ": remove the one on " + action.source()
            + ", the least remaining service capacity (Eq. 7)";
      default:
        return "COLD (" + reads + " this interval) at r = " + core.minReplicas() + " with more than eps = "
            + core.minHotReplicas() + " replicas on hot servers: move the one on " + action.source()
            + " (least remaining service capacity, Eq. 7) to standby " + action.target() + " (Eq. 10-12)";
    }
  }

  /** Moves every action in flight on by what HDFS has done since the last round. */
  private void progress() throws IOException {
    for (var it = inFlight.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, InFlight> entry = it.next();
      FileState file = files.stateOf(entry.getKey());
      InFlight action = entry.getValue();
      action.rounds++;
      if (file == null) { // deleted or renamed meanwhile
        finish(action, false);
        if (geared != null) {
          geared.forget(entry.getKey());
        }
        it.remove();
      } else if (action.advance(file)) {
        it.remove();
      } else if (action.rounds > PATIENCE_ROUNDS) {
        LOG.warn("EAFR gives up {} after {} rounds; HDFS keeps replication {} of {}", action, action.rounds,
            file.replication, file.path);
        finish(action, false);
        it.remove();
      }
    }
  }

  private void finish(InFlight action, boolean done) {
    runtime.pending().clearTarget(action.action.fileId());
    if (geared != null) {
      geared.ended(action.action.fileId());
    }
    if (action.draining) {
      runtime.pending().undrain(action.action.source(), action.action.target());
    }
    if (action.trimming) {
      runtime.pending().trimmed(action.action.source());
    }
    if (done) {
      switch (action.action.kind()) {
        case ADD:
          runtime.monitorStats().countAdded(action.action.sizeBytes());
          break;
        case DELETE:
          runtime.monitorStats().countRemoved();
          break;
        default:
          runtime.monitorStats().countMigrated(action.action.sizeBytes());
      }
    }
  }

  private void setReplication(String path, int replication) throws IOException {
    NamenodeProtocols rpc = nameNode.getRpcServer();
    rpc.setReplication(path, (short) replication);
  }

  /** The DataNodes alive and in service (not sleeping, not entering maintenance). */
  private Set<String> liveInService() {
    Set<String> on = new LinkedHashSet<>();
    for (DatanodeDescriptor dn : nameNode.getNamesystem().getBlockManager().getDatanodeManager()
        .getDatanodeListForReport(DatanodeReportType.LIVE)) {
      if (dn.isInService()) {
        on.add(ServerTranslator.idOf(dn));
      }
    }
    return on;
  }

  private Map<String, Server> servers() {
    Map<String, Server> servers = new LinkedHashMap<>();
    for (DatanodeDescriptor dn : nameNode.getNamesystem().getBlockManager().getDatanodeManager()
        .getDatanodeListForReport(DatanodeReportType.ALL)) {
      Server server = translator.toServer(dn);
      servers.put(server.id(), server);
    }
    return servers;
  }

  /**
   * One round's walk: classifies every file (for the metrics) and plans the files that may take an action, a batch
   * at a time, until the round's budgets (actions in flight, bytes copied) are spent.
   */
  private final class Round {
    final IntervalReads reads;
    /** Null for a real round; for a preview, what the round would start and defer. */
    final RoundPreview.Builder preview;
    final BiFunction<List<ClassifiedFile>, ClusterView, ReplicationPlan> roundPlanner;
    final Map<FileTemperature, Integer> perClass = new EnumMap<>(FileTemperature.class);
    final Map<String, FileState> batch = new LinkedHashMap<>();
    final List<ClassifiedFile> classified = new ArrayList<>();
    final List<String> someBelowMinReplicas = new ArrayList<>();
    final Map<WorkKind, Boolean> gridVerdicts = new EnumMap<>(WorkKind.class);
    int belowMinReplicas;
    ClusterView view;
    ReplicationPlan plan = ReplicationPlan.empty();
    long byteBudget = bytesPerInterval();
    long actingNanos;
    boolean budgetLeft = inFlight.size() < runtime.settings().maxConcurrentActions();

    Round(IntervalReads reads, ClusterView view,
        BiFunction<List<ClassifiedFile>, ClusterView, ReplicationPlan> roundPlanner, RoundPreview.Builder preview) {
      this.reads = reads;
      this.view = view;
      this.roundPlanner = roundPlanner;
      this.preview = preview;
    }

    /** Actions in flight, counting (in a preview) those the preview would have started. */
    int inFlightCount() {
      return inFlight.size() + (preview == null ? 0 : preview.starting().size());
    }

    /**
     * Whether the grid lets {@code kind} work run in this round, asked once per round with the first batch that plans
     * it (a preview only reads whether it is held now).
     */
    boolean gridLets(WorkKind kind, ReplicationPlan batchPlan) {
      Boolean lets = gridVerdicts.get(kind);
      if (lets == null) {
        if (preview != null) {
          lets = !grid().held(kind);
        } else {
          long pending = batchPlan.actions().stream().filter(a -> deferrable(a.kind()) == kind).count();
          lets = grid().mayRun(kind, pending, runtime.settings().core().intervalMillis());
        }
        gridVerdicts.put(kind, lets);
      }
      return lets;
    }

    /** Tells the grid that no cold migration or trimming is due when a round that planned every file planned none. */
    void gridIdle() {
      if (!budgetLeft) {
        return; // files were left unplanned: work of a kind may still be due
      }
      for (WorkKind kind : List.of(WorkKind.COLD_MIGRATION, WorkKind.TRIM)) {
        if (!gridVerdicts.containsKey(kind)) {
          grid().mayRun(kind, 0, 0);
        }
      }
    }

    /** A planned action the budgets leave for a later round (listed by a preview). */
    void deferred(ReplicaAction action, FileState file, String why) {
      if (preview != null) {
        preview.defers(action, reason(action, file), why);
      }
    }

    void accept(FileState file) throws IOException {
      if (file.replication < runtime.settings().core().minReplicas()) {
        belowMinReplicas++;
        if (someBelowMinReplicas.size() < BELOW_MIN_EXAMPLES) {
          someBelowMinReplicas.add(file.path);
        }
      }
      file.reads = reads.reads(file.path);
      FileTemperature temperature = classifier.classify(file.reads, file.holders);
      LOG.debug("EAFR round on {}: {} reads {} holders {} -> {}", nameNode.getNameNodeAddress(), file.path,
          reads.reads(file.path), file.holders, temperature);
      perClass.merge(temperature, 1, Integer::sum);
      if (budgetLeft && !inFlight.containsKey(file.path) && file.isSettled()
          && (geared == null || !geared.pending(file.path))) {
        batch.put(file.path, file);
        classified.add(new ClassifiedFile(new ReplicatedFile(file.path, file.length, file.holders), temperature));
        if (classified.size() >= batchFiles) {
          planBatch();
        }
      }
    }

    void planBatch() throws IOException {
      if (classified.isEmpty()) {
        return;
      }
      ReplicationPlan batchPlan = roundPlanner.apply(classified, view);
      LOG.debug("EAFR plan on {}: {}", nameNode.getNameNodeAddress(), batchPlan);
      plan = plan.followedBy(batchPlan);
      long acting = System.nanoTime();
      budgetLeft = act(batchPlan, batch, this);
      actingNanos += System.nanoTime() - acting;
      batch.clear();
      classified.clear();
    }

    /**
     * EAFR on gears: starts the owed migrations due now (their targets' gear runs) within this round's budgets, as
     * MIGRATEs; those the budgets or the grid hold are owed again.
     */
    void migrateDue() throws IOException {
      if (geared == null) {
        return;
      }
      Set<String> on = liveInService();
      Map<String, FileState> due = new LinkedHashMap<>();
      List<ReplicaAction> actions = new ArrayList<>();
      Map<String, BlockMove> moves = new LinkedHashMap<>();
      for (BlockMove move : geared.due(on::contains)) {
        FileState file = files.stateOf(move.blockId());
        if (file == null || !file.isSettled() || inFlight.containsKey(file.path)) {
          geared.forget(move.blockId()); // gone, or changed since it was planned: the next rounds plan it anew
          continue;
        }
        due.put(file.path, file);
        moves.put(file.path, move);
        actions.add(geared.action(move, file.length));
      }
      if (actions.isEmpty()) {
        return;
      }
      ReplicationPlan migrations = ReplicationPlan.of(actions, Map.of());
      plan = plan.followedBy(migrations);
      budgetLeft = act(migrations, due, this);
      moves.forEach((path, move) -> {
        if (!inFlight.containsKey(path)) {
          geared.notStarted(move, due.get(path).length);
        }
      });
    }

    /** A copy starts: its bytes leave the budget and land on its target for the batches still to plan. */
    void copying(ReplicaAction action) {
      byteBudget -= action.sizeBytes();
      Server target = view.server(action.target());
      view = view.with(target.withStorageUsed(target.storageUsed() + action.sizeBytes()));
    }
  }

  /** One action HDFS is carrying out, and how far it has got. */
  private final class InFlight {
    final ReplicaAction action;
    final int originalReplication;
    boolean draining;
    /** A DELETE of EAFR on gears: its source is marked to go first. */
    boolean trimming;
    int rounds;

    InFlight(ReplicaAction action, int originalReplication) {
      this.action = action;
      this.originalReplication = originalReplication;
    }

    /** True when the action is complete. */
    boolean advance(FileState file) throws IOException {
      switch (action.kind()) {
        case ADD:
          return complete(file.fewestHolders > originalReplication);
        case DELETE:
          return complete(file.mostHolders < originalReplication);
        default:
          if (!draining) {
            if (file.holdersOfEveryBlock.contains(action.target())) { // every block copied: the source may go
              draining = true;
              rounds = 0;
              runtime.pending().clearTarget(action.fileId());
              runtime.pending().drain(action.source(), action.target());
              setReplication(action.fileId(), originalReplication);
            }
            return false;
          }
          return complete(file.holdersOfEveryBlock.contains(action.target())
              && file.mostHolders == originalReplication);
      }
    }

    private boolean complete(boolean done) {
      if (done) {
        finish(this, true);
      }
      return done;
    }

    @Override
    public String toString() {
      return action + (draining ? " (draining " + action.source() + ")" : "");
    }
  }
}
