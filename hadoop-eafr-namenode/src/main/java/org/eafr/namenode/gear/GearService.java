package org.eafr.namenode.gear;

import java.io.IOException;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.ReplicaMap;
import org.eafr.namenode.cluster.ServerRoles;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearController;
import org.eafr.placement.gear.GearDecision;
import org.eafr.placement.gear.GearReason;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.LoadSample;
import org.eafr.placement.gear.UnavailableBlock;
import org.eafr.placement.gear.shift.GearShift;
import org.eafr.placement.gear.shift.Power;
import org.eafr.placement.gear.shift.PowerSteps;
import org.eafr.placement.gear.shift.ReflectionGate;
import org.eafr.placement.gear.shift.ShiftAnswer;
import org.eafr.placement.gear.shift.ShiftBlocker;
import org.eafr.placement.gear.shift.ShiftCancel;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.gear.shift.ShiftRequest;
import org.eafr.placement.gear.shift.ShiftSets;
import org.eafr.placement.gear.shift.ShiftState;
import org.eafr.placement.settings.EafrSettings;
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
 *       and verifies it (the core's {@link PowerSteps} over {@link HdfsPowerPort}: the simulator's rules).</li>
 *   <li><b>Up</b>: power on and verify; wait until each DataNode has registered and sent its block report; only then
 *       take it out of maintenance (a dead node taken out of maintenance would be re-replicated); then reflect what
 *       was written while it slept ({@link OwedReflection}).</li>
 * </ul>
 * On a standby NameNode the service only follows the persisted state (its sleeping DataNodes stay in maintenance
 * there too, so a failover re-replicates nothing).
 */
public final class GearService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GearService.class);
  /** A power action the manager has not answered this long is looked at again (it times its own actions out). */
  private static final long POWER_REPLY_MILLIS = 3_600_000;

  private final NameNode nameNode;
  private final HdfsMaintenance maintenance;
  private final EafrSettings core;
  private final GearRuntime gears;
  private final GearStore store;
  private final QuarantineSync quarantines;
  private final ScheduledExecutorService scheduler;
  private final ReplicaMap replicaMap;
  private final GearDataNodes nodes;
  private final PowerSteps power;
  private final ReflectionGate grid;
  private final OwedReflection reflection;
  private final ChainMembership membership;
  private final WakeDetector wakes;
  private final ShiftBlocker blocker;
  /** A reader got a block with no location: look for wakes at once (set from IPC threads, cleared by a step). */
  private final AtomicBoolean readAsked = new AtomicBoolean();
  /** DataNodes being woken out of turn whose hosts are verified on (so no further power-on is sent). */
  private final Set<String> wokenOn = new HashSet<>();
  private boolean wasActive;
  /** The block being written that a gear-down waits for before power-off (logged once), or null. */
  private String waitingFor;
  /** What the shift under way waits for (a DataNode and why), for {@code hdfs eafr status}; null when steady. */
  private volatile String blockedBy;
  /** The last power-off refusal logged (once each). */
  private String lastRefusal = "";

  private GearService(NameNode nameNode, GearRuntime gears, ServerRoles roles, EafrSettings core,
      ReplicaMap replicaMap) {
    this.nameNode = nameNode;
    this.maintenance = new HdfsMaintenance(nameNode, roles);
    this.core = core;
    this.replicaMap = replicaMap;
    this.gears = gears;
    this.store = new GearStore(nameNode, gears.settings().stateDir());
    this.quarantines = new QuarantineSync(store, gears::power);
    this.nodes = new GearDataNodes(nameNode, gears);
    this.grid = new GridReflectionGate(gears);
    this.power = new PowerSteps(nodes::view, new HdfsPowerPort(gears, nodes), POWER_REPLY_MILLIS);
    this.reflection = new OwedReflection(nameNode, gears, store, replicaMap, nodes);
    this.membership = new ChainMembership(gears, nodes, this::persist);
    this.scheduler = Executors.newSingleThreadScheduledExecutor(daemon("eafr-gears"));
    this.wakes = new WakeDetector(nameNode, nodes::descriptor);
    this.blocker = new ShiftBlocker(nodes::view, power::why,
        id -> nodes.nameOf(id).toString());
  }

  /**
   * Loads the persisted state and starts stepping every {@code eafr.gear.step.ms}; reflection and waking on demand
   * wait until {@code replicaMap} has settled.
   */
  public static GearService start(NameNode nameNode, GearRuntime gears, ServerRoles roles, EafrSettings core,
      ReplicaMap replicaMap) {
    GearService service = new GearService(nameNode, gears, roles, core, replicaMap);
    try {
      service.store.read().ifPresent(state -> {
        service.apply(state);
        LOG.info("EAFR gears: state loaded from {}: {}", gears.settings().stateDir(), state);
      });
    } catch (IOException e) {
      LOG.error("EAFR gears: could not read the persisted gear state; it is read again every step", e);
    }
    long step = gears.settings().stepMillis();
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
      Optional<GearRecord> persisted = store.read();
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
    membership.step();
    reflection.recordOwed();
    wakeOnDemand();
    advance();
  }

  /**
   * Refuses {@code command} ({@code gear N|up|down|auto}) while the settings build no layout on the expansion chain
   * (or, before the chain is fixed, on the live DataNodes), naming the keys, their values and what is allowed.
   */
  public synchronized void refuseWithoutLayout(String command) {
    if (gears.settings().geared() && !gears.state().hasChain() && nodes.liveDataNodes().size() >= 2) {
      try {
        gears.checkLayout(membership.liveChain());
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
      } catch (RejectedExecutionException closed) {
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
        ? wakes.find(layout.get(), gears.state(), nodes::isLive, readAsked.getAndSet(false)) : List.of();
    for (WakeDetector.Wake wake : found) {
      persist(gears.state().shift().withWaking(wake.ids));
      (wake.forFailure ? gears.counters().wakesForFailures : gears.counters().wakesForBlocks).incrementAndGet();
      LOG.warn("EAFR gears: {}: waking {} DataNodes {}", wake.why, wake.ids.size(), wake.ids);
    }
    GearRecord state = gears.state();
    if (state.waking().isEmpty()) {
      wokenOn.clear();
      return;
    }
    Set<String> unverified = new TreeSet<>(state.waking());
    unverified.removeAll(wokenOn);
    unverified.removeIf(nodes::outOfLayout); // never powered: HDFS decommissions it, or has
    if (power.reach(unverified, Power.ON, System.currentTimeMillis())) {
      wokenOn.addAll(unverified);
      if (allRegistered(state.waking())) { // never out of maintenance while dead: HDFS would re-replicate
        persist(state.shift().woken());
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
      GearedLayout.checkGear(membership.layoutBeforeChain(), requested); // a gear that does not exist fixes no chain
      membership.fixChain();
    }
    GearRecord state = gears.state();
    GearedLayout layout = gears.layout().orElseThrow();
    GearedLayout.checkGear(layout, requested);
    String origin = GearShift.origin(reason);
    Optional<ShiftAnswer> early = ShiftRequest.before(layout, state.shift(), requested, grid);
    if (early.isPresent() && !early.get().accepted()) {
      gears.counters().refusedShifts.incrementAndGet();
      throw new IllegalStateException(early.get().text());
    }
    if (early.isPresent()) {
      return early.get().text();
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
    // The decision keeps on the recovery groups of failed DataNodes (Rabbit Sec. 3.5), woken or not.
    persist(ShiftRequest.start(layout, state.shift(), requested, decision, nodes::outOfLayout));
    gears.counters().shifts.incrementAndGet();
    LOG.info("EAFR gears: shift started, {}", decision.describe(origin));
    return decision.describe(origin);
  }

  /** The next gear up or down from the one in force (or under way). */
  public synchronized String requestRelative(int delta) throws IOException {
    refuseInSafeMode(delta > 0 ? "gear up" : "gear down");
    refuseWithoutLayout(delta > 0 ? "gear up" : "gear down");
    int from = gears.state().hasChain() ? gears.state().target() : membership.layoutBeforeChain().maximumGear();
    return requestGear(from + delta);
  }

  /** A shift is recorded in the namespace (and may fix the chain there), which safe mode keeps read-only. */
  private void refuseInSafeMode(String command) {
    if (nameNode.getNamesystem().isInSafeMode()) {
      throw new IllegalStateException(command + " refused: the NameNode is in safe mode (hdfs dfsadmin -safemode"
          + " get); ask again once it has left it");
    }
  }

  private void advance() throws IOException {
    GearRecord state = gears.state();
    Optional<GearedLayout> layout = gears.layout();
    if (layout.isEmpty() || state.phase() == ShiftPhase.STEADY) {
      return;
    }
    Set<String> leaving = ShiftSets.leaving(layout.get(), state.shift(), nodes::outOfLayout);
    Set<String> waking = ShiftSets.wakingForGear(layout.get(), state.shift(), nodes::outOfLayout);
    String waitsFor = blocker.of(state.phase(), state.phase() == ShiftPhase.ENTERING_MAINTENANCE
        || state.phase() == ShiftPhase.POWERING_OFF ? leaving : waking).orElse(null);
    if (waitsFor != null && !waitsFor.equals(blockedBy)) {
      LOG.info("EAFR gears: the shift to gear {} ({}) waits for {}", state.target(), state.phase(), waitsFor);
    }
    blockedBy = waitsFor;
    long now = System.currentTimeMillis();
    switch (state.phase()) {
      case ENTERING_MAINTENANCE:
        if (ShiftSets.allInMaintenance(leaving, nodes::view)) {
          NamespaceFloor.Gaps gaps = floor().check(layout.get().serversOn(state.target()));
          if (gaps.complete.isPresent()) {
            cancelGearDown(state, leaving, gaps.complete.get().message());
          } else if (gaps.beingWritten.isPresent()) {
            waitForWrite(gaps.beingWritten.get());
          } else {
            waitingFor = null;
            LOG.info("EAFR gears: {} DataNodes IN_MAINTENANCE and every block keeps a live replica; powering off {}",
                leaving.size(), leaving);
            persist(state.shift().withPhase(ShiftPhase.POWERING_OFF));
          }
        }
        break;
      case POWERING_OFF:
        boolean off = power.reach(leaving, Power.OFF, now);
        String refusal = power.lastRefusal();
        if (!refusal.isEmpty() && !refusal.equals(lastRefusal)) { // once: a refused DataNode not running sleeps
          LOG.warn("EAFR gears: gear {}: {}; a DataNode not running is counted asleep", state.target(), refusal);
        }
        lastRefusal = refusal.isEmpty() ? lastRefusal : refusal;
        if (off) {
          persist(state.shift().reached());
          LOG.info("EAFR gears: gear {} reached; {} DataNodes sleep, powered off", state.target(), leaving.size());
        }
        break;
      case POWERING_ON:
        if (power.reach(waking, Power.ON, now)) {
          persist(state.shift().withPhase(ShiftPhase.REGISTERING));
          LOG.info("EAFR gears: {} hosts on; waiting for their DataNodes to register and report", waking.size());
        }
        break;
      case REGISTERING:
        if (allRegistered(waking)) {
          Set<String> sleeping = new TreeSet<>(state.sleeping());
          sleeping.removeAll(waking);
          reflection.startPass();
          persist(state.shift().shifting(state.target(), ShiftPhase.REFLECTING, sleeping));
          LOG.info("EAFR gears: {} DataNodes registered and reported; out of maintenance, reflecting", waking.size());
        }
        break;
      case REFLECTING:
        if (!grid.mayReflect(store.owedCount())) {
          break; // held for a cleaner or cheaper slot before its deadline (logged by the grid gate)
        }
        if (!reflection.step(layout.get())) {
          persist(state.shift().reached());
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
  private void waitForWrite(UnavailableBlock block) {
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
  private void cancelGearDown(GearRecord state, Set<String> leaving, String why) throws IOException {
    Set<String> running = new TreeSet<>(leaving);
    running.removeIf(id -> !nodes.isAlive(id));
    GearRecord cancelled = state.gearDownCancelled(running);
    Set<String> awake = new TreeSet<>(state.sleeping());
    awake.removeAll(cancelled.sleeping());
    gears.counters().refusedShifts.incrementAndGet();
    LOG.error("EAFR gears: gear-down to {} cancelled after maintenance: {}; {} DataNodes taken out of maintenance {};"
        + " {} asleep since before it stay asleep", state.target(), why, awake.size(), awake,
        cancelled.sleeping().size());
    persist(cancelled);
  }

  /** What the shift under way waits for, as {@code hdfs eafr status} shows it; empty when steady. */
  public Optional<String> blockedBy() {
    return gears.state().phase() == ShiftPhase.STEADY ? Optional.empty() : Optional.ofNullable(blockedBy);
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
    GearRecord state = gears.state();
    Optional<GearedLayout> layout = gears.layout();
    if (layout.isEmpty() || state.phase() == ShiftPhase.STEADY && state.waking().isEmpty()) {
      throw new IllegalStateException("'hdfs eafr gear cancel' refused: no shift is under way (" + (state.hasChain()
          ? "gear " + state.gear() + ", steady" : "no expansion chain yet") + ") and no DataNode is being woken;"
          + " nothing to cancel");
    }
    Set<String> off = new TreeSet<>();
    Set<String> on = new TreeSet<>();
    for (String id : state.sleeping()) {
      (power.verifiedOff(id) ? off : on).add(id);
    }
    Set<String> offInLayout = new TreeSet<>(off);
    offInLayout.removeIf(nodes::outOfLayout);
    int reached = ShiftCancel.reachedGear(layout.get(), offInLayout);
    String was = ShiftCancel.shiftName(state.shift());
    persist(state.shift().cancelledAt(reached, off));
    power.forget(state.sleeping());
    wokenOn.clear();
    waitingFor = null;
    blockedBy = null;
    reflection.startPass();
    String answer = ShiftCancel.answer(was, reached, off, on, store.owedCount(), "files");
    LOG.warn("EAFR gears: {}", answer);
    return answer;
  }

  /** Persists the record in force with the shift in {@code next}. */
  private void persist(ShiftState next) throws IOException {
    persist(gears.state().withShift(next));
  }

  private void persist(GearRecord next) throws IOException {
    store.write(next);
    store.writeHome(gears.settings().layout(), next);
    apply(next);
  }

  /** Puts {@code state} in force here: the layout, and the sleeping DataNodes in maintenance (refreshNodes). */
  private void apply(GearRecord state) {
    Set<String> woken = new TreeSet<>(gears.state().sleeping());
    woken.removeAll(state.sleeping());
    boolean changed = !gears.state().sleeping().equals(state.sleeping());
    gears.state(state);
    if (!woken.isEmpty()) {
      maintenance.leave(woken);
    }
    if (changed && !state.sleeping().isEmpty()) {
      maintenance.enter(state.sleeping()); // every sleeper again: the overlay may have been rebuilt since
    }
  }

  /** Whether each of {@code ids} HDFS does not decommission has registered and reported ({@link ShiftSets}). */
  private boolean allRegistered(Set<String> ids) {
    Set<String> inLayout = new TreeSet<>(ids);
    inLayout.removeIf(nodes::outOfLayout);
    return ShiftSets.allRegistered(inLayout, nodes::view);
  }

  private GearController controller(GearedLayout layout, int gear) {
    return GearController.from(core, layout, new LoadSample(1, 1, 1, 1), gear,
        Clock.systemUTC());
  }

  NamespaceFloor floor() {
    return new NamespaceFloor(nameNode, nodes::isLive);
  }

  ActiveSet serversOn(GearedLayout layout) {
    return GearRuntime.serversOn(layout, nodes::isLive);
  }

  ActiveSet failed(GearedLayout layout) {
    return GearRuntime.serversOn(layout, id -> {
      DatanodeDescriptor dn = nodes.descriptor(id);
      return dn != null && !dn.isAlive() && !dn.isMaintenance() && !gears.state().sleeping().contains(id)
          && !nodes.outOfLayout(id);
    });
  }

  /** This NameNode's DataNodes as HDFS knows them (the placement policy reads what sleeps unseen from them). */
  public DatanodeManager dataNodes() {
    return nodes.dataNodes();
  }

  /**
   * The DataNodes outside the layout, each with why ({@link ChainMembership#outsideLayout}). Not synchronized:
   * {@code hdfs eafr status} never waits for a gear step.
   */
  public Map<String, String> outsideLayout() {
    return membership.outsideLayout();
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
    reflection.close();
  }

  static ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

}
