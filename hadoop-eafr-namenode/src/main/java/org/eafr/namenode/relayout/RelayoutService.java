package org.eafr.namenode.relayout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearRecord;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.gear.GearService;
import org.eafr.namenode.gear.GearStore;
import org.eafr.namenode.gear.RelayoutDrops;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.relayout.RelayoutBlock;
import org.eafr.placement.gear.relayout.RelayoutPlanner;
import org.eafr.placement.gear.relayout.RelayoutReport;
import org.eafr.placement.gear.relayout.RelayoutSettings;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.grid.WorkKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code hdfs eafr relayout}: moves every block stored off its geared layout's homes (written under the random layout,
 * or put elsewhere by the Balancer, the Mover or re-replication) onto them, with the core's {@link RelayoutPlanner}
 * choosing what moves and HDFS's own block moves ({@link RelayoutMoves}: replaceBlock to the target with the source
 * as the deletion hint, as the Balancer's Dispatcher does) doing it.
 *
 * <p>Safety: a move copies to the target first; the NameNode drops the source's copy only once the target has
 * reported the new replica, as excess (the move is listed by its block in {@link RelayoutDrops}, so the placement
 * policy deletes the source's copy, never the one just made), so no block goes below its live replicas. A batch waits,
 * a bounded time, while HDFS's own redundancy work is under way on its blocks ({@link RedundancyWork}). Moves start
 * only
 * while every DataNode of the layout is on (the top gear, steady): a gear shift pauses relayout, and it goes on once
 * the cluster is back in the top gear.
 *
 * <p>Grid: a running relayout is deferrable work ({@link WorkKind#RELAYOUT}): with {@code eafr.grid.objective} carbon
 * or price its steps start no move and read no batch while the grid gate holds it for a cleaner or cheaper slot
 * (moves in flight settle), at most until {@code eafr.grid.defer.relayout.ms} after the step that first found it
 * ready to move (running, at the top gear, every DataNode reported); {@code status} shows it waiting for the grid,
 * with the gate's hold and deadline. Stopped or finished, it owes nothing and the next start counts anew.
 *
 * <p>Cost: one step (every {@code eafr.relayout.step.ms}) settles the moves in flight and starts queued ones within the
 * {@code MoveBudget} (per DataNode and in all); once a batch's moves are all settled it reads the next
 * {@code eafr.relayout.batch-files} files ({@link NamespaceWalk}, HDFS's directory tree read in bounded slices),
 * their blocks read under short holds of the namesystem read lock ({@link RelayoutBlocks}), plans them, and persists
 * the walk's cursor past them, the planner's state and the counts so far ({@link RelayoutRecord}), then the batch's
 * moves ({@link BatchMoves}): two edits per batch, through the edit log, before its first move starts. So a restart or
 * a failover loses no planning and no block: the NameNode that takes over counts the moves of the cut batch whose
 * targets hold their blocks, queues again those whose sources still do, and goes on from the cursor; the bytes moved
 * and the plan's lower bound stay exact. The work per step is bounded by the batch, not the namespace; a walk's cost
 * does not depend on the batch size. Runs on the active NameNode only; a standby follows the persisted record. Moves
 * start once the NameNode is out of safe mode and every DataNode of the layout has reported its blocks.
 *
 * <p>Walks: the first plans with the layout's shares (its plan and lower bound are what {@code status} reports); a
 * later walk checks what the moves left with a {@link RelayoutPlanner#checking} planner (HDFS may have dropped another
 * replica than the one moved, e.g. after a restart lost the deletion hint) and moves only blocks on none of their
 * possible homes. The relayout ends after a walk that moves nothing, or the {@value #PASSES}rd.
 */
public final class RelayoutService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RelayoutService.class);
  /** Walks one relayout makes at most: the first, and checks of what it left. */
  static final int PASSES = 3;


  private final NameNode nameNode;
  private final GearRuntime gears;
  private final RelayoutSettings settings;
  private final GearStore store;
  /** Puts a growth in force, so that the gear shift's machine takes it with the layout (never a step in between). */
  private final GearService shifts;
  private final NamespaceWalk walk;
  private final RelayoutMoves moves;
  private final ScheduledExecutorService scheduler;
  private final Counters counters = new Counters();
  private RelayoutRecord record;
  private RelayoutPlanner planner;
  private boolean loaded;
  /**
   * Whether the record in memory was read on this NameNode as standby ({@link #values} for status or metrics): the
   * active one may have changed it since, so the first step as active reads it again.
   */
  private boolean loadedOnStandby;
  /**
   * Whether this NameNode has been standby since it started: its DataNodes' storages then date from before it became
   * active, and only HDFS's stale-contents mark tells a full report since then ({@link #fullyReported}). Set at the
   * start too: an HA NameNode starts its plugins as standby and may become active before its first step.
   */
  private boolean wasStandby;
  private String waitingFor;
  /** Since when the next batch has waited for HDFS's redundancy work on its blocks; 0 when it does not. */
  private long busySince;
  /** Whether the grid gate was last told that relayout owes moves. */
  private boolean askedGrid;
  /** Why {@code eafr.relayout.grow.auto} last could not grow the layout (logged once per cause); null: it could. */
  private String growRefused;
  /** The batch whose moves are under way or settling, counted here until it closes; null when none. */
  private OpenBatch open;
  /** Whether the batch a restart or failover cut has been counted since the record was loaded ({@link BatchMoves}). */
  private boolean cutCounted;
  /** Moves the last {@link #plan} skipped: a DataNode of theirs not live. */
  private int skipped;


  private RelayoutService(NameNode nameNode, GearRuntime gears, GearService shifts, RelayoutSettings settings) {
    this.nameNode = nameNode;
    this.gears = gears;
    this.shifts = shifts;
    this.settings = settings;
    this.store = new GearStore(nameNode, gears.settings().stateDir());
    this.walk = new NamespaceWalk(nameNode);
    this.moves = new RelayoutMoves(nameNode, gears, settings);
    this.scheduler = Executors.newSingleThreadScheduledExecutor(RelayoutMoves.daemon("eafr-relayout"));
    this.wasStandby = !nameNode.isActiveState();
  }

  /** Starts stepping every {@code eafr.relayout.step.ms}; a relayout persisted as running goes on. */
  public static RelayoutService start(NameNode nameNode, GearRuntime gears, GearService shifts,
      RelayoutSettings settings) {
    RelayoutService service = new RelayoutService(nameNode, gears, shifts, settings);
    service.scheduler.scheduleWithFixedDelay(service::stepSafely, settings.stepMillis(), settings.stepMillis(),
        TimeUnit.MILLISECONDS);
    return service;
  }

  public RelayoutSettings settings() {
    return settings;
  }

  Counters counters() {
    return counters;
  }

  /** Whether the moves in flight have all finished on the DataNodes, settled by a step or not (tests). */
  synchronized boolean movesFinished() {
    return moves.finished();
  }

  /**
   * Starts a relayout, or goes on with a stopped one from its cursor; refused without a layout or below the top gear.
   */
  public synchronized String start() throws IOException {
    GearedLayout layout = layoutOrRefuse();
    Optional<String> below = notAtTopGear(layout);
    if (below.isPresent()) {
      throw new IllegalStateException("relayout refused: " + below.get());
    }
    load();
    if (record != null && record.running) {
      return "relayout already running: " + statusText();
    }
    boolean resume = record != null && !record.finished;
    if (!resume) {
      record = RelayoutRecord.started(System.currentTimeMillis());
      open = null;
      moves.clearQueued();
    }
    record.running = true;
    planner = null;
    persist();
    LOG.info("EAFR relayout {} on the {} layout{}", resume ? "goes on" : "started", layout.name(),
        resume ? " after " + record.cursor : "");
    return "relayout " + (resume ? "goes on from " + record.cursor : "started") + " on the " + layout.name()
        + " layout; 'hdfs eafr relayout status' shows its progress";
  }

  /**
   * {@code hdfs eafr relayout grow}: grows the equal-work layout to {@code p} primaries (the p {@code hdfs eafr
   * status} names for the lowest gear to hold one whole copy of the data at its fill, Rabbit Sec. 3.1) and starts a
   * relayout that carries the blocks onto the grown layout's homes and shares. The chain keeps its order, so the
   * lowest gear keeps its DataNodes and the next p - p0 of the chain join it; the grown p is persisted in the gear
   * state (the edit log carries it to the standby, a restart keeps it, and it stays until grown again), and the
   * relayout goes on across restarts and failovers from its cursor as any relayout does. Refused below the top gear,
   * while a relayout runs, for a p not above the lowest gear's DataNodes and for one the layout cannot be built with.
   *
   * <p>Worked example (RelayoutGrowTest): 12 DataNodes, p = 2, g = 2 (gears 0..5 keep 2, 4, .., 12 on); grown to
   * p = 4 the layout has gears 0..4 (4, 6, .., 12 on), gear 0 keeping the 2 DataNodes it had and the chain's next 2.
   */
  public synchronized String grow(int p) throws IOException {
    GearedLayout layout = layoutOrRefuse();
    Optional<String> below = notAtTopGear(layout);
    if (below.isPresent()) {
      throw new IllegalStateException("relayout grow refused: " + below.get());
    }
    load();
    if (record != null && record.running) {
      throw new IllegalStateException("relayout grow refused: a relayout is running (" + statusText() + "); let it"
          + " finish, or stop it with 'hdfs eafr relayout stop', first");
    }
    int lowest = layout.serversOn(0).size();
    if (p <= lowest) {
      throw new IllegalArgumentException("relayout grow to p = " + p + " refused: the lowest gear has " + lowest
          + " DataNodes already; p must be more");
    }
    Optional<String> problem = gears.growthProblem(p);
    if (problem.isPresent()) {
      throw new IllegalArgumentException("relayout grow to p = " + p + " refused: " + problem.get());
    }
    shifts.putGrowthInForce(p); // at the top gear: the grown layout has fewer gears, and its top is in force
    record = RelayoutRecord.started(System.currentTimeMillis());
    record.grownFrom = lowest;
    record.grownTo = p;
    planner = null;
    open = null;
    moves.clearQueued();
    persist();
    GearedLayout grown = gears.layout().orElseThrow();
    LOG.info("EAFR relayout: layout grown from p = {} to p = {} primaries ({} gears); relayout started", lowest, p,
        grown.maximumGear() + 1);
    return "layout grown from p = " + lowest + " to p = " + p + " primaries (gears 0.." + grown.maximumGear()
        + ", gear 0 keeping " + grown.serversOn(0).size() + " DataNodes on); relayout started onto it: 'hdfs eafr"
        + " relayout status' shows its progress";
  }

  /**
   * A growth this relayout carries the blocks to that the gear state in force lacks (a gear state persisted over it
   * from a state read before it) is put in force again; only at the top gear, as the growth was.
   */
  private void keepGrowth() throws IOException {
    if (record.grownTo > 0 && gears.state().primaries() != record.grownTo) {
      LOG.warn("EAFR relayout: the gear state in force lost the layout's growth to p = {}; put in force again",
          record.grownTo);
      shifts.putGrowthInForce(record.grownTo);
      moves.clearQueued();
      if (open != null && open.startCursor != null) { // its files are planned again, on the grown layout
        record.cursor = open.startCursor;
        record.files = open.startFiles;
        record.planner = open.startPlanner;
        open.startCursor = null;
      }
      planner = null;
    }
  }

  /**
   * {@code eafr.relayout.grow.auto}: each step, while no relayout runs and none was stopped by the operator, at the top
   * gear with every DataNode reported, grows the layout as {@link #grow} does when the lowest gear no longer holds one
   * copy of the data with its headroom ({@link LowestGearRoom}) and the chain can. The look costs one pass over the
   * DataNodes' reported capacities, not the namespace.
   */
  private void growWhenShort() throws IOException {
    boolean idle = record == null || record.finished && !record.running;
    if (!settings.growAuto() || !idle || !gears.sizedByPrimaries()) {
      return;
    }
    Optional<GearedLayout> layout = gears.layout();
    if (layout.isEmpty() || notAtTopGear(layout.get()).or(() -> notReported(layout.get())).isPresent()) {
      return;
    }
    Optional<LowestGearRoom> room = lowestGearRoom();
    if (room.isEmpty() || room.get().holdsOneCopy() || room.get().primariesNeeded().isEmpty()) {
      return;
    }
    try {
      String grown = grow(room.get().primariesNeeded().getAsInt());
      LOG.info("EAFR relayout: eafr.relayout.grow.auto = 1: the {}; {}", room.get().text().trim(), grown);
    } catch (IllegalArgumentException | IllegalStateException refused) {
      if (!refused.getMessage().equals(growRefused)) { // once per cause, not every step
        LOG.warn("EAFR relayout: eafr.relayout.grow.auto = 1: {}", refused.getMessage());
      }
      growRefused = refused.getMessage();
    }
  }

  private GearedLayout layoutOrRefuse() {
    return gears.layout().orElseThrow(() -> new IllegalStateException("relayout refused: no geared"
        + " layout in force (eafr.layout = " + gears.settings().layout() + ", or no expansion chain yet); set"
        + " eafr.layout = equal-work or accordion and restart the NameNode"));
  }

  /**
   * Stops starting moves (those in flight finish, those queued wait); {@link #start} goes on with the queued moves and
   * then from the cursor.
   */
  public synchronized String stop() throws IOException {
    load();
    if (record == null || !record.running) {
      return "relayout is not running";
    }
    record.running = false;
    persist();
    planner = null;
    owesGrid(false);
    LOG.info("EAFR relayout stopped at {}: {}", record.cursor, statusText());
    return "relayout stopped; " + moves.inFlightCount() + " moves in flight finish; 'hdfs eafr relayout start' goes"
        + " on with the " + moves.queuedCount() + " queued, then from "
        + (record.cursor.isEmpty() ? "the start" : record.cursor);
  }

  private void stepSafely() {
    try {
      step();
    } catch (Exception | Error e) { // keep stepping: the next step goes on from the persisted record
      if (stopping()) {
        LOG.debug("EAFR relayout: a step cut short by the NameNode stopping", e);
      } else {
        LOG.error("EAFR relayout step failed", e);
      }
    }
  }

  /**
   * Whether the NameNode is stopping: it closes the namesystem (and its block map) before it stops the plugins that
   * close this service, so a step may find them closed; it then does nothing (its record stays as last persisted).
   */
  private boolean stopping() {
    return !RelayoutMoves.running(nameNode);
  }

  /** One step (see the class comment). Tests call it directly as well. */
  public synchronized void step() throws IOException {
    if (stopping()) {
      return;
    }
    if (!nameNode.isActiveState()) {
      wasStandby = true;
      loaded = false;
      moves.forget();
      open = null;
      planner = null;
      owesGrid(false);
      return;
    }
    load();
    moves.settle(outcome);
    resumeCutBatch();
    growWhenShort();
    if (record == null || !record.running) {
      if (open != null && moves.idle()) { // a stopped relayout's last moves have settled
        closeBatch();
        persist();
      }
      owesGrid(false);
      return;
    }
    Optional<GearedLayout> layout = gears.layout();
    String waiting = layout.isEmpty() ? "a geared layout" : notAtTopGear(layout.get())
        .or(() -> notReported(layout.get())).or(this::heldForTheGrid).orElse(null);
    if (waiting != null && !waiting.equals(waitingFor)) {
      LOG.info("EAFR relayout waits: {}", waiting);
    }
    waitingFor = waiting;
    if (waitingFor != null) {
      return;
    }
    keepGrowth();
    moves.dispatch();
    if (!moves.idle()) {
      return;
    }
    if (open != null) {
      closeBatch();
    }
    if (cutCounted) {
      nextBatch(gears.layout().orElseThrow());
    }
  }

  /** The batch's moves have all settled: its counts join the record's (persisted with it next). */
  private void closeBatch() {
    record.movedReplicas += open.movedReplicas;
    record.movedBytes += open.movedBytes;
    record.failedMoves += open.failedMoves;
    record.batches = open.number;
    open = null;
    LOG.info("EAFR relayout: {}", statusText());
  }

  /**
   * Once per load of the record, with every DataNode of the layout reported: goes on with the batch a NameNode restart
   * or failover cut ({@link BatchMoves}, numbered past the record's batches; the record's cursor and planner are past
   * it already). A move whose target holds the block is done and counted (only the lost NameNode's memory held it);
   * one whose source still holds it is queued again; the rest are left to the next walk.
   */
  private void resumeCutBatch() throws IOException {
    Optional<GearedLayout> layout = gears.layout();
    if (cutCounted || record == null || layout.isEmpty() || notReported(layout.get()).isPresent()) {
      return;
    }
    cutCounted = true;
    byte[] bytes = store.readRecord(BatchMoves.XATTR);
    BatchMoves cut = bytes == null ? null : BatchMoves.fromBytes(bytes);
    if (cut == null || cut.startedMillis() != record.startedMillis || cut.number() <= record.batches) {
      return;
    }
    open = new OpenBatch(cut.number(), null, 0, null);
    int again = 0;
    for (int m = 0; m < cut.size(); m++) {
      Block block = RelayoutMoves.stored(nameNode, cut.block(m));
      String source = cut.source(m);
      String target = cut.target(m);
      if (block == null) {
        continue;
      }
      if (RelayoutMoves.holds(nameNode, block, target)) {
        open.movedReplicas++;
        open.movedBytes += cut.length(m);
        continue;
      }
      int from = layout.get().chain().position(source);
      int to = layout.get().chain().position(target);
      if (from >= 0 && to >= 0 && RelayoutMoves.holds(nameNode, block, source) && isLive(source) && isLive(target)) {
        moves.queue(block, new BlockMove(block.getBlockName(), from, to, true), source, target);
        again++;
      }
    }
    LOG.info("EAFR relayout: batch {} of walk {} was cut by a NameNode restart or failover: {} of its {} moves done"
        + " ({} bytes, counted), {} queued again", cut.number(), cut.pass(), open.movedReplicas, cut.size(),
        open.movedBytes, again);
  }

  private void nextBatch(GearedLayout layout) throws IOException {
    if (planner == null) {
      planner = plannerFor(layout);
    }
    List<NamespaceWalk.WalkedFile> files = walk.after(record.cursor, settings.batchFiles());
    if (files.isEmpty()) {
      endPass();
      return;
    }
    List<RelayoutBlocks.StoredBlock> blocks = RelayoutBlocks.of(nameNode, files, layout);
    if (awaitsRedundancyWork(blocks)) {
      return;
    }
    RelayoutPlanner.State before = planner.state();
    long budget = xattrBudget();
    List<Queued> queued = plan(blocks, layout);
    BatchMoves.Builder batch = batchOf(queued, Long.MAX_VALUE);
    while (batch.size() > budget && files.size() > 1) { // fewer files, planned again from the same state
      files = files.subList(0, files.size() / 2);
      blocks = RelayoutBlocks.of(nameNode, files, layout);
      planner = RelayoutPlanner.resume(layout, settings.shareSlack(), before, record.pass > 1);
      queued = plan(blocks, layout);
      batch = batchOf(queued, Long.MAX_VALUE);
    }
    batch = batchOf(queued, budget); // one file's moves past the budget are left to a later walk
    counters.blocksPlanned.addAndGet(blocks.size());
    open = new OpenBatch(record.batches + 1, record.cursor, record.files, record.planner);
    record.cursor = files.get(files.size() - 1).path;
    record.files += files.size();
    record.planner = planner.state();
    record.skippedMoves += skipped;
    persist(); // first the cursor past the batch: persisted moves are never planned again
    if (batch.moves() > 0) {
      store.writeRecord(BatchMoves.XATTR, batch.build().toBytes());
    }
    for (Queued move : queued.subList(0, batch.moves())) {
      moves.queue(move.block.block, move.move, move.source, move.target);
    }
    moves.dispatch();
  }

  /** The batch's moves between live DataNodes, in plan order (a move with a DataNode not live is skipped). */
  private List<Queued> plan(List<RelayoutBlocks.StoredBlock> blocks, GearedLayout layout) {
    List<RelayoutBlock> planned = new ArrayList<>(blocks.size());
    blocks.forEach(block -> planned.add(block.planned()));
    List<List<BlockMove>> plans = planner.plan(planned);
    List<Queued> queued = new ArrayList<>();
    skipped = 0;
    for (int b = 0; b < blocks.size(); b++) {
      for (BlockMove move : plans.get(b)) {
        String source = layout.chain().id(move.from());
        String target = layout.chain().id(move.to());
        if (isLive(target) && isLive(source)) {
          queued.add(new Queued(blocks.get(b), move, source, target));
        } else {
          skipped++;
        }
      }
    }
    return queued;
  }

  /** The batch record of the first of {@code queued} that fit {@code budget} bytes. */
  private BatchMoves.Builder batchOf(List<Queued> queued, long budget) {
    BatchMoves.Builder batch = new BatchMoves.Builder(record.startedMillis, record.pass, record.batches + 1);
    for (Queued move : queued) {
      Block block = move.block.block;
      if (batch.sizeWith(block.getBlockId(), block.getNumBytes(), move.source, move.target) > budget) {
        break;
      }
      batch.add(block.getBlockId(), block.getNumBytes(), move.source, move.target);
    }
    return batch;
  }

  /** The bytes an xattr value may take: HDFS's limit on name and value together, less the name. */
  private long xattrBudget() {
    return nameNode.getConf().getInt(DFSConfigKeys.DFS_NAMENODE_MAX_XATTR_SIZE_KEY,
        DFSConfigKeys.DFS_NAMENODE_MAX_XATTR_SIZE_DEFAULT) - BatchMoves.XATTR.length();
  }

  /** Whether the batch waits for HDFS's redundancy work on its blocks ({@link RedundancyWork}), a bounded time. */
  private boolean awaitsRedundancyWork(List<RelayoutBlocks.StoredBlock> blocks) {
    List<Block> batch = new ArrayList<>(blocks.size());
    blocks.forEach(block -> batch.add(block.block));
    Optional<String> busy = RedundancyWork.on(nameNode.getNamesystem(), batch);
    long now = System.currentTimeMillis();
    if (busy.isEmpty() || busySince > 0 && now - busySince > RedundancyWork.WAIT_MILLIS) {
      busySince = 0;
      return false;
    }
    if (busySince == 0) {
      busySince = now;
      LOG.info("EAFR relayout waits: {}", busy.get());
    }
    waitingFor = busy.get();
    return true;
  }

  /**
   * The walk is over. After the first, or any walk that moved something, one more walk checks what the moves left
   * (a block the Balancer or a restart's excess deletion put off its homes meanwhile is moved again); a walk that
   * plans no move, or the {@value #PASSES}th, ends the relayout.
   */
  private void endPass() throws IOException {
    RelayoutReport report = planner.report();
    if (record.pass == 1) {
      record.firstPlannedBytes = report.plannedBytes();
      record.firstBoundBytes = report.lowerBoundBytes();
      record.firstMovedBytes = record.movedBytes;
    }
    LOG.info("EAFR relayout: walk {} over: {}", record.pass, report);
    if (report.movedReplicas() == 0 || record.pass >= PASSES) {
      record.running = false;
      record.finished = true;
      persist();
      owesGrid(false);
      LOG.info("EAFR relayout finished: {}", statusText());
      return;
    }
    record.pass++;
    record.cursor = "";
    record.planner = null;
    planner = null;
    persist();
  }

  /** The first walk's planner keeps the shares; a later walk's only checks ({@link RelayoutPlanner#checking}). */
  private RelayoutPlanner plannerFor(GearedLayout layout) {
    boolean checking = record.pass > 1;
    if (record.planner != null) {
      try {
        return RelayoutPlanner.resume(layout, settings.shareSlack(), record.planner, checking);
      } catch (IllegalArgumentException e) { // the chain grew since: the shares start again from here
        LOG.warn("EAFR relayout: {}; planning goes on from {} with fresh shares", e.getMessage(), record.cursor);
      }
    }
    return checking ? RelayoutPlanner.checking(layout)
        : RelayoutDryRun.firstWalkPlanner(nameNode, layout, settings);
  }

  /**
   * Why the grid holds the relayout now: the gate's verdict ({@code eafr.grid.*}); empty when it may move (no signal,
   * energy only, the cleanest slot or the deadline), so the relayout is due from the first step that asks.
   */
  private Optional<String> heldForTheGrid() {
    if (owesGrid(true)) {
      return Optional.empty();
    }
    return Optional.of("a cleaner or cheaper slot of the grid signal (eafr.grid.objective = "
        + gears.grid().settings().objective() + "): " + gears.grid().heldWhy(WorkKind.RELAYOUT));
  }

  /** Tells the grid gate whether relayout owes moves now (once when it stops owing); returns whether they may run. */
  private boolean owesGrid(boolean owes) {
    if (!owes && !askedGrid) {
      return true;
    }
    askedGrid = owes;
    return gears.grid().mayRun(WorkKind.RELAYOUT, owes ? 1 : 0, settings.stepMillis());
  }

  /** Counts each settled move in the metrics and the persisted record. */
  private final RelayoutMoves.Outcome outcome = new RelayoutMoves.Outcome() {
    @Override
    public void moved(Block block) {
      counters.moves.incrementAndGet();
      counters.movedBytes.addAndGet(block.getNumBytes());
      if (open != null) {
        open.movedReplicas++;
        open.movedBytes += block.getNumBytes();
      } else if (record != null) {
        record.movedReplicas++;
        record.movedBytes += block.getNumBytes();
      }
    }

    @Override
    public void failed(Block block) {
      counters.failedMoves.incrementAndGet();
      if (open != null) {
        open.failedMoves++;
      } else if (record != null) {
        record.failedMoves++;
      }
    }
  };

  /** Why moves cannot start now: a shift under way or DataNodes asleep; empty at the top gear, steady. */
  private Optional<String> notAtTopGear(GearedLayout layout) {
    GearRecord state = gears.state();
    if (state.phase() != ShiftPhase.STEADY) {
      return Optional.of("a gear shift is under way (" + state.phase() + "); relayout moves blocks once it is over");
    }
    if (state.gear() != layout.maximumGear()) {
      return Optional.of("gear " + state.gear() + " leaves DataNodes asleep; relayout needs every DataNode on: run"
          + " 'hdfs eafr gear " + layout.maximumGear() + "' first");
    }
    return Optional.empty();
  }

  /**
   * Why the block map may not list every replica yet: safe mode, or a DataNode of the layout not running or without a
   * full block report since this NameNode became active ({@link #fullyReported}; planning then would take the
   * replicas it has not reported for missing, and end the relayout with blocks left off their homes).
   */
  private Optional<String> notReported(GearedLayout layout) {
    if (nameNode.getNamesystem().isInSafeMode()) {
      return Optional.of("the NameNode is in safe mode");
    }
    for (String id : layout.chain().ids(ActiveSet.all(layout.chain()).positions())) {
      DatanodeDescriptor dn = descriptor(id);
      if (dn == null || !dn.isAlive() || !dn.isInService()) {
        return Optional.of("DataNode " + id + " is not running in service");
      }
      if (!fullyReported(dn, wasStandby)) {
        return Optional.of("the full block report of DataNode " + id);
      }
    }
    return Optional.empty();
  }

  /**
   * Whether every storage of {@code dn} (but a failed one) has sent this NameNode a full block report since the
   * DataNode registered and since this NameNode became active. HDFS counts a storage's full reports from its
   * registration ({@code DatanodeStorageInfo#getBlockReportCount}, 0 again after a restart of either side). On a
   * NameNode that started active that count says it all: every storage it knows was made by this process. On one that
   * was standby, its storages date from before the failover, and HDFS marks their contents stale until a full report
   * that follows a heartbeat; a NameNode that started active does not wait for that mark, which stays up to a whole
   * block report interval when a DataNode's first report after the restart came before its first heartbeat.
   * Incremental reports do not count: after a restart they list only the blocks received or deleted since, and the
   * DataNode's other replicas are not in the block map yet.
   */
  static boolean fullyReported(DatanodeDescriptor dn, boolean sinceFailover) {
    boolean any = false;
    for (StorageReport report : dn.getStorageReports()) {
      DatanodeStorageInfo storage = dn.getStorageInfo(report.getStorage().getStorageID());
      if (report.isFailed() || storage == null) {
        continue;
      }
      if (storage.getBlockReportCount() == 0 || (sinceFailover && storage.areBlockContentsStale())) {
        return false;
      }
      any = true;
    }
    return any;
  }

  private boolean isLive(String id) {
    DatanodeDescriptor dn = descriptor(id);
    return dn != null && dn.isAlive() && dn.isInService();
  }

  private DatanodeDescriptor descriptor(String id) {
    return ServerTranslator.dataNodeOf(nameNode.getNamesystem().getBlockManager().getDatanodeManager(), id);
  }

  private void load() throws IOException {
    boolean active = nameNode.isActiveState();
    if (!loaded || active && loadedOnStandby) {
      byte[] bytes = store.readRecord(RelayoutRecord.XATTR);
      record = bytes == null ? null : RelayoutRecord.fromBytes(bytes);
      loaded = true;
      loadedOnStandby = !active;
      cutCounted = false;
      planner = null;
      if (active && record != null && record.running) {
        LOG.info("EAFR relayout goes on after {} (persisted)", record.cursor.isEmpty() ? "the start" : record.cursor);
      }
    }
  }

  private void persist() throws IOException {
    store.writeRecord(RelayoutRecord.XATTR, record.toBytes());
  }

  /** What {@code hdfs eafr relayout status} and {@code hdfs eafr status} show, by name. */
  public synchronized Map<String, Object> values() {
    if (!loaded) {
      try {
        load();
      } catch (IOException e) {
        return Map.of("state", "unknown: " + e.getMessage());
      }
    }
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("state", stateWord());
    values.put("waitingFor", record != null && record.running ? waitingFor : null);
    values.put("cursor", record == null ? "" : record.cursor);
    values.put("files", record == null ? 0 : record.files);
    values.put("movesQueued", moves.queuedCount());
    values.put("movesInFlight", moves.inFlightCount());
    OpenBatch batch = open == null ? new OpenBatch(0, null, 0, null) : open;
    long movedBytes = record == null ? 0 : record.movedBytes + batch.movedBytes;
    values.put("movedReplicas", record == null ? 0 : record.movedReplicas + batch.movedReplicas);
    values.put("movedBytes", movedBytes);
    values.put("failedMoves", record == null ? 0 : record.failedMoves + batch.failedMoves);
    values.put("skippedMoves", record == null ? 0 : record.skippedMoves);
    Optional<RelayoutReport> report = report();
    boolean firstOver = record != null && record.firstBoundBytes >= 0;
    long bound = firstOver ? record.firstBoundBytes : report.map(RelayoutReport::lowerBoundBytes).orElse(0L);
    values.put("pass", record == null ? 0 : record.pass);
    values.put("blocksPlanned", report.map(RelayoutReport::blocks).orElse(0L));
    values.put("plannedBytes", firstOver ? record.firstPlannedBytes
        : report.map(RelayoutReport::plannedBytes).orElse(0L));
    values.put("lowerBoundBytes", bound);
    values.put("firstWalkMovedBytes", firstOver ? record.firstMovedBytes : movedBytes);
    values.put("movedToLowerBound", record == null || bound == 0 ? null : (double) movedBytes / bound);
    values.put("lowestGearDataNodes", gears.layout().map(layout -> layout.serversOn(0).size()).orElse(null));
    values.put("grownFrom", record == null || record.grownTo == 0 ? null : record.grownFrom);
    values.put("grownTo", record == null || record.grownTo == 0 ? null : record.grownTo);
    values.put("growAuto", settings.growAuto());
    values.put("movesPerDataNode", settings.movesPerDataNode());
    values.put("movesConcurrent", settings.movesConcurrent());
    return values;
  }

  /** Whether the lowest gear holds one copy of the data at the fill ({@link LowestGearRoom}); empty without a layout. */
  public Optional<LowestGearRoom> lowestGearRoom() {
    return LowestGearRoom.of(nameNode, gears, gears.core());
  }

  /** The plan so far: the planner's own, else the one persisted (on a standby, or between batches). */
  synchronized Optional<RelayoutReport> report() {
    if (planner != null) {
      return Optional.of(planner.report());
    }
    Optional<GearedLayout> layout = gears.layout();
    if (record == null || record.planner == null || layout.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(RelayoutPlanner.resume(layout.get(), settings.shareSlack(), record.planner, record.pass > 1)
          .report());
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private String stateWord() {
    if (record == null) {
      return "never run";
    }
    if (record.running) {
      return waitingFor == null ? "running" : "waiting";
    }
    return record.finished ? "finished" : "stopped";
  }

  /** One line: the state, the walk, the moves and bytes against the lower bound. */
  public synchronized String statusText() {
    Map<String, Object> v = values();
    StringBuilder text = new StringBuilder("relayout ").append(v.get("state"));
    if (v.get("waitingFor") != null) {
      text.append(" (waits: ").append(v.get("waitingFor")).append(')');
    }
    text.append(": ");
    if (v.get("grownTo") != null) {
      text.append("onto the layout grown from p = ").append(v.get("grownFrom")).append(" to p = ")
          .append(v.get("grownTo")).append(", ");
    }
    text.append(v.get("files")).append(" files walked");
    if (!((String) v.get("cursor")).isEmpty()) {
      text.append(" (cursor ").append(v.get("cursor")).append(')');
    }
    text.append(" in walk ").append(v.get("pass")).append(", ").append(v.get("blocksPlanned"))
        .append(" blocks planned; ").append(v.get("movedReplicas"))
        .append(" moves done (").append(v.get("movedBytes")).append(" bytes), ").append(v.get("movesInFlight"))
        .append(" in flight, ").append(v.get("movesQueued")).append(" queued, ").append(v.get("failedMoves"))
        .append(" failed; the first walk planned ").append(v.get("plannedBytes"))
        .append(" bytes against a lower bound of ")
        .append(v.get("lowerBoundBytes")).append(" bytes");
    if (v.get("movedToLowerBound") != null) {
      text.append(String.format(Locale.ROOT, " (moved %.3fx the bound)", v.get("movedToLowerBound")));
    }
    return text.toString();
  }

  @Override
  public void close() {
    gears.relayoutDrops().clear();
    scheduler.shutdownNow();
    moves.close();
  }

  /**
   * The batch under way: its counts, joined to the record's when it closes, and the record's cursor, files and
   * planner state before it (null when not known: a batch a restart cut).
   */
  private static final class OpenBatch {
    final long number;
    String startCursor;
    final long startFiles;
    final RelayoutPlanner.State startPlanner;
    long movedReplicas;
    long movedBytes;
    long failedMoves;

    OpenBatch(long number, String startCursor, long startFiles, RelayoutPlanner.State startPlanner) {
      this.number = number;
      this.startCursor = startCursor;
      this.startFiles = startFiles;
      this.startPlanner = startPlanner;
    }
  }

  /** A planned move between live DataNodes, to queue. */
  private static final class Queued {
    final RelayoutBlocks.StoredBlock block;
    final BlockMove move;
    final String source;
    final String target;

    Queued(RelayoutBlocks.StoredBlock block, BlockMove move, String source, String target) {
      this.block = block;
      this.move = move;
      this.source = source;
      this.target = target;
    }
  }

  /** Relayout's work since this NameNode started: counters only grow (the metrics). */
  static final class Counters {
    final AtomicLong blocksPlanned = new AtomicLong();
    final AtomicLong moves = new AtomicLong();
    final AtomicLong movedBytes = new AtomicLong();
    final AtomicLong failedMoves = new AtomicLong();
  }
}
