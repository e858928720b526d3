package org.eafr.placement.gear.shift;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.CleanupWork;
import org.eafr.placement.gear.GearController;
import org.eafr.placement.gear.GearDecision;
import org.eafr.placement.gear.GearFloor;
import org.eafr.placement.gear.GearReason;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.LoadSample;
import org.eafr.placement.gear.UnavailableBlock;

/**
 * The gear shift as a deterministic state machine (Rabbit, Amur et al., Sec. 3 gears and Sec. 3.5 availability;
 * SpringFS Sec. 4 passive migration; Accordion Sec. 3.4 reflection), driven by {@link #step(long)} and talking only
 * through {@link ShiftPorts}: no thread, no wall clock, no randomness. Every phase is persisted before it acts, so a
 * machine {@link #resume resumed} from the store after a restart or failover carries on mid-phase.
 * <ol>
 *   <li><b>Request</b> ({@link #request}): refused, naming why, when the gear does not exist, a shift is under way, or
 *       the core's {@link GearController#manual} finds a block that would keep no live replica.</li>
 *   <li><b>Down</b>: the leaving DataNodes (asleep in the target gear, not being woken) go into maintenance
 *       ({@link ShiftPhase#ENTERING_MAINTENANCE}); once each shows IN_MAINTENANCE the availability floor
 *       ({@link ShiftFloor}) runs again over the DataNodes staying on: a complete block with no replica there
 *       cancels the shift, a block being written only on leaving DataNodes holds it; else {@link ShiftPhase#POWERING_OFF}, each host behind the
 *       power-off guard ({@link PowerSteps}), then steady in the target gear.</li>
 *   <li><b>Up</b>: {@link ShiftPhase#POWERING_ON} (verified on), {@link ShiftPhase#REGISTERING} (registered and
 *       reported: a dead DataNode is never taken out of maintenance), then out of maintenance and
 *       {@link ShiftPhase#REFLECTING} the owed blocks ({@link ReflectionSteps}), then steady. While steady, reflection
 *       goes on in the background within the same budget (SpringFS Sec. 4's passive migration), so a block whose
 *       source or home was down during the pass still goes home once they are back.</li>
 *   <li><b>Out of turn</b>, beside any phase: {@link WakeSteps} finds groups to wake for a failure or a read with no
 *       live replica; they are powered on, registered and taken out of maintenance as a gear-up does.</li>
 *   <li><b>Cancel</b> ({@link #cancel}), by an operator: the shift ends where it stands ({@link ShiftCancel}).</li>
 *   <li><b>Growth</b> ({@link #grow}), between shifts: DataNodes registered since the chain was fixed are appended.</li>
 *   <li><b>Standby</b> ({@link #follow}): a standby NameNode's machine only takes the persisted state, its sleeping
 *       DataNodes in maintenance there too, and acts once it becomes active.</li>
 * </ol>
 *
 * <p>Worked example ({@code GearShiftTest}): 12 DataNodes s0..s11, equal-work with p = 4, g = 2, r = 3 (gears 0..4
 * keep 4, 6, 8, 10, 12 on). {@code request(0)} in gear 4 puts the 8 non-primaries into maintenance; step 1 (they show
 * IN_MAINTENANCE) passes the check and enters POWERING_OFF; step 2 sends 8 power-offs; step 3 reads their DONE replies
 * and reaches gear 0, steady, 8 sleeping.
 */
public final class GearShift {
  private GearedLayout layout;
  /** The host's layout in force, asked at every call; null when the machine owns its layout ({@link #grow}). */
  private final Supplier<GearedLayout> layouts;
  private final ShiftPorts ports;
  private final PowerSteps power;
  private final ReflectionSteps reflection;
  private final WakeSteps wakes;
  private final ShiftBlocker blocker;
  private final ReflectionGate gate;
  private final MaintenanceWait maintenanceWait;
  private ShiftState state;
  private String lastNews = "";
  /** The time of the last {@link #step}: a request counts failed DataNodes as of then. */
  private long lastStep = Long.MIN_VALUE;

  private GearShift(GearedLayout layout, Supplier<GearedLayout> layouts, ShiftPorts ports, ShiftSettings settings,
      ShiftState state, ReflectionGate gate) {
    this.layout = layout;
    this.layouts = layouts;
    this.ports = ports;
    this.power = new PowerSteps(ports.cluster::dataNode, GuardedPower.of(ports.power, ports.cluster),
        settings.powerTimeoutMillis());
    this.reflection = new ReflectionSteps(ports, layout.chain(), settings);
    this.wakes = new WakeSteps(ports, layout);
    this.blocker = new ShiftBlocker(ports.cluster::dataNode, power::why, ports.names);
    this.gate = gate;
    this.maintenanceWait = new MaintenanceWait(settings.maintenanceStallMillis(), ports.names);
    this.state = state;
  }

  /**
   * The machine resumed from {@code ports}' store (steady in the highest gear when nothing is stored), with the
   * sleeping DataNodes put (back) into maintenance and the others out of it.
   */
  public static GearShift resume(GearedLayout layout, ShiftPorts ports, ShiftSettings settings) {
    return resume(layout, ports, settings, ReflectionGate.OPEN);
  }

  /** The same, with reflection held whenever {@code gate} says so. */
  public static GearShift resume(GearedLayout layout, ShiftPorts ports, ShiftSettings settings,
      ReflectionGate gate) {
    return resume(layout, null, ports, settings, gate);
  }

  /**
   * The machine resumed on the layout its host keeps ({@code layouts}, asked at every call): a host that fixes,
   * extends or re-lays out the chain itself between shifts (the NameNode's chain membership, relayout grow changing
   * p) persists the state that goes with the new layout through the store and calls {@link #follow}; the machine
   * plans its wakes and moves on the layout in force from then on. {@link #grow} is the host's business then.
   */
  public static GearShift resume(Supplier<GearedLayout> layouts, ShiftPorts ports, ShiftSettings settings,
      ReflectionGate gate) {
    return resume(layouts.get(), layouts, ports, settings, gate);
  }

  private static GearShift resume(GearedLayout layout, Supplier<GearedLayout> layouts, ShiftPorts ports,
      ShiftSettings settings, ReflectionGate gate) {
    ShiftState stored = ports.store.load().orElse(ShiftState.steady(layout.maximumGear()));
    GearedLayout.checkGear(layout, stored.target());
    GearShift shift = new GearShift(layout, layouts, ports, settings, stored, gate);
    Set<String> awake = new TreeSet<>(ActiveSet.all(layout.chain()).ids());
    awake.removeAll(stored.sleeping());
    ports.maintenance.leave(awake);
    ports.maintenance.enter(stored.sleeping());
    return shift;
  }

  public ShiftState state() {
    return state;
  }

  /** The last thing an operator should read: a shift reached, cancelled, or waiting, and why. */
  public String lastNews() {
    return lastNews;
  }

  /** What the shift under way waits for ({@link ShiftBlocker}); empty when steady or nothing holds it. */
  public Optional<String> blockedBy() {
    boolean down = state.phase() == ShiftPhase.ENTERING_MAINTENANCE || state.phase() == ShiftPhase.POWERING_OFF;
    return blocker.of(state.phase(), down ? leaving() : wakingForGear());
  }

  /** A gear asked by an operator; refused with the reason, nothing changed. */
  public ShiftAnswer request(int requested) {
    return request(requested, GearReason.MANUAL);
  }

  /**
   * A gear asked by an operator ({@link GearReason#MANUAL}) or by the gear controller in auto mode (its reason): every
   * check applies alike; the answer names who asked ({@link #origin}).
   */
  public ShiftAnswer request(int requested, GearReason reason) {
    followLayout();
    Optional<ShiftAnswer> early = ShiftRequest.before(layout, state, requested, gate);
    if (early.isPresent()) {
      if (!early.get().accepted()) {
        ports.events.shiftRefused(early.get().text());
      }
      return early.get();
    }
    GearDecision decision;
    try {
      decision = controller().manual(requested, liveInService(), wakes.failed(state, lastStep), floor());
    } catch (IllegalStateException refused) {
      ports.events.shiftRefused(refused.getMessage());
      return ShiftAnswer.refused(refused.getMessage());
    }
    persist(ShiftRequest.start(layout, state, requested, decision, this::outOfLayout));
    ports.events.shiftStarted(requested, decision.describe(origin(reason)));
    return ShiftAnswer.accepted(decision.describe(origin(reason)));
  }

  /**
   * An operator's cancel: ends the shift under way (or the out-of-turn wake) where it stands ({@link ShiftCancel}):
   * the sleeping DataNodes not running (off, still booting, or down with their hosts' state unknown) stay asleep in
   * maintenance: out of it HDFS would re-replicate all they hold, and no gear-up would power them on again, so what
   * is owed to them would stay owed. The running ones leave it. What is owed stays recorded and is reflected once
   * its homes are on. Refused, changing nothing, when nothing is under way.
   */
  public ShiftAnswer cancel() {
    followLayout();
    if (state.phase() == ShiftPhase.STEADY && state.waking().isEmpty()) {
      return ShiftAnswer.refused("'hdfs eafr gear cancel' refused: no shift is under way (gear " + state.gear()
          + ", steady) and no DataNode is being woken; nothing to cancel");
    }
    ShiftCancel.Outcome outcome = ShiftCancel.of(layout, state, id -> ports.cluster.dataNode(id).alive(),
        this::outOfLayout);
    power.forget(state.sleeping());
    persist(outcome.next());
    lastNews = outcome.answer(ports.store.owedCount(), ports.store.owedUnit());
    return ShiftAnswer.accepted(lastNews);
  }

  /** Who asked for a shift, as its answer says: MANUAL (an operator), or AUTO with the controller's reason. */
  public static String origin(GearReason reason) {
    return reason == GearReason.MANUAL ? "MANUAL" : "AUTO, " + reason;
  }

  /**
   * On a standby: takes the state the active machine persisted, with its sleeping DataNodes in maintenance here too
   * (so a failover re-replicates nothing); sends no power command and moves nothing.
   */
  public void follow() {
    followLayout();
    ports.store.load().filter(stored -> !stored.equals(state)).ifPresent(this::apply);
  }

  /**
   * The expansion chain grew: {@code longer} is the layout on the chain with DataNodes appended that registered since
   * it was fixed (every server keeps its position, gear group and recovery group, so no block moves). Only between
   * shifts, nothing being woken: a shift's leaving and waking sets are those of the chain it started on. The highest
   * gear stays the highest, so the newcomers are on; in a lower gear they stay on until the next shift down. Refused,
   * changing nothing, during a shift or when {@code longer} does not extend the chain.
   */
  public ShiftAnswer grow(GearedLayout longer) {
    if (layouts != null) {
      return ShiftAnswer.refused("the chain is the host's: it persists the grown state and calls follow()");
    }
    if (state.phase() != ShiftPhase.STEADY || !state.waking().isEmpty()) {
      return ShiftAnswer.refused("the chain grows between shifts: " + state + " now; it grows once steady with"
          + " nothing being woken");
    }
    List<String> ids = ActiveSet.all(layout.chain()).ids();
    List<String> longerIds = ActiveSet.all(longer.chain()).ids();
    if (longerIds.size() <= ids.size() || !longerIds.subList(0, ids.size()).equals(ids)) {
      return ShiftAnswer.refused("layout " + longer.name() + " on " + longerIds + " does not extend the chain " + ids
          + ": every server must keep its position");
    }
    ShiftState grown = state.grown(layout.maximumGear(), longer.maximumGear());
    int gear = grown.gear();
    adopt(longer);
    persist(grown);
    lastNews = "expansion chain extended by " + (longerIds.size() - ids.size()) + " DataNodes to "
        + longerIds.size() + " (" + (longer.maximumGear() + 1) + " gears, gear " + gear + " in force); no block moves";
    return ShiftAnswer.accepted(lastNews);
  }

  /** Takes the host's layout when it changed ({@link #resume(Supplier, ShiftPorts, ShiftSettings, ReflectionGate)}). */
  private void followLayout() {
    if (layouts != null) {
      GearedLayout now = layouts.get();
      if (now != layout) {
        adopt(now);
      }
    }
  }

  /** Plans wakes and moves on {@code next} from now on; moves in flight carry on. */
  private void adopt(GearedLayout next) {
    layout = next;
    reflection.chain(next.chain());
    wakes.layout(next);
  }

  /** A block was written; when a home slept, what it is owed is persisted at once. */
  public void written(String blockId, BlockPlacement placement) {
    if (!placement.owesMoves()) {
      return;
    }
    List<String> homes = new ArrayList<>();
    for (int i = 0; i < placement.size(); i++) {
      homes.add(layout.chain().id(placement.home(i)));
    }
    for (int missing : placement.missingHomes()) {
      homes.add(layout.chain().id(missing));
    }
    ports.store.owe(new OwedBlock(blockId, homes.size(), homes));
  }

  /** A read found block {@code blockId} with no live replica; the next step looks for a group to wake. */
  public void readFoundNoReplica(String blockId) {
    wakes.readFoundNoReplica(blockId);
  }

  /**
   * One step at {@code now} (ms): wakes out of turn, then the phase under way; neither waking nor reflection until the
   * block map has settled ({@link ShiftCluster#settled}).
   */
  public void step(long now) {
    followLayout();
    lastStep = now;
    Set<String> wake = ports.cluster.settled() ? wakes.find(state, now) : Set.of();
    if (!wake.isEmpty()) {
      persist(state.withWaking(wake));
      lastNews = "waking " + wake.size() + " DataNodes out of turn: " + wake;
      Set<String> forBlocks = new TreeSet<>(wake);
      forBlocks.removeAll(wakes.lastForFailure());
      forBlocks.removeAll(wakes.lastAnnounced()); // powered on and announced by stepReadOnly already
      if (!wakes.lastForFailure().isEmpty()) {
        ports.events.wakeStarted(wakes.lastForFailure(), wakes.lastFailed());
      }
      if (!forBlocks.isEmpty()) {
        ports.events.wakeStarted(forBlocks, Map.of());
      }
    }
    advanceWaking(now);
    advance(now);
  }

  /**
   * A step at {@code now} (ms) while the host cannot persist the state (a NameNode in safe mode keeps the namespace
   * read-only): nothing is written, no phase advances, no DataNode enters or leaves maintenance. Only the recovery
   * group of each DataNode that should be on and is dead ({@link WakeSteps#readOnly}: the same dead rule and recovery
   * group as {@link #step}'s wakes) is powered on, announced once per dead DataNode
   * ({@link ShiftEvents#wakeStartedReadOnly}) and verified on as any power command is (sent again only after a
   * failure or a timeout), so the other replicas of its blocks register and are reported. The first {@link #step}
   * after it wakes the same group as any wake out of turn (persisted, registered, out of maintenance) without
   * announcing it again. When the host is still read-only HDFS's dead interval after those groups registered and
   * reported, every other sleeper is powered on as well, announced once ({@link ShiftEvents#wakeAllReadOnly}), and
   * woken by that first step too.
   *
   * <p>Worked example ({@code GearShiftReadOnlyWakeTest}): gear 0, primary s0 dead for good across a restart, active
   * since 1,000 ms with a dead interval of 40,000 ms: at 40,999 nothing is powered; at 41,000 s4, s6, s8, s10 are
   * powered on (4 commands, announced once for "s0 dead (not registered)"), the state still steady with 8 asleep and
   * nothing woken; further read-only steps send nothing more; the first step wakes the same 4 and announces nothing.
   */
  public void stepReadOnly(long now) {
    followLayout();
    lastStep = now;
    power.reach(wakes.readOnly(state, now), Power.ON, now);
  }

  /**
   * The DataNodes {@link #stepReadOnly} powers on, by the dead DataNode whose recovery group they are; empty once a
   * {@link #step} has taken them into its wake (then {@link ShiftState#waking} shows them) and when none were.
   */
  public Map<String, Set<String>> poweredReadOnly() {
    return wakes.poweredReadOnly();
  }

  /**
   * The other sleepers {@link #stepReadOnly} powers on because the host stayed read-only HDFS's dead interval after
   * the recovery groups it powered on had registered and reported; empty once a {@link #step} has taken them over.
   */
  public Set<String> poweredForSafeMode() {
    return wakes.poweredForSafeMode();
  }

  /**
   * The DataNodes being woken out of turn: on, registered and reported, then out of maintenance. One HDFS decommissions
   * (or has) is neither powered on nor waited for, as in a gear-up ({@link ShiftSets#wakingForGear}).
   */
  private void advanceWaking(long now) {
    Set<String> inLayout = new TreeSet<>(state.waking());
    inLayout.removeIf(this::outOfLayout);
    if (!state.waking().isEmpty() && power.reach(inLayout, Power.ON, now) && allRegistered(inLayout)) {
      Set<String> woken = state.waking();
      lastNews = woken.size() + " DataNodes woken out of turn: " + woken;
      persist(state.woken()); // out of maintenance first: what the event tells is then true
      ports.events.woken(woken);
    }
  }

  private void advance(long now) {
    switch (state.phase()) {
      case ENTERING_MAINTENANCE:
        checkBeforePowerOff(now);
        break;
      case POWERING_OFF:
        boolean off = power.reach(leaving(), Power.OFF, now);
        String refusal = power.lastRefusal(); // why a host is not switched off (or is counted asleep without it)
        lastNews = refusal.isEmpty() ? lastNews : refusal;
        if (off) {
          lastNews = "gear " + state.target() + " reached; " + leaving().size() + " DataNodes asleep";
          persist(state.reached());
        } else {
          String why = maintenanceWait.expired(state, leaving(), ports.cluster, now);
          if (why != null) { // as an operator's cancel: a host already off stays asleep in maintenance
            lastNews = why + "; " + cancel().text();
            ports.events.shiftRefused(lastNews);
          }
        }
        break;
      case POWERING_ON:
        if (power.reach(wakingForGear(), Power.ON, now)) {
          persist(state.withPhase(ShiftPhase.REGISTERING));
        }
        break;
      case REGISTERING:
        if (allRegistered(wakingForGear())) {
          Set<String> sleeping = new TreeSet<>(state.sleeping());
          sleeping.removeAll(wakingForGear());
          persist(state.shifting(state.target(), ShiftPhase.REFLECTING, sleeping));
        }
        break;
      case REFLECTING:
        if (!ports.cluster.settled()) {
          lastNews = "gear " + state.target() + ": reflection waits until every DataNode has reported its blocks";
        } else if (!gate.mayReflect(ports.store.owedCount())) {
          lastNews = "gear " + state.target() + ": reflection held by its gate; " + ports.store.owedCount()
              + " " + ports.store.owedUnit() + " owed";
        } else if (!reflection.step(now)) {
          lastNews = "gear " + state.target() + " reached; reflection complete";
          persist(state.reached());
        }
        break;
      default:
        if (ports.cluster.settled() && ports.store.owedCount() > 0 && gate.mayReflect(ports.store.owedCount())) {
          reflection.step(now); // what a pass could not move (its source or home was down) goes home later
        }
        break;
    }
  }

  /**
   * Once every leaving DataNode shows IN_MAINTENANCE, the availability floor ({@link ShiftFloor}) over them and those
   * being woken out of turn (not in service yet): cancel for a complete block, wait for one being written, or go on to
   * power off. A block that lost its last live replica meanwhile cancels the gear-down even when a wake for it is
   * under way, as an operator reads it: the shift did not reach its gear safely. Cancelled too when they are not all
   * IN_MAINTENANCE and none came closer to it for {@link MaintenanceWait}'s bound (in POWERING_OFF as well).
   */
  private void checkBeforePowerOff(long now) {
    Set<String> leaving = leaving();
    String why = maintenanceWait.expired(state, leaving, ports.cluster, now); // every step: it sees progress
    if (!ShiftSets.allInMaintenance(leaving, ports.cluster::dataNode)) {
      if (why != null) {
        cancelDown(leaving, why);
      }
      return;
    }
    Set<String> changing = new TreeSet<>(leaving); // and those being woken: in service only once registered
    changing.addAll(state.waking());
    ShiftFloor.Gaps gaps = ShiftFloor.check(ports.cluster, changing, id -> staysOn(id, leaving));
    if (gaps.complete().isPresent()) {
      cancelDown(leaving, "gear-down to " + state.target() + " cancelled after maintenance: "
          + gaps.complete().get().message());
      return;
    }
    if (gaps.beingWritten().isPresent()) {
      lastNews = "gear-down to " + state.target() + " waits before power-off: " + gaps.beingWritten().get().message()
          + " (being written)";
      return;
    }
    persist(state.withPhase(ShiftPhase.POWERING_OFF));
  }

  /** Gives the gear-down up for {@code why}: steady in the gear in force, the running leaving DataNodes back. */
  private void cancelDown(Set<String> leaving, String why) {
    Set<String> running = new TreeSet<>(leaving);
    running.removeIf(id -> !ports.cluster.dataNode(id).alive());
    ShiftState cancelled = state.cancelled(running);
    lastNews = why + "; " + (state.sleeping().size() - cancelled.sleeping().size()) + " DataNodes out of maintenance";
    ports.events.shiftRefused(lastNews);
    persist(cancelled);
  }

  private boolean staysOn(String id, Set<String> leaving) {
    return !leaving.contains(id) && ports.cluster.dataNode(id).liveInService();
  }

  private boolean allRegistered(Set<String> ids) {
    return ShiftSets.allRegistered(ids, ports.cluster::dataNode);
  }

  /** DataNodes asleep or going to sleep that the target gear does not keep on ({@link ShiftSets#leaving}). */
  Set<String> leaving() {
    return ShiftSets.leaving(layout, state, this::outOfLayout);
  }

  /** Sleeping DataNodes the target gear keeps on ({@link ShiftSets#wakingForGear}). */
  private Set<String> wakingForGear() {
    return ShiftSets.wakingForGear(layout, state, this::outOfLayout);
  }

  /** HDFS decommissions the DataNode or has: a shift neither waits for it nor powers it. */
  private boolean outOfLayout(String id) {
    return ports.cluster.dataNode(id).admin().decommission();
  }

  /** Persists {@code next} first, then puts it in force. */
  private void persist(ShiftState next) {
    ports.store.save(next);
    apply(next);
  }

  /** Puts {@code next} in force: its sleeping DataNodes into maintenance and the woken ones out. */
  private void apply(ShiftState next) {
    Set<String> left = new TreeSet<>(state.sleeping());
    left.removeAll(next.sleeping());
    Set<String> entered = new TreeSet<>(next.sleeping());
    entered.removeAll(state.sleeping());
    state = next;
    if (!left.isEmpty()) {
      ports.maintenance.leave(left);
    }
    if (!entered.isEmpty()) {
      ports.maintenance.enter(entered);
    }
  }

  private ActiveSet liveInService() {
    List<String> live = new ArrayList<>();
    for (String id : ActiveSet.all(layout.chain()).ids()) {
      if (ports.cluster.dataNode(id).liveInService()) {
        live.add(id);
      }
    }
    return ActiveSet.ofIds(layout.chain(), live);
  }

  private GearController controller() {
    return new GearController(layout, new LoadSample(1, 1, 1, 1), 1.0, 0, 0, 0, state.gear(),
        Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
  }

  /**
   * The controller's floor: a replica counts on a DataNode of the set that is alive and in service now; the blocks
   * checked are those on the running DataNodes outside it ({@link ShiftFloor}).
   */
  private GearFloor floor() {
    return new GearFloor() {
      @Override
      public CleanupWork cleanupFor(ActiveSet staysOn) {
        return CleanupWork.none();
      }

      @Override
      public Optional<UnavailableBlock> firstUnavailable(ActiveSet staysOn) {
        Predicate<String> kept = id -> staysOn.contains(id) && ports.cluster.dataNode(id).liveInService();
        return ShiftFloor.firstComplete(ports.cluster, ActiveSet.all(layout.chain()).ids(), kept);
      }
    };
  }
}
