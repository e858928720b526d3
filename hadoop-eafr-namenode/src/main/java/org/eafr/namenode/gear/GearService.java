package org.eafr.namenode.gear;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INode;
import org.apache.hadoop.hdfs.server.namenode.INodeFile;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.EafrRuntime;
import org.eafr.namenode.cluster.ReplicaMap;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.config.DataNodeName;
import org.eafr.namenode.power.InventoryEntry;
import org.eafr.namenode.power.NodePowerStatus;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.PowerRefusedException;
import org.eafr.namenode.power.PowerResult;
import org.eafr.namenode.power.PowerState;
import org.eafr.namenode.power.Requester;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.GearController;
import org.eafr.placement.gear.GearDecision;
import org.eafr.placement.gear.GearReason;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.LoadSample;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shifts gears in a running NameNode, one step every {@code eafr.gear.step.ms}, each step resuming from the state
 * persisted in the namespace ({@link GearStore}), so a restarted or newly active NameNode finishes a shift under way:
 * <ul>
 *   <li><b>Down</b>: the core's controller checks the gear against the block map ({@link NamespaceFloor}; refused
 *       naming the file and block when some block would keep no live replica, and nothing changes); the leaving
 *       DataNodes go into HDFS maintenance ({@code EafrHostConfigManager}'s overlay, then refreshNodes); once HDFS
 *       shows each IN_MAINTENANCE the availability check runs once more, and the power manager turns their hosts off
 *       and verifies it.</li>
 *   <li><b>Up</b>: power on and verify; wait until each DataNode has registered and sent its block report; only then
 *       take it out of maintenance (a dead node taken out of maintenance would be re-replicated); then reflect what
 *       was written while it slept ({@link #reflectStep}).</li>
 * </ul>
 * On a standby NameNode the service only follows the persisted state (its sleeping DataNodes stay in maintenance
 * there too, so a failover re-replicates nothing).
 */
public final class GearService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GearService.class);
  /** A move not confirmed by the block map this long after it finished is tried again. */
  private static final long MOVE_SETTLE_MILLIS = 10_000;

  private final NameNode nameNode;
  private final EafrRuntime runtime;
  private final GearRuntime gears;
  private final GearStore store;
  private final QuarantineSync quarantines;
  private final ScheduledExecutorService scheduler;
  private final ExecutorService movers;
  private final BlockMover mover;
  private final Map<String, CompletableFuture<PowerResult>> powerActions = new HashMap<>();
  private final ReplicaMap replicaMap;
  private final Map<Long, Move> moves = new HashMap<>();
  private final Set<String> notInInventory = new HashSet<>();
  private final Map<String, String> lastPowerError = new HashMap<>();
  private final WakeDetector wakes;
  /** A reader got a block with no location: look for wakes at once (set from IPC threads, cleared by a step). */
  private final java.util.concurrent.atomic.AtomicBoolean readAsked = new java.util.concurrent.atomic.AtomicBoolean();
  /** DataNodes being woken out of turn whose hosts are verified on (so no further power-on is sent). */
  private final Set<String> wokenOn = new HashSet<>();
  private boolean wasActive;
  /** The block being written that a gear-down waits for before power-off (logged once), or null. */
  private String waitingFor;
  /** The layout problem last logged (once per change of cause), or null. */
  private String loggedLayoutProblem;
  /**
   * DataNodes whose host this service's own power action verified in a state; none is sent a command or read again
   * for that state while the power manager still knows it there (a gear-down to 0 after one to 2 leaves the hosts
   * already off alone). Forgotten when anything contradicts it (a later read, a running DataNode).
   */
  private final Map<String, PowerState> verified = new HashMap<>();
  /**
   * DataNodes asked to sleep that are not running (never registered with this NameNode, asleep since before it
   * started; or registered and dead before the gear-down, so IN_MAINTENANCE at once without this NameNode seeing them
   * alive in it) whose power-off the power manager refused: they serve nothing, so the shift counts them asleep with
   * no power command (logged once) until their DataNode runs again. Their hosts are never switched off unguarded.
   */
  private final Set<String> countedAsleep = new HashSet<>();
  /** The owed record reflection's walk last visited (-1: a pass starts from the first). */
  private long reflectCursor = -1;
  /** Whether the pass of reflection's walk under way found work (a move to make or wait for, a file being written). */
  private boolean reflectWorkThisPass;
  /** What the shift under way waits for (a DataNode and why), for {@code hdfs eafr status}; null when steady. */
  private volatile String blockedBy;

  private GearService(NameNode nameNode, EafrRuntime runtime, ReplicaMap replicaMap) {
    this.nameNode = nameNode;
    this.runtime = runtime;
    this.replicaMap = replicaMap;
    this.gears = runtime.gears();
    this.store = new GearStore(nameNode, gears.settings().stateDir());
    this.quarantines = new QuarantineSync(store, gears::power);
    this.mover = new BlockMover(nameNode.getNamesystem().getBlockManager());
    this.scheduler = Executors.newSingleThreadScheduledExecutor(daemon("eafr-gears"));
    this.movers = Executors.newFixedThreadPool(2, daemon("eafr-gear-reflection"));
    this.wakes = new WakeDetector(nameNode, this::descriptor);
  }

  /**
   * Loads the persisted state and starts stepping every {@code eafr.gear.step.ms}; reflection and waking on demand
   * wait until {@code replicaMap} has settled.
   */
  public static GearService start(NameNode nameNode, EafrRuntime runtime, ReplicaMap replicaMap) {
    GearService service = new GearService(nameNode, runtime, replicaMap);
    try {
      service.store.read().ifPresent(state -> {
        service.apply(state);
        LOG.info("EAFR gears: state loaded from {}: {}", runtime.gears().settings().stateDir(), state);
      });
    } catch (IOException e) {
      LOG.error("EAFR gears: could not read the persisted gear state; it is read again every step", e);
    }
    long step = runtime.gears().settings().stepMillis();
    service.scheduler.scheduleWithFixedDelay(service::stepSafely, step, step, TimeUnit.MILLISECONDS);
    return service;
  }

  private void stepSafely() {
    try {
      step();
    } catch (Exception | Error e) { // keep stepping: the next step starts again from the persisted state
      LOG.error("EAFR gear step failed", e);
    }
  }

  /** One step: follow (standby) or advance (active) the persisted state. Tests call it directly as well. */
  public synchronized void step() throws IOException {
    boolean active = nameNode.isActiveState();
    if (!active || !wasActive) { // a standby follows; a NameNode just made active starts from the latest state
      Optional<GearState> persisted = store.read();
      if (persisted.isPresent() && !persisted.get().equals(gears.state())) {
        apply(persisted.get());
      }
      wasActive = active;
      if (!active) {
        quarantines.step(false);
        return;
      }
    }
    if (nameNode.getNamesystem().isInSafeMode()) {
      return;
    }
    quarantines.step(true);
    if (!gears.state().hasChain() && gears.settings().geared() && gears.settings().expectedDataNodes() > 0
        && liveDataNodes().size() >= gears.settings().expectedDataNodes()) {
      try {
        fixChain();
      } catch (IllegalArgumentException impossible) {
        // the settings build no layout on these DataNodes: recorded in gears.layoutProblem(), logged just below
      }
    }
    logLayoutProblem();
    followMembership();
    learnHostNames();
    recordOwed();
    wakeOnDemand();
    advance();
  }

  /**
   * Logs why the settings build no layout (gears cannot run) once per change of cause, not every step; and once when
   * the problem is gone (more DataNodes registered before the chain was fixed).
   */
  private void logLayoutProblem() {
    String problem = gears.layoutProblem().orElse(null);
    if (java.util.Objects.equals(problem, loggedLayoutProblem)) {
      return;
    }
    if (problem != null) {
      LOG.error("EAFR gears: {}; the gears cannot run (every DataNode stays on and every 'hdfs eafr gear' command is"
          + " refused) until one of these keys is changed in hdfs-site.xml and the NameNode restarted", problem);
    } else {
      LOG.info("EAFR gears: the {} layout builds on the DataNodes now; the gears can run", gears.settings().layout());
    }
    loggedLayoutProblem = problem;
  }

  /**
   * Refuses {@code command} ({@code gear N|up|down|auto}) while the settings build no layout on the expansion chain
   * (or, before the chain is fixed, on the live DataNodes), naming the keys, their values and what is allowed.
   */
  public synchronized void refuseWithoutLayout(String command) {
    if (gears.settings().geared() && !gears.state().hasChain() && liveDataNodes().size() >= 2) {
      try {
        gears.checkLayout(liveChain());
      } catch (IllegalArgumentException impossible) {
        // recorded in gears.layoutProblem()
      }
    }
    gears.layoutProblem().ifPresent(problem -> {
      throw new IllegalStateException("'hdfs eafr " + command + "' refused: " + problem + "; change one of these"
          + " keys in hdfs-site.xml and restart the NameNode");
    });
  }

  /**
   * A reader was given a block with no location (called on the IPC handler thread by the reader ordering): never
   * blocks; at most one early step is queued, which looks for sleeping DataNodes to wake.
   */
  public void readFoundNoReplica() {
    if (readAsked.compareAndSet(false, true)) {
      try {
        scheduler.execute(this::stepSafely);
      } catch (java.util.concurrent.RejectedExecutionException closed) {
        // the service is closing: nothing to wake any more
      }
    }
  }

  /** Starts out-of-turn wakes the detector finds, and advances those under way (as a gear-up does). */
  private void wakeOnDemand() throws IOException {
    Optional<GearedLayout> layout = gears.layout();
    if (layout.isEmpty()) {
      return;
    }
    // After a restart or failover the block map fills as DataNodes report: until then a block nobody has reported yet
    // is not lost, and waking for it would wake groups that are asleep for good reason.
    boolean settled = !nameNode.getNamesystem().isInSafeMode() && replicaMap.settled();
    List<WakeDetector.Wake> found = settled
        ? wakes.find(layout.get(), gears.state(), this::isLive, readAsked.getAndSet(false)) : List.of();
    for (WakeDetector.Wake wake : found) {
      persist(gears.state().withWaking(wake.ids));
      (wake.forFailure ? gears.counters().wakesForFailures : gears.counters().wakesForBlocks).incrementAndGet();
      LOG.warn("EAFR gears: {}: waking {} DataNodes {}", wake.why, wake.ids.size(), wake.ids);
    }
    GearState state = gears.state();
    if (state.waking().isEmpty()) {
      wokenOn.clear();
      return;
    }
    Set<String> unverified = new TreeSet<>(state.waking());
    unverified.removeAll(wokenOn);
    if (powered(unverified, PowerState.ON)) {
      wokenOn.addAll(unverified);
      if (allRegistered(state.waking())) { // never out of maintenance while dead: HDFS would re-replicate
        persist(state.woken());
        gears.counters().nodesWoken.addAndGet(state.waking().size());
        LOG.info("EAFR gears: {} DataNodes woken out of turn registered and reported; out of maintenance, on until"
            + " the next gear shift: {}", state.waking().size(), state.waking());
        wokenOn.clear();
      }
    }
  }

  /**
   * An operator's gear (manual): refused (IllegalArgumentException for a gear that does not exist,
   * IllegalStateException when it is unsafe or a shift is under way), with nothing changed; else the shift starts
   * and the decision's description is returned.
   */
  public synchronized String requestGear(int requested) throws IOException {
    return requestGear(requested, GearReason.MANUAL);
  }

  /** The same for the gear controller's decision in auto mode ({@link GearAutopilot}): every check applies alike. */
  synchronized String requestGear(int requested, GearReason reason) throws IOException {
    if (!gears.settings().geared()) {
      throw new IllegalStateException("gears are off: " + GearSettings.LAYOUT_KEY + " is random; set it to "
          + String.join(" or ", GearSettings.LAYOUTS.subList(1, GearSettings.LAYOUTS.size())));
    }
    if (!nameNode.isActiveState()) {
      throw new IllegalStateException("this NameNode is not active: ask the active NameNode");
    }
    refuseInSafeMode("gear " + requested);
    refuseWithoutLayout("gear " + requested);
    if (!gears.state().hasChain()) {
      GearedLayout.checkGear(layoutBeforeChain(), requested); // a gear that does not exist fixes no chain
      fixChain();
    }
    GearState state = gears.state();
    GearedLayout layout = gears.layout().orElseThrow();
    GearedLayout.checkGear(layout, requested);
    String origin = origin(reason);
    if (state.phase() != GearPhase.STEADY) {
      gears.counters().refusedShifts.incrementAndGet();
      boolean released = state.phase() == GearPhase.REFLECTING && requested < state.target()
          && gears.grid().gearDownAsked(); // held reflection must end before the gear-down can start
      throw new IllegalStateException("gear " + requested + " refused: a shift to gear " + state.target()
          + " is under way (" + state.phase() + (released ? ", reflection held for the grid released now" : "")
          + "); ask again once it has finished");
    }
    if (requested == state.gear()) {
      return "already in gear " + requested;
    }
    GearDecision decision;
    try {
      decision = controller(layout, state.gear()).manual(requested, serversOn(layout), failed(layout),
          floor());
    } catch (IllegalStateException refused) {
      gears.counters().refusedShifts.incrementAndGet();
      LOG.warn("EAFR gears: {} (asked {})", refused.getMessage(), origin);
      throw refused;
    }
    Set<String> sleeping = new TreeSet<>(state.sleeping());
    GearPhase phase;
    if (requested < state.gear()) {
      // The decision keeps on the recovery groups of failed DataNodes (Rabbit Sec. 3.5), woken or not.
      sleeping.addAll(ActiveSet.all(layout.chain()).minus(layout.serversOn(requested)).minus(decision.staysOn())
          .ids());
      sleeping.removeIf(this::outOfLayout);
      phase = GearPhase.ENTERING_MAINTENANCE;
    } else {
      phase = GearPhase.POWERING_ON;
    }
    persist(state.shifting(requested, phase, sleeping));
    gears.counters().shifts.incrementAndGet();
    LOG.info("EAFR gears: shift started, {}", decision.describe(origin));
    return decision.describe(origin);
  }

  /** Who asked for a shift, as its log line says: MANUAL (an operator), or AUTO with the autopilot's reason. */
  static String origin(GearReason reason) {
    return reason == GearReason.MANUAL ? "MANUAL" : "AUTO, " + reason;
  }

  /** The next gear up or down from the one in force (or under way). */
  public synchronized String requestRelative(int delta) throws IOException {
    refuseInSafeMode(delta > 0 ? "gear up" : "gear down");
    refuseWithoutLayout(delta > 0 ? "gear up" : "gear down");
    int from = gears.state().hasChain() ? gears.state().target() : layoutBeforeChain().maximumGear();
    return requestGear(from + delta);
  }

  /**
   * The layout the live DataNodes would form as the chain (fixed in the highest gear), before it is fixed; with fewer
   * than 2 live DataNodes the refusal of {@link #fixChain}.
   */
  private GearedLayout layoutBeforeChain() throws IOException {
    List<GearState.ChainEntry> chain = liveChain();
    if (chain.size() < 2) {
      fixChain(); // refused, naming how many have registered
    }
    return gears.layoutOn(chain);
  }

  /** A shift is recorded in the namespace (and may fix the chain there), which safe mode keeps read-only. */
  private void refuseInSafeMode(String command) {
    if (nameNode.getNamesystem().isInSafeMode()) {
      throw new IllegalStateException(command + " refused: the NameNode is in safe mode (hdfs dfsadmin -safemode"
          + " get); ask again once it has left it");
    }
  }

  private void advance() throws IOException {
    GearState state = gears.state();
    Optional<GearedLayout> layout = gears.layout();
    if (layout.isEmpty() || state.phase() == GearPhase.STEADY) {
      return;
    }
    Set<String> leaving = leaving(layout.get(), state);
    Set<String> waking = waking(layout.get(), state);
    leaving.removeIf(this::outOfLayout);
    waking.removeIf(this::outOfLayout);
    blockedBy = blocker(state.phase(), state.phase() == GearPhase.ENTERING_MAINTENANCE
        || state.phase() == GearPhase.POWERING_OFF ? leaving : waking);
    switch (state.phase()) {
      case ENTERING_MAINTENANCE:
        if (allInMaintenance(leaving)) {
          NamespaceFloor.Gaps gaps = floor().check(layout.get().serversOn(state.target()));
          if (gaps.complete.isPresent()) {
            cancelGearDown(state, leaving, gaps.complete.get().message());
          } else if (gaps.beingWritten.isPresent()) {
            waitForWrite(gaps.beingWritten.get());
          } else {
            waitingFor = null;
            LOG.info("EAFR gears: {} DataNodes IN_MAINTENANCE and every block keeps a live replica; powering off {}",
                leaving.size(), leaving);
            persist(state.withPhase(GearPhase.POWERING_OFF));
          }
        }
        break;
      case POWERING_OFF:
        if (powered(leaving, PowerState.OFF)) {
          persist(state.reached());
          LOG.info("EAFR gears: gear {} reached; {} DataNodes sleep, powered off", state.target(), leaving.size());
        }
        break;
      case POWERING_ON:
        if (powered(waking, PowerState.ON)) {
          persist(state.withPhase(GearPhase.REGISTERING));
          LOG.info("EAFR gears: {} hosts on; waiting for their DataNodes to register and report", waking.size());
        }
        break;
      case REGISTERING:
        if (allRegistered(waking)) {
          Set<String> sleeping = new TreeSet<>(state.sleeping());
          sleeping.removeAll(waking);
          startReflectionPass();
          persist(state.shifting(state.target(), GearPhase.REFLECTING, sleeping));
          LOG.info("EAFR gears: {} DataNodes registered and reported; out of maintenance, reflecting", waking.size());
        }
        break;
      case REFLECTING:
        if (!gears.grid().mayReflect(store.owedCount())) {
          break; // held for a cleaner or cheaper slot before its deadline (logged by the grid gate)
        }
        if (!reflectStep(layout.get(), state)) {
          persist(state.reached());
          LOG.info("EAFR gears: gear {} reached; reflection complete", state.target());
        }
        break;
      default:
        throw new IllegalStateException(state.phase().name());
    }
  }

  /**
   * A block being written has its whole pipeline on leaving DataNodes: powering them off would end the write and
   * leave the block with no replica. The shift waits in ENTERING_MAINTENANCE (logged once per block) until the block
   * is complete (then checked like any other: a complete block with no replica staying on cancels the shift) or its
   * pipeline has moved to a DataNode that stays on.
   */
  private void waitForWrite(org.eafr.placement.gear.UnavailableBlock block) {
    if (!block.blockId().equals(waitingFor)) {
      waitingFor = block.blockId();
      LOG.warn("EAFR gears: gear-down to {} waits before power-off: {}; it powers off once the block is complete or"
          + " its pipeline reaches a DataNode that stays on", gears.state().target(), block.message());
    }
  }

  /**
   * HDFS shows the leaving DataNodes IN_MAINTENANCE, but a block lost its last live replica meanwhile: only the
   * DataNodes this gear-down added, and any leaving one still running, leave maintenance; those asleep since an
   * earlier gear-down have their hosts off, and taking them out would have HDFS re-replicate all they hold while no
   * gear-up would ever power them on.
   */
  private void cancelGearDown(GearState state, Set<String> leaving, String why) throws IOException {
    Set<String> running = new TreeSet<>(leaving);
    running.removeIf(id -> !isAlive(id));
    GearState cancelled = state.gearDownCancelled(running);
    Set<String> awake = new TreeSet<>(state.sleeping());
    awake.removeAll(cancelled.sleeping());
    gears.counters().refusedShifts.incrementAndGet();
    LOG.error("EAFR gears: gear-down to {} cancelled after maintenance: {}; {} DataNodes taken out of maintenance {};"
        + " {} asleep since before it stay asleep", state.target(), why, awake.size(), awake,
        cancelled.sleeping().size());
    persist(cancelled);
  }

  /** Fixes the expansion chain from the live DataNodes and persists it, in the highest gear. */
  private void fixChain() throws IOException {
    List<GearState.ChainEntry> chain = liveChain();
    if (chain.size() < 2) {
      throw new IllegalStateException("the expansion chain needs at least 2 live DataNodes; " + chain.size()
          + " have registered");
    }
    gears.checkLayout(chain); // the settings may build no layout on these DataNodes: refused, nothing persisted
    GearState unset = new GearState(chain, 0, 0, GearPhase.STEADY, Set.of());
    unset = unset.withChain(withHostNames(unset.chain()));
    gears.state(unset);
    int top = gears.layout().orElseThrow().maximumGear();
    persist(new GearState(unset.chain(), top, top, GearPhase.STEADY, Set.of()));
    LOG.info("EAFR gears: expansion chain fixed with {} DataNodes ({} gears): {}", chain.size(), top + 1,
        unset.chain().stream().map(GearState.ChainEntry::id).collect(java.util.stream.Collectors.toList()));
  }

  /**
   * Between shifts (steady, nothing being woken) keeps the chain in step with HDFS: DataNodes HDFS decommissioned
   * leave the layout (kept at their positions, so no other server's position changes), one that serves again rejoins
   * at its old position, and DataNodes registered since the chain was fixed, alive and in service, are appended.
   * Never during a shift: its leaving and waking sets are the gears' as the shift started.
   */
  private void followMembership() throws IOException {
    GearState state = gears.state();
    if (!state.hasChain() || state.phase() != GearPhase.STEADY || !state.waking().isEmpty()
        || gears.layout().isEmpty()) {
      return;
    }
    Set<String> retired = new TreeSet<>(state.retired());
    Set<String> inChain = new HashSet<>();
    for (GearState.ChainEntry entry : state.chain()) {
      inChain.add(entry.id());
      DatanodeDescriptor dn = descriptor(entry.id());
      if (dn != null && dn.isDecommissioned()) {
        retired.add(entry.id());
      } else if (dn != null && dn.isAlive() && dn.isInService()) {
        retired.remove(entry.id());
      }
    }
    if (!retired.equals(state.retired())) {
      persist(state.withRetired(retired));
      LOG.info("EAFR gears: DataNodes decommissioned by HDFS, out of the layout (never waited for, powered or"
          + " counted): {}", retired);
    }
    List<Server> newcomers = new ArrayList<>();
    for (DatanodeDescriptor dn : liveDataNodes()) {
      if (dn.isInService() && !inChain.contains(ServerTranslator.idOf(dn))) {
        newcomers.add(Server.builder(ServerTranslator.idOf(dn)).rack(dn.getNetworkLocation()).build());
      }
    }
    if (!newcomers.isEmpty()) {
      extendChain(gears.state(), newcomers);
    }
  }

  /**
   * Appends {@code newcomers} to the chain, one rack after another: every server keeps its position, gear group and
   * recovery group, so no block moves; the newcomers form the next gear groups (the layout's automatic defaults stay
   * those of the size the chain was fixed with, {@link GearState#sizedFor}). The highest gear stays the highest, so
   * the newcomers stay on; in a lower gear they stay on until the next shift down.
   */
  private void extendChain(GearState state, List<Server> newcomers) throws IOException {
    List<GearState.ChainEntry> tail = withHostNames(GearRuntime.chainOf(newcomers));
    List<GearState.ChainEntry> longer = new ArrayList<>(state.chain());
    longer.addAll(tail);
    Optional<String> problem = gears.problemOn(longer, state.sizedFor());
    if (problem.isPresent()) {
      if (!problem.get().equals(loggedLayoutProblem)) {
        loggedLayoutProblem = problem.get();
        LOG.error("EAFR gears: {} DataNodes registered after the chain was fixed stay out of it: {}",
            newcomers.size(), problem.get());
      }
      return;
    }
    int top = gears.layout().orElseThrow().maximumGear();
    gears.state(state.extended(tail, state.gear())); // builds the longer chain's layout, to learn its top gear
    int gear = state.gear() == top ? gears.layout().orElseThrow().maximumGear() : state.gear();
    persist(state.extended(tail, gear));
    LOG.info("EAFR gears: expansion chain extended by {} DataNodes to {} ({} gears, gear {} in force); no block"
        + " moves: {}", tail.size(), longer.size(), gears.layout().orElseThrow().maximumGear() + 1, gear,
        tail.stream().map(GearState.ChainEntry::id).collect(java.util.stream.Collectors.toList()));
  }

  /**
   * Whether the DataNode {@code id} is out of the layout: HDFS decommissions it or has (the gears never wait for it,
   * never switch it, never count it).
   */
  private boolean outOfLayout(String id) {
    if (gears.state().retired().contains(id)) {
      return true;
    }
    DatanodeDescriptor dn = descriptor(id);
    return dn != null && (dn.isDecommissionInProgress() || dn.isDecommissioned());
  }

  /**
   * The DataNodes HDFS knows, and those of the chain, that are outside the layout, each with why: registered after the
   * chain was fixed (joining at the next step between shifts, or refused by the layout), decommissioning,
   * decommissioned, or in the chain but unknown to this NameNode while not asleep. Id to reason, in id order. Not
   * synchronized: {@code hdfs eafr status} never waits for a gear step; it reads the state in force and HDFS's view.
   */
  public Map<String, String> outsideLayout() {
    Map<String, String> outside = new java.util.TreeMap<>();
    GearState state = gears.state();
    if (!state.hasChain()) {
      return outside;
    }
    Set<String> inChain = new HashSet<>();
    for (GearState.ChainEntry entry : state.chain()) {
      inChain.add(entry.id());
      DatanodeDescriptor dn = descriptor(entry.id());
      if (state.retired().contains(entry.id())) {
        outside.put(entry.id(), "decommissioned: out of the layout; rejoins at its position if it serves again");
      } else if (dn != null && dn.isDecommissionInProgress()) {
        outside.put(entry.id(), "decommissioning: HDFS copies its blocks away; the gears neither wait for nor power"
            + " it");
      } else if (dn == null && !state.sleeping().contains(entry.id())) {
        outside.put(entry.id(), "unknown: in the expansion chain but not registered with this NameNode");
      }
    }
    for (DatanodeDescriptor dn : dataNodes().getDatanodeListForReport(DatanodeReportType.ALL)) {
      String id = ServerTranslator.idOf(dn);
      if (inChain.contains(id)) {
        continue;
      }
      outside.put(id, !dn.isAlive() ? "new, dead: registered after the chain was fixed; joins once alive and in"
          : !dn.isInService() ? "new, " + dn.getAdminState().name() + ": joins once in service"
          : "new: joins the chain at the next gear step between shifts");
    }
    return outside;
  }

  /** What the shift under way waits for: a DataNode of {@code ids} and why; null when nothing waits. */
  private String blocker(GearPhase phase, Set<String> ids) {
    for (String id : ids) {
      DatanodeDescriptor dn = descriptor(id);
      String why;
      switch (phase) {
        case ENTERING_MAINTENANCE:
          why = dn == null || dn.isInMaintenance() ? null
              : "not yet IN_MAINTENANCE (HDFS shows " + dn.getAdminState().name() + ")";
          break;
        case REGISTERING:
          why = dn != null && dn.isAlive() && dn.checkBlockReportReceived() ? null
              : "powered on; its DataNode has not registered and reported its blocks yet";
          break;
        default:
          why = powerBlocker(id);
      }
      if (why != null) {
        return "DataNode " + nameOf(id) + ": " + why;
      }
    }
    return null;
  }

  /** Why {@code id}'s host has not reached its state: quarantined, the last error, or the action under way. */
  private String powerBlocker(String id) {
    PowerManager power = gears.power();
    InventoryEntry entry = power == null ? null : power.entryFor(nameOf(id));
    if (entry == null) {
      return isAlive(id) ? null : "in no power inventory (eafr.power.inventory.file) and not running";
    }
    NodePowerStatus status = power.status(entry.host());
    if (status != null && status.quarantined()) {
      return "quarantined (" + status.lastError() + "); lift it with 'hdfs eafr power clear " + entry.host()
          + "' once its BMC works, or end the shift with 'hdfs eafr gear cancel'";
    }
    String error = lastPowerError.get(id);
    CompletableFuture<PowerResult> action = powerActions.get(id);
    if (action != null && !action.isDone()) {
      return "power " + (gears.state().target() < gears.state().gear() ? "off" : "on") + " under way"
          + (error == null ? "" : "; last error: " + error);
    }
    return error == null ? null : "last power error: " + error;
  }

  /** What the shift under way waits for, as {@code hdfs eafr status} shows it; empty when steady. */
  public Optional<String> blockedBy() {
    return gears.state().phase() == GearPhase.STEADY ? Optional.empty() : Optional.ofNullable(blockedBy);
  }

  /**
   * {@code hdfs eafr gear cancel}: ends the shift under way (or the out-of-turn wake) where it stands. A DataNode of
   * the shift whose host is verified off (its DataNode dead and the power manager read it OFF, or counted asleep: not
   * running, its power-off refused) stays asleep, in maintenance; every other one is on or unaccounted for and leaves
   * maintenance, so HDFS serves it, or re-replicates its blocks if it is dead (as for any failed DataNode, whose
   * recovery group the gears then wake). The gear in force becomes the highest whose DataNodes are all awake; the
   * files that owe reflection moves stay recorded and are moved at the next gear-up. Refused, changing nothing, on a
   * standby and when nothing is under way.
   */
  public synchronized String cancel() throws IOException {
    if (!nameNode.isActiveState()) {
      throw new IllegalStateException("this NameNode is not active: ask the active NameNode");
    }
    refuseInSafeMode("gear cancel");
    GearState state = gears.state();
    Optional<GearedLayout> layout = gears.layout();
    if (layout.isEmpty() || state.phase() == GearPhase.STEADY && state.waking().isEmpty()) {
      throw new IllegalStateException("'hdfs eafr gear cancel' refused: no shift is under way (" + (state.hasChain()
          ? "gear " + state.gear() + ", steady" : "no expansion chain yet") + ") and no DataNode is being woken;"
          + " nothing to cancel");
    }
    Set<String> off = new TreeSet<>();
    Set<String> on = new TreeSet<>();
    for (String id : state.sleeping()) {
      (verifiedOff(id) ? off : on).add(id);
    }
    int reached = 0;
    for (int gear = layout.get().maximumGear(); gear > 0; gear--) {
      if (layout.get().serversOn(gear).ids().stream().noneMatch(id -> off.contains(id) && !outOfLayout(id))) {
        reached = gear;
        break;
      }
    }
    String was = "shift to gear " + state.target() + " (" + state.phase() + (state.waking().isEmpty() ? ""
        : ", " + state.waking().size() + " DataNodes being woken out of turn") + ")";
    persist(state.cancelled(reached, off));
    powerActions.keySet().removeAll(state.sleeping());
    lastPowerError.keySet().removeAll(state.sleeping());
    wokenOn.clear();
    waitingFor = null;
    blockedBy = null;
    startReflectionPass();
    long owed = store.owedCount();
    String answer = was + " cancelled: gear " + reached + " in force; " + off.size() + " DataNodes verified off stay"
        + " asleep in maintenance " + off + "; " + on.size() + " DataNodes out of maintenance " + on + "; " + owed
        + " files still owe reflection moves, made at the next gear-up";
    LOG.warn("EAFR gears: {}", answer);
    return answer;
  }

  /**
   * Whether {@code id}'s host is verified off: its DataNode is not alive, and this service verified the host OFF, or
   * the power manager read it OFF with no action in flight, or it is counted asleep (not running, its power-off
   * refused).
   */
  private boolean verifiedOff(String id) {
    if (isAlive(id)) {
      return false;
    }
    if (verified.get(id) == PowerState.OFF || countedAsleep.contains(id)) {
      return true;
    }
    PowerManager power = gears.power();
    InventoryEntry entry = power == null ? null : power.entryFor(nameOf(id));
    NodePowerStatus status = entry == null ? null : power.status(entry.host());
    return status != null && status.inFlight() == null && status.lastKnown() == PowerState.OFF;
  }

  /** The chain the live DataNodes would form (Rabbit's expansion chain, one rack after another). */
  private List<GearState.ChainEntry> liveChain() {
    List<Server> servers = new ArrayList<>();
    for (DatanodeDescriptor dn : liveDataNodes()) {
      servers.add(Server.builder(ServerTranslator.idOf(dn)).rack(dn.getNetworkLocation()).build());
    }
    return GearRuntime.chainOf(servers);
  }

  /**
   * Persists the host name each registered DataNode of the chain gave (a chain fixed before host names were kept
   * learns them here): a NameNode started while a DataNode sleeps never sees it register, and names it to the power
   * inventory (whose entries name hosts) by this record alone.
   */
  private void learnHostNames() throws IOException {
    GearState state = gears.state();
    List<GearState.ChainEntry> named = withHostNames(state.chain());
    if (!named.equals(state.chain())) {
      persist(state.withChain(named));
    }
  }

  /** {@code chain} with each registered DataNode's host name; an unregistered one keeps the name it had. */
  private List<GearState.ChainEntry> withHostNames(List<GearState.ChainEntry> chain) {
    List<GearState.ChainEntry> named = new ArrayList<>(chain.size());
    for (GearState.ChainEntry entry : chain) {
      DatanodeDescriptor dn = descriptor(entry.id());
      String host = dn == null ? entry.host() : dn.getHostName();
      named.add(host.equals(entry.host()) ? entry : new GearState.ChainEntry(entry.id(), entry.rack(), host));
    }
    return named;
  }

  private void persist(GearState next) throws IOException {
    store.write(next);
    store.writeHome(gears.settings().layout(), next);
    apply(next);
  }

  /** Puts {@code state} in force here: the layout, and the sleeping DataNodes in maintenance (refreshNodes). */
  private void apply(GearState state) {
    Set<String> before = gears.state().sleeping();
    gears.state(state);
    if (before.equals(state.sleeping())) {
      return;
    }
    for (String id : before) {
      if (!state.sleeping().contains(id)) {
        runtime.roles().wake(id);
      }
    }
    state.sleeping().forEach(runtime.roles()::sleep);
    try {
      nameNode.getNamesystem().getBlockManager().getDatanodeManager().refreshNodes(nameNode.getConf());
    } catch (IOException e) {
      LOG.error("EAFR gears: refreshNodes failed; the maintenance overlay applies at the next refresh", e);
    }
  }

  /** Files written with a replica away from home since the last step, recorded in the namespace. */
  private void recordOwed() throws IOException {
    for (String path : gears.takeOwedPaths()) {
      LOG.debug("EAFR gears: recording that {} owes moves", path);
      if (store.recordOwed(path)) {
        gears.counters().owedFiles.set(store.owedCount());
      }
    }
  }

  /** The next reflection walks the owed records from the first: only a whole pass found clean ends it. */
  private void startReflectionPass() {
    reflectCursor = -1;
    reflectWorkThisPass = false;
  }

  /**
   * Starts up to {@code eafr.gear.reflection.blocks-per-step} moves of replicas to their homes (Accordion's batches),
   * planning each owed file's homes once (persisted with it, so a restart plans nothing anew). Walks the owed records
   * a batch a step from a cursor. A file is forgotten only once every home holds each of its blocks (and no extra
   * copy is left): a home that sleeps keeps the record for a later gear-up, but is no work now. Returns whether any
   * work remains: a move in flight, a replica still away from a home that is on, a file still being written, or a
   * pass over the records not yet ended clean.
   */
  boolean reflectStep(GearedLayout layout, GearState state) throws IOException {
    settleMoves();
    if (!replicaMap.settled()) {
      return true; // after a restart or failover, until every DataNode has reported: holders would be stale
    }
    int budget = gears.settings().reflectionBlocksPerStep() - moves.size();
    int batch = Math.max(budget, 1) * 4;
    int started = 0;
    ActiveSet on = serversOn(layout);
    List<GearStore.OwedFile> owedFiles = store.owedAfter(reflectCursor, batch);
    for (GearStore.OwedFile file : owedFiles) {
      reflectCursor = file.inodeId();
      if (file.path() == null) {
        store.forgetOwed(file.inodeId());
        continue;
      }
      List<BlockHolders> blocks = blocksOf(file.path());
      if (blocks == null) {
        reflectWorkThisPass = true; // still being written: reflect once it is closed
        continue;
      }
      if (file.homes().isEmpty() || !file.homes().keySet().containsAll(ids(blocks))) {
        file = file.withHomes(planHomes(layout, on, file.path(), blocks));
        store.writeOwed(file);
      }
      boolean atHome = true;
      for (BlockHolders block : blocks) {
        List<String> homes = file.homes().getOrDefault(block.id, block.holders);
        atHome &= block.holders.containsAll(homes);
        List<String> missing = new ArrayList<>();
        for (String home : homes) {
          if (!block.holders.contains(home) && isLive(home)) {
            missing.add(home);
          }
        }
        if (missing.isEmpty()) {
          if (block.holders.size() > block.replication) { // the source's extra copy is not deleted yet
            atHome = false;
            reflectWorkThisPass = true;
          }
          continue;
        }
        reflectWorkThisPass = true;
        if (moves.containsKey(block.id) || budget <= 0) {
          continue;
        }
        String to = missing.get(0);
        Optional<String> source = moveSource(layout, block.holders, homes, to);
        if (source.isPresent()) {
          LOG.debug("EAFR gears: block {} of {} held by {}, homes {}: moving {} -> {}", block.id, file.path(),
              block.holders, homes, source.get(), to);
          startMove(block, source.get(), to);
          budget--;
          started++;
        }
      }
      if (atHome) {
        store.forgetOwed(file.inodeId());
        gears.counters().blocksReflected.addAndGet(blocks.size());
      }
    }
    boolean remaining = true;
    if (owedFiles.size() < batch) { // the pass ended: reflection is over when it found no work and no move is left
      remaining = reflectWorkThisPass || !moves.isEmpty();
      startReflectionPass();
    }
    long owed = store.owedCount();
    gears.counters().owedFiles.set(owed);
    if (started > 0) {
      LOG.info("EAFR gears: reflection started {} block moves; {} moves in flight, {} files still owe moves", started,
          moves.size(), owed);
    }
    return remaining;
  }

  /**
   * The holder to move to {@code to}: one away from home, on the target's rack when there is one (so HDFS's rack rule
   * lets the source's copy be the excess it deletes), else any live one away from home.
   */
  private Optional<String> moveSource(GearedLayout layout, List<String> holders, List<String> homes, String to) {
    String rack = layout.chain().rackName(layout.chain().requirePosition(to));
    Optional<String> any = Optional.empty();
    for (String holder : holders) {
      if (!homes.contains(holder) && isLive(holder)) {
        int position = layout.chain().position(holder);
        if (position >= 0 && layout.chain().rackName(position).equals(rack)) {
          return Optional.of(holder);
        }
        any = any.isPresent() ? any : Optional.of(holder);
      }
    }
    return any;
  }

  /**
   * The target placement of each block, from the layout with the servers on now and the block's holders (blocks keep
   * r replicas): the equal-work layout places the block anew, Accordion keeps its lowest-group copies where they are
   * so that only the copies owed to the woken groups move (the core's {@code placeExisting}).
   */
  private Map<Long, List<String>> planHomes(GearedLayout layout, ActiveSet on, String path,
      List<BlockHolders> blocks) {
    Map<Long, List<String>> homes = new HashMap<>();
    for (BlockHolders block : blocks) {
      int[] holders = block.holders.stream().mapToInt(layout.chain()::position).filter(p -> p >= 0).toArray();
      BlockPlacement placement = layout.placeExisting(BlockRequest.of("blk_" + block.id, block.replication)
          .withPath(path), on, holders);
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < placement.size(); i++) {
        ids.add(layout.chain().id(placement.home(i)));
      }
      homes.put(block.id, ids);
    }
    return homes;
  }

  private void startMove(BlockHolders block, String from, String to) {
    DatanodeDescriptor source = descriptor(from);
    DatanodeDescriptor target = descriptor(to);
    Move move = new Move(from, to, movers.submit(() -> {
      mover.move(block.block, source, target);
      return null;
    }));
    moves.put(block.id, move);
    gears.reflectionMoves().add(GearRuntime.moveKey(from, to));
  }

  /** Forgets moves whose block left the source (done) or that failed; failed ones are tried again next step. */
  private void settleMoves() {
    long now = System.currentTimeMillis();
    moves.entrySet().removeIf(entry -> {
      Move move = entry.getValue();
      if (!move.future.isDone()) {
        return false;
      }
      try {
        move.future.get();
      } catch (Exception e) {
        gears.counters().reflectionFailures.incrementAndGet();
        LOG.warn("EAFR gears: reflection move of block {} from {} failed: {}", entry.getKey(), move.source,
            e.getMessage());
        return true;
      }
      if (move.finishedAt == 0) {
        move.finishedAt = now;
      }
      return now - move.finishedAt > MOVE_SETTLE_MILLIS || !holds(entry.getKey(), move.source);
    });
    Set<String> inFlight = new HashSet<>();
    moves.values().forEach(move -> inFlight.add(GearRuntime.moveKey(move.source, move.target)));
    gears.reflectionMoves().retainAll(inFlight);
  }

  private boolean holds(long blockId, String server) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    namesystem.readLock();
    try {
      BlockInfo block = namesystem.getBlockManager().getStoredBlock(new org.apache.hadoop.hdfs.protocol.Block(blockId));
      if (block == null) {
        return false;
      }
      for (DatanodeStorageInfo storage : namesystem.getBlockManager().getStorages(block)) {
        if (ServerTranslator.idOf(storage.getDatanodeDescriptor()).equals(server)) {
          return true;
        }
      }
      return false;
    } finally {
      namesystem.readUnlock();
    }
  }

  /** The blocks of a closed file with their holders; null while it is being written. */
  private List<BlockHolders> blocksOf(String path) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    namesystem.readLock();
    try {
      INode inode = namesystem.getFSDirectory().getINode(path);
      if (inode == null || !inode.isFile()) {
        return List.of();
      }
      INodeFile file = inode.asFile();
      if (file.isUnderConstruction()) {
        return null;
      }
      List<BlockHolders> blocks = new ArrayList<>();
      for (BlockInfo block : file.getBlocks()) {
        List<String> holders = new ArrayList<>();
        for (DatanodeStorageInfo storage : namesystem.getBlockManager().getStorages(block)) {
          holders.add(ServerTranslator.idOf(storage.getDatanodeDescriptor()));
        }
        blocks.add(new BlockHolders(new org.apache.hadoop.hdfs.protocol.Block(block), file.getFileReplication(),
            holders));
      }
      return blocks;
    } catch (IOException e) {
      return List.of();
    } finally {
      namesystem.readUnlock();
    }
  }

  private static Set<Long> ids(List<BlockHolders> blocks) {
    Set<Long> ids = new HashSet<>();
    blocks.forEach(block -> ids.add(block.id));
    return ids;
  }

  /**
   * Whether every DataNode of {@code ids} has reached {@code wanted} through the power manager (verified by its
   * driver); starts the missing actions. A DataNode whose host is in no power inventory cannot be switched: it stays
   * on (in maintenance when sleeping), logged once.
   */
  private boolean powered(Set<String> ids, PowerState wanted) {
    PowerManager power = gears.power();
    boolean all = true;
    for (String id : ids) {
      if (outOfLayout(id)) {
        continue; // never powered: HDFS decommissions it, or has
      }
      InventoryEntry entry = power == null ? null : power.entryFor(nameOf(id));
      if (entry == null) {
        if (wanted == PowerState.ON && !isAlive(id)) {
          all = false; // nothing can switch it on: the shift waits, loudly, for an operator
          if (notInInventory.add(id + " " + wanted)) {
            gears.counters().powerFailures.incrementAndGet();
            LOG.error("EAFR gears: DataNode {} ({}) must be switched on for gear {}, but it is in no power inventory"
                + " ({}) and not running: the shift waits in {} until it is switched on by hand or added to the"
                + " inventory", id, nameOf(id), gears.state().target(), "eafr.power.inventory.file",
                gears.state().phase());
          }
        } else if (notInInventory.add(id)) {
          LOG.warn("EAFR gears: DataNode {} is in no power inventory ({}): it stays on{}", id,
              "eafr.power.inventory.file", wanted == PowerState.OFF ? ", in maintenance" : "");
        }
        continue;
      }
      CompletableFuture<PowerResult> action = powerActions.get(id);
      if (action != null && action.isDone() && !action.isCompletedExceptionally()
          && action.join().state() == wanted) {
        verified.put(id, wanted);
        continue;
      }
      if (wanted == PowerState.OFF && countedAsleep(id, action)) {
        continue;
      }
      if (stillVerified(id, entry, wanted)) {
        continue; // e.g. off since an earlier gear-down: no command, no read
      }
      if (action == null || action.isCompletedExceptionally() || action.isDone()) {
        if (action != null && action.isCompletedExceptionally()) {
          String error = action.handle((r, e) -> e.getMessage()).join();
          if (!error.equals(lastPowerError.put(id, error))) { // once per error: a quarantined host stays refused
            gears.counters().powerFailures.incrementAndGet();
            LOG.warn("EAFR gears: turning {} {} failed: {}", id, wanted, error);
          }
        }
        powerActions.put(id, wanted == PowerState.OFF ? power.powerOff(entry.host(), false, Requester.AUTOMATIC)
            : power.powerOn(entry.host(), Requester.AUTOMATIC));
        all = false;
      } else {
        all = false; // under way
      }
    }
    if (all) {
      powerActions.keySet().removeAll(ids);
      lastPowerError.keySet().removeAll(ids);
    }
    return all;
  }

  /**
   * Whether {@code id} is asleep as far as HDFS can tell: its DataNode is not running (never registered with this
   * NameNode, or dead) and its power-off ({@code action}) was refused, since the guard cannot see it alive in
   * maintenance and its host could not be read OFF. Nothing is lost by counting it asleep: the NameNode holds no live
   * replica on it (its host may still run: the energy is lost, no data is). Its DataNode running again ends this, and
   * its power-off is asked for again.
   */
  private boolean countedAsleep(String id, CompletableFuture<PowerResult> action) {
    if (isAlive(id)) {
      countedAsleep.remove(id);
      return false;
    }
    if (countedAsleep.contains(id)) {
      return true;
    }
    Throwable error = action == null || !action.isCompletedExceptionally() ? null
        : action.handle((r, e) -> e instanceof CompletionException ? e.getCause() : e).join();
    if (!(error instanceof PowerRefusedException)) {
      return false;
    }
    countedAsleep.add(id);
    LOG.warn("EAFR gears: DataNode {} ({}) is not running ({}) and its power-off was refused ({}): counted asleep for"
        + " gear {}, with no power command", id, nameOf(id), descriptor(id) == null ? "not registered with this"
        + " NameNode since it started" : "dead", error.getMessage(), gears.state().target());
    return true;
  }

  /**
   * Whether this service verified {@code id}'s host in {@code wanted} and nothing says otherwise since: the power
   * manager still knows it there with no action in flight (an operator's command or status read would have changed
   * that), and, for OFF, its DataNode does not heartbeat. Else the record is forgotten.
   */
  private boolean stillVerified(String id, InventoryEntry entry, PowerState wanted) {
    if (verified.get(id) != wanted) {
      return false;
    }
    NodePowerStatus status = gears.power().status(entry.host());
    boolean stands = status != null && status.inFlight() == null && status.lastKnown() == wanted
        && (wanted != PowerState.OFF || !isAlive(id));
    if (!stands) {
      verified.remove(id);
    }
    return stands;
  }

  private boolean allInMaintenance(Set<String> ids) {
    for (String id : ids) {
      if (outOfLayout(id)) {
        continue; // decommissioning: HDFS moves its blocks, the gears neither wait for nor switch it
      }
      DatanodeDescriptor dn = descriptor(id);
      if (dn != null && !dn.isInMaintenance()) {
        return false; // not yet; an unregistered one (dead before a restart) is already safe to leave asleep
      }
    }
    return true;
  }

  private boolean allRegistered(Set<String> ids) {
    for (String id : ids) {
      if (outOfLayout(id)) {
        continue;
      }
      DatanodeDescriptor dn = descriptor(id);
      if (dn == null || !dn.isAlive() || !dn.checkBlockReportReceived()) {
        return false;
      }
    }
    return true;
  }

  /** DataNodes asleep (or going to sleep) that the target gear does not keep on. */
  private static Set<String> leaving(GearedLayout layout, GearState state) {
    Set<String> leaving = new LinkedHashSet<>();
    ActiveSet kept = layout.serversOn(state.target());
    for (String id : state.sleeping()) {
      if (!kept.contains(id) && !state.waking().contains(id)) {
        leaving.add(id);
      }
    }
    return leaving;
  }

  /** Sleeping DataNodes the target gear keeps on. */
  private static Set<String> waking(GearedLayout layout, GearState state) {
    Set<String> waking = new LinkedHashSet<>();
    ActiveSet kept = layout.serversOn(state.target());
    for (String id : state.sleeping()) {
      if (kept.contains(id)) {
        waking.add(id);
      }
    }
    return waking;
  }

  private GearController controller(GearedLayout layout, int gear) {
    return GearController.from(runtime.settings().core(), layout, new LoadSample(1, 1, 1, 1), gear,
        Clock.systemUTC());
  }

  NamespaceFloor floor() {
    return new NamespaceFloor(nameNode, this::isLive);
  }

  ActiveSet serversOn(GearedLayout layout) {
    return GearRuntime.serversOn(layout, this::isLive);
  }

  ActiveSet failed(GearedLayout layout) {
    return GearRuntime.serversOn(layout, id -> {
      DatanodeDescriptor dn = descriptor(id);
      return dn != null && !dn.isAlive() && !dn.isMaintenance() && !gears.state().sleeping().contains(id)
          && !outOfLayout(id);
    });
  }

  /** Alive and in service: a replica there can be read, a block can be written there. */
  private boolean isLive(String id) {
    DatanodeDescriptor dn = descriptor(id);
    return dn != null && dn.isAlive() && dn.isInService();
  }

  private List<DatanodeDescriptor> liveDataNodes() {
    return dataNodes().getDatanodeListForReport(DatanodeReportType.LIVE);
  }

  /** This NameNode's DataNodes as HDFS knows them (the placement policy reads what sleeps unseen from them). */
  public DatanodeManager dataNodes() {
    return nameNode.getNamesystem().getBlockManager().getDatanodeManager();
  }

  private DatanodeDescriptor descriptor(String id) {
    int colon = id.lastIndexOf(':');
    return dataNodes().getDatanodeByXferAddr(id.substring(0, colon), Integer.parseInt(id.substring(colon + 1)));
  }

  private boolean isAlive(String id) {
    DatanodeDescriptor dn = descriptor(id);
    return dn != null && dn.isAlive();
  }

  /** How the power inventory may name {@code id}: as registered, else by the host name the chain recorded. */
  private DataNodeName nameOf(String id) {
    DatanodeDescriptor dn = descriptor(id);
    if (dn != null) {
      return ServerTranslator.nameOf(dn);
    }
    int colon = id.lastIndexOf(':');
    String ip = id.substring(0, colon);
    String host = gears.state().chain().stream().filter(entry -> entry.id().equals(id))
        .map(GearState.ChainEntry::host).filter(name -> !name.isEmpty()).findFirst().orElse(ip);
    return new DataNodeName(ip, host, Integer.parseInt(id.substring(colon + 1)));
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
    movers.shutdownNow();
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** A block of a closed file: its id, the file's replication and the DataNodes holding it. */
  private static final class BlockHolders {
    final org.apache.hadoop.hdfs.protocol.Block block;
    final long id;
    final int replication;
    final List<String> holders;

    BlockHolders(org.apache.hadoop.hdfs.protocol.Block block, int replication, List<String> holders) {
      this.block = block;
      this.id = block.getBlockId();
      this.replication = replication;
      this.holders = holders;
    }
  }

  /** A reflection move started: its source (whose copy is the excess to delete after) and its outcome. */
  private static final class Move {
    final String source;
    final String target;
    final java.util.concurrent.Future<?> future;
    long finishedAt;

    Move(String source, String target, java.util.concurrent.Future<?> future) {
      this.source = source;
      this.target = target;
      this.future = future;
    }
  }
}
