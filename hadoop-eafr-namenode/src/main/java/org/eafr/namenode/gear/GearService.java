package org.eafr.namenode.gear;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.ReplicaMap;
import org.eafr.namenode.cluster.ServerRoles;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearReason;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.shift.FailedDataNodes;
import org.eafr.placement.gear.shift.GearShift;
import org.eafr.placement.gear.shift.ShiftAnswer;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.gear.shift.ShiftPorts;
import org.eafr.placement.gear.shift.ShiftSettings;
import org.eafr.placement.gear.shift.ShiftState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shifts gears in a running NameNode: the core's {@link GearShift} (the protocol the simulator runs: phases,
 * availability checks, power verification, reflection, waking out of turn, cancel) stepped every
 * {@code eafr.gear.step.ms} through HDFS's ports ({@link HdfsShiftCluster}, {@link HdfsPowerPort},
 * {@link HdfsMaintenance}, {@link HdfsMovePort}, {@link HdfsShiftStore}: the state in the namespace, so a restarted or
 * newly active NameNode resumes a shift under way). Around it, what only a NameNode has: the expansion chain's
 * membership ({@link ChainMembership}: fixed, grown and retired here; the machine follows the layout in force), safe
 * mode (every command refused; the machine only powers on the recovery groups of dead DataNodes,
 * {@link GearShift#stepReadOnly}, so HDFS finds the replicas it waits for), the standby (follows the persisted state,
 * its sleeping DataNodes in maintenance there too, so a failover re-replicates nothing), quarantines, the admin
 * commands' exceptions and the log of each transition.
 */
public final class GearService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GearService.class);
  /** A power action the manager has not answered this long is looked at again (it times its own actions out). */
  private static final long POWER_REPLY_MILLIS = 3_600_000;
  /** A reflection move unanswered this long is tried again (replaceBlock is throttled by dfs.datanode.balance.*). */
  private static final long MOVE_REPLY_MILLIS = 600_000;

  private final NameNode nameNode;
  private final HdfsMaintenance maintenance;
  private final GearRuntime gears;
  private final GearStore store;
  private final QuarantineSync quarantines;
  private final ScheduledExecutorService scheduler;
  private final GearDataNodes nodes;
  private final ChainMembership membership;
  private final HdfsShiftCluster cluster;
  private final HdfsShiftStore shiftStore;
  private final HdfsMovePort moves;
  private final ShiftPorts ports;
  /** The machine on the active NameNode once a layout exists; null on a standby and before the chain is fixed. */
  private GearShift shift;
  /** A reader got a block with no location: look for wakes at once (set from IPC threads, cleared by a step). */
  private final AtomicBoolean readAsked = new AtomicBoolean();
  private boolean wasActive;
  /** What the shift under way waits for (a DataNode and why), for {@code hdfs eafr status}; null when steady. */
  private volatile String blockedBy;
  /** What safe mode's read-only steps power on, by the dead DataNode it is for, for {@code hdfs eafr status}. */
  private volatile Map<String, Set<String>> poweredInSafeMode = Map.of();
  /** The other sleepers safe mode's read-only steps power on once it outlasted the recovery groups' reports. */
  private volatile Set<String> poweredForSafeMode = Set.of();
  private final ShiftLog log;

  private GearService(NameNode nameNode, GearRuntime gears, ServerRoles roles, ReplicaMap replicaMap) {
    this.nameNode = nameNode;
    this.maintenance = new HdfsMaintenance(nameNode, roles);
    this.gears = gears;
    this.store = new GearStore(nameNode, gears.settings().stateDir());
    this.quarantines = new QuarantineSync(store, gears::power);
    this.nodes = new GearDataNodes(nameNode, gears);
    this.membership = new ChainMembership(gears, nodes, this::persist);
    this.scheduler = Executors.newSingleThreadScheduledExecutor(daemon("eafr-gears"));
    this.cluster = new HdfsShiftCluster(nameNode, gears, nodes, replicaMap);
    this.shiftStore = new HdfsShiftStore(nameNode, gears, store, (path, id, replication, holders) -> {
      GearedLayout layout = gears.layout().orElseThrow();
      return OwedReflection.homesOf(layout, nodes.serversOn(layout), path, id, replication, holders);
    });
    this.moves = new HdfsMovePort(nameNode, gears, nodes, () -> gears.layout().orElseThrow().chain(),
        System::currentTimeMillis);
    this.log = new ShiftLog(gears.counters());
    this.ports = new ShiftPorts(cluster, new HdfsPowerPort(gears, nodes), maintenance, moves, shiftStore, log)
        .namingBy(id -> nodes.nameOf(id).toString());
  }

  /**
   * Loads the persisted state and starts stepping every {@code eafr.gear.step.ms}; reflection and waking on demand
   * wait until {@code replicaMap} has settled.
   */
  public static GearService start(NameNode nameNode, GearRuntime gears, ServerRoles roles,
      ReplicaMap replicaMap) {
    GearService service = new GearService(nameNode, gears, roles, replicaMap);
    try {
      service.store.read().ifPresent(state -> {
        service.maintenance.putInForce(gears, state);
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
    if (!active || !wasActive) { // a standby follows; a NameNode just made active resumes from the latest state
      Optional<GearRecord> persisted = store.read();
      if (persisted.isPresent() && !persisted.get().equals(gears.state())) {
        maintenance.putInForce(gears, persisted.get());
      }
      shift = null;
      poweredInSafeMode = Map.of();
      poweredForSafeMode = Set.of();
      shiftStore.recount();
      wasActive = active;
      if (!active) {
        quarantines.step(false);
        return;
      }
      cluster.becameActive(System.currentTimeMillis()); // its unregistered DataNodes count dead a dead interval on
    }
    if (nameNode.getNamesystem().isInSafeMode()) {
      GearShift machine = machine();
      if (machine != null) { // the namespace is read-only: only power, for the replicas HDFS waits for
        machine.stepReadOnly(System.currentTimeMillis());
        poweredInSafeMode = machine.poweredReadOnly();
        poweredForSafeMode = machine.poweredForSafeMode();
      }
      return;
    }
    quarantines.step(true);
    membership.step();
    gears.takeOwedPaths().forEach(shiftStore::owePath);
    GearShift machine = machine();
    if (machine != null) {
      if (readAsked.getAndSet(false)) {
        cluster.readFoundNoReplica();
      }
      ShiftState before = machine.state();
      machine.step(System.currentTimeMillis());
      poweredInSafeMode = machine.poweredReadOnly(); // empty: the step's wake took them over
      poweredForSafeMode = machine.poweredForSafeMode();
      log(before, machine);
    }
    gears.counters().owedFiles.set(shiftStore.owedCount());
  }

  /** The machine, resumed from the namespace on the layout in force; null while there is none. */
  private GearShift machine() {
    if (gears.layout().isEmpty()) {
      return null;
    }
    if (shift == null) {
      shift = GearShift.resume(() -> gears.layout().orElseThrow(), ports, new ShiftSettings(
          gears.settings().reflectionBlocksPerStep(), POWER_REPLY_MILLIS, MOVE_REPLY_MILLIS,
          gears.settings().maintenanceStallMillis()),
          new GridReflectionGate(gears));
    }
    return shift;
  }

  /** Logs each transition ({@link ShiftLog}) and what the shift waits for, once per change. */
  private void log(ShiftState before, GearShift machine) {
    ShiftState after = machine.state();
    log.stepped(before, after, machine.lastNews());
    String waitsFor = machine.blockedBy().orElse(null);
    if (waitsFor != null && !waitsFor.equals(blockedBy)) {
      LOG.info("EAFR gears: the shift to gear {} ({}) waits for {}", after.target(), after.phase(), waitsFor);
    }
    blockedBy = waitsFor;
  }

  /** Refuses {@code command} while the settings build no layout ({@link ChainMembership#refuseWithoutLayout}). */
  public synchronized void refuseWithoutLayout(String command) {
    membership.refuseWithoutLayout(command);
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
    refuseOnStandby();
    refuseInSafeMode("gear " + requested);
    refuseWithoutLayout("gear " + requested);
    if (!gears.state().hasChain()) {
      GearedLayout.checkGear(membership.layoutBeforeChain(), requested); // a gear that does not exist fixes no chain
      membership.fixChain();
    }
    GearedLayout.checkGear(gears.layout().orElseThrow(), requested);
    ShiftAnswer answer = machine().request(requested, reason);
    if (!answer.accepted()) {
      LOG.warn("EAFR gears: {} (asked {})", answer.text(), GearShift.origin(reason));
      throw new IllegalStateException(answer.text());
    }
    LOG.info("EAFR gears: shift started, {}", answer.text());
    return answer.text();
  }

  /** The next gear up or down from the one in force (or under way). */
  public synchronized String requestRelative(int delta) throws IOException {
    refuseInSafeMode(delta > 0 ? "gear up" : "gear down");
    refuseWithoutLayout(delta > 0 ? "gear up" : "gear down");
    int from = gears.state().hasChain() ? gears.state().target() : membership.layoutBeforeChain().maximumGear();
    return requestGear(from + delta);
  }

  /**
   * {@code hdfs eafr gear cancel}: ends the shift under way (or the out-of-turn wake) where it stands, by the core's
   * rule ({@link GearShift#cancel}): a sleeping DataNode not running stays asleep in maintenance, every running one
   * leaves it, and the gear in force becomes the highest whose DataNodes are all awake. The files that owe reflection
   * moves stay recorded. Refused, changing nothing, on a standby and when nothing is under way.
   */
  public synchronized String cancel() throws IOException {
    refuseOnStandby();
    refuseInSafeMode("gear cancel");
    GearShift machine = machine();
    if (machine == null) {
      throw new IllegalStateException("'hdfs eafr gear cancel' refused: no shift is under way (no expansion chain"
          + " yet) and no DataNode is being woken; nothing to cancel");
    }
    ShiftAnswer answer = machine.cancel();
    if (!answer.accepted()) {
      throw new IllegalStateException(answer.text());
    }
    blockedBy = null;
    LOG.warn("EAFR gears: {}", answer.text());
    return answer.text();
  }

  private void refuseOnStandby() {
    if (!nameNode.isActiveState()) {
      throw new IllegalStateException("this NameNode is not active: ask the active NameNode");
    }
  }

  /** A shift is recorded in the namespace (and may fix the chain there), which safe mode keeps read-only. */
  private void refuseInSafeMode(String command) {
    if (nameNode.getNamesystem().isInSafeMode()) {
      throw new IllegalStateException(command + " refused: the NameNode is in safe mode (hdfs dfsadmin -safemode"
          + " get); ask again once it has left it");
    }
  }

  /** What the shift under way waits for, as {@code hdfs eafr status} shows it; empty when steady. */
  public Optional<String> blockedBy() {
    return gears.state().phase() == ShiftPhase.STEADY ? Optional.empty() : Optional.ofNullable(blockedBy);
  }

  /**
   * Puts a relayout's growth of the lowest gear to {@code primaries} in force: persisted, and the machine takes it with
   * the layout under this service's lock, so that no step sees the layout grown while its machine's state is not.
   */
  public synchronized void putGrowthInForce(int primaries) throws IOException {
    persist(gears.state().withPrimaries(primaries));
  }

  /**
   * Persists a record the chain's membership changed (fixed, grown, retired, host names learnt), puts it in force
   * here, and has the machine take its shift state and layout.
   */
  private void persist(GearRecord next) throws IOException {
    store.write(next);
    store.writeHome(gears.settings().layout(), next);
    maintenance.putInForce(gears, next);
    if (shift != null && gears.layout().isPresent()) {
      shift.follow();
    }
  }

  /**
   * The DataNodes safe mode's read-only steps power on (HDFS waits for the replicas they hold), each group by the dead
   * DataNode it is the recovery group of; empty once safe mode has ended and the wake out of turn took them over (then
   * they are waking), and when there are none. Not synchronized: {@code hdfs eafr status} never waits for a step.
   */
  public Map<String, Set<String>> poweredInSafeMode() {
    return poweredInSafeMode;
  }

  /**
   * The other sleepers safe mode's read-only steps power on because HDFS stayed in safe mode a dead interval after the
   * groups of {@link #poweredInSafeMode} had registered and reported; empty as it is.
   */
  public Set<String> poweredForSafeMode() {
    return poweredForSafeMode;
  }

  /**
   * The servers of {@code layout} that should be on and are dead at {@code now} (ms), by the core's rule
   * ({@link FailedDataNodes}) on this NameNode's facts: one never registered counts once HDFS's dead interval has
   * passed since this NameNode became active.
   */
  ActiveSet failed(GearedLayout layout, long now) {
    return FailedDataNodes.of(cluster, layout.chain(), gears.state().sleeping(), now);
  }

  /** When this NameNode became active as the gears count it ({@link HdfsShiftCluster#activeSinceMillis}). */
  long activeSinceMillis() {
    return cluster.activeSinceMillis();
  }

  /** HDFS's dead interval now ({@link HdfsShiftCluster#deadIntervalMillis}). */
  long deadIntervalMillis() {
    return cluster.deadIntervalMillis();
  }

  /** The DataNodes as the gears read them (the autopilot's servers on, and the namespace floor). */
  GearDataNodes nodes() {
    return nodes;
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
    moves.close();
  }

  static ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
