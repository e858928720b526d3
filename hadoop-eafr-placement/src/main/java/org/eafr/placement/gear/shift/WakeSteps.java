package org.eafr.placement.gear.shift;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.SleepingHomes;
import org.eafr.placement.gear.WakePlanner;

/**
 * Finds the sleeping DataNodes to wake out of turn (Rabbit Sec. 3.5, decided by the core's {@link WakePlanner}): the
 * recovery group of a DataNode that should be on and died (or never registered within HDFS's dead interval of this
 * NameNode becoming active: {@link #failed}) or went stale (no heartbeat for the stale interval, so a
 * failed primary's group wakes without waiting the minutes HDFS takes to declare it dead; when more than half of the
 * DataNodes that should be on are failed or stale at once, as after a long pause of the NameNode itself, only the dead
 * count), and the smallest group holding a block a read found with no
 * live replica or that the file system lists with none ({@link ShiftCluster#blocksWithoutLiveReplica}; when no
 * holder it knows sleeps, as after a restart while the groups slept, among the homes the layout gives its holders:
 * {@link SleepingHomes}). What it finds is persisted as the state's waking set by the caller, and woken as a gear-up wakes.
 */
final class WakeSteps {
  private final ShiftPorts ports;
  private GearedLayout layout;
  private ExpansionChain chain;
  private WakePlanner planner;
  private final Set<String> readsWithoutReplica = new TreeSet<>();
  private Set<String> failedBefore = new HashSet<>();
  /** The DataNodes the last {@link #find} woke for failed DataNodes' recovery groups (the rest it woke for blocks). */
  private Set<String> lastForFailure = Set.of();
  /** The failed DataNodes whose recovery groups the last {@link #find} woke, each "dead" or "stale". */
  private Map<String, String> lastFailed = Map.of();
  /**
   * The dead DataNodes whose recovery groups {@link #readOnly} powered on (and announced), each with the group's
   * sleepers; the next {@link #find} wakes them as usual without announcing them again.
   */
  private final Map<String, Set<String>> poweredReadOnly = new TreeMap<>();
  /** When every DataNode {@link #readOnly} powered on was first seen registered and reported; -1 while one is not. */
  private long groupsReportedAt = -1;
  /**
   * The sleepers {@link #readOnly} powered on because the host stayed read-only a dead interval after the recovery
   * groups reported (blocks offloaded outside them keep HDFS in safe mode); the next {@link #find} wakes them too.
   */
  private final Set<String> poweredForSafeMode = new TreeSet<>();
  /** Of what the last {@link #find} answered, the DataNodes {@link #readOnly} had powered on and announced already. */
  private Set<String> lastAnnounced = Set.of();
  /** The sleeping set {@link #asleep} last translated, and its positions (a step reads a state many times). */
  private Set<String> asleepIds;
  private ActiveSet asleep;
  /** The state {@link #on} last answered for, and its answer. */
  private ShiftState onState;
  private ActiveSet onSet;

  WakeSteps(ShiftPorts ports, GearedLayout layout) {
    this.ports = ports;
    layout(layout);
  }

  /** The chain grew ({@link GearShift#grow}): wakes are planned on the longer layout from now on. */
  void layout(GearedLayout longer) {
    this.layout = longer;
    this.chain = longer.chain();
    this.planner = new WakePlanner(longer);
    this.asleepIds = null;
    this.onState = null;
  }

  /** A read found block {@code blockId} with no live replica: the next step looks for a group to wake for it. */
  void readFoundNoReplica(String blockId) {
    readsWithoutReplica.add(blockId);
  }

  /** Sleeping DataNodes to wake at {@code now} (none already waking); empty when nothing needs waking. */
  Set<String> find(ShiftState state, long now) {
    ActiveSet on = on(state);
    ActiveSet failed = failedOrStale(state, now);
    Set<String> wake = new TreeSet<>();
    Map<String, String> why = new TreeMap<>();
    Set<String> announced = new TreeSet<>();
    for (int f = failed.next(0); f >= 0; f = failed.next(f + 1)) {
      String id = chain.id(f);
      if (!failedBefore.contains(id)) {
        Set<String> group = sleepersOfGroup(f, on, failed, state);
        if (poweredReadOnly.containsKey(id)) {
          announced.addAll(group);
        } else if (!group.isEmpty()) {
          wake.addAll(group);
          why.put(id, why(ports.cluster.dataNode(id)));
        }
      }
    }
    poweredReadOnly.clear(); // every one dead now is woken or was before; one alive again needs nothing
    announced.addAll(poweredForSafeMode);
    poweredForSafeMode.clear();
    groupsReportedAt = -1;
    failedBefore = new HashSet<>(failed.ids());
    Set<String> forFailure = new TreeSet<>(wake);
    wake.addAll(announced);
    for (String blockId : readsWithoutReplica) {
      ports.cluster.block(blockId).ifPresent(block -> wake.addAll(forLostBlock(block, on, failed, state.sleeping())
          .ids()));
    }
    readsWithoutReplica.clear();
    if (!state.sleeping().isEmpty()) {
      for (ReplicatedFile block : ports.cluster.blocksWithoutLiveReplica()) {
        wake.addAll(forLostBlock(block, on, failed, state.sleeping()).ids());
      }
    }
    wake.retainAll(state.sleeping());
    wake.removeAll(state.waking());
    forFailure.retainAll(wake);
    announced.retainAll(wake);
    announced.removeAll(forFailure);
    lastForFailure = forFailure;
    lastFailed = forFailure.isEmpty() ? Map.of() : why;
    lastAnnounced = announced;
    return wake;
  }

  /**
   * While the state cannot be persisted (the host's store is read-only): the sleepers to power on, the recovery
   * groups of the DataNodes that should be on and are dead at {@code now} ({@link #failed}; a stale one is not, nor
   * is a block: both wait for a step that can persist). Each dead DataNode is announced once
   * ({@link ShiftEvents#wakeStartedReadOnly}); one alive again is forgotten, its group left as it is.
   */
  Set<String> readOnly(ShiftState state, long now) {
    ActiveSet on = on(state);
    ActiveSet failed = failed(state, now);
    poweredReadOnly.keySet().retainAll(failed.ids());
    Set<String> wake = new TreeSet<>();
    Map<String, String> why = new TreeMap<>();
    for (int f = failed.next(0); f >= 0; f = failed.next(f + 1)) {
      String id = chain.id(f);
      if (!poweredReadOnly.containsKey(id) && !failedBefore.contains(id)) {
        Set<String> group = sleepersOfGroup(f, on, failed, state);
        poweredReadOnly.put(id, group);
        if (!group.isEmpty()) {
          wake.addAll(group);
          why.put(id, why(ports.cluster.dataNode(id)));
        }
      }
    }
    if (!wake.isEmpty()) {
      ports.events.wakeStartedReadOnly(wake, why);
    }
    Set<String> powered = new TreeSet<>();
    poweredReadOnly.values().forEach(powered::addAll);
    powerAllWhenStillReadOnly(state, powered, now);
    powered.addAll(poweredForSafeMode);
    return powered;
  }

  /**
   * Once every DataNode of the recovery groups {@code powered} is registered and reported, and the host is still
   * read-only HDFS's dead interval later (blocks offloaded outside those groups, written while their homes slept, keep
   * HDFS below its safe-mode threshold), every other sleeper is powered on too, announced once
   * ({@link ShiftEvents#wakeAllReadOnly}): waking is never unsafe, and only it lets HDFS leave safe mode by itself.
   */
  private void powerAllWhenStillReadOnly(ShiftState state, Set<String> powered, long now) {
    if (!poweredForSafeMode.isEmpty()) {
      return;
    }
    if (powered.isEmpty()
        || !powered.stream().map(ports.cluster::dataNode).allMatch(view -> view.alive() && view.reported())) {
      groupsReportedAt = -1;
      return;
    }
    if (groupsReportedAt < 0) {
      groupsReportedAt = now;
    }
    long waited = now - groupsReportedAt;
    if (waited >= ports.cluster.deadIntervalMillis()) {
      poweredForSafeMode.addAll(state.sleeping());
      poweredForSafeMode.removeAll(state.waking());
      poweredForSafeMode.removeAll(powered);
      if (!poweredForSafeMode.isEmpty()) {
        ports.events.wakeAllReadOnly(new TreeSet<>(poweredForSafeMode), waited);
      }
    }
  }

  /** The sleepers {@link #readOnly} powered on for safe mode outlasting the recovery groups' reports; else empty. */
  Set<String> poweredForSafeMode() {
    return Set.copyOf(poweredForSafeMode);
  }

  /**
   * What {@link #readOnly} has powered on and the next {@link #find} has not yet woken: each dead DataNode with the
   * sleepers of its recovery group powered on for it (one whose group was all awake is left out).
   */
  Map<String, Set<String>> poweredReadOnly() {
    Map<String, Set<String>> powered = new TreeMap<>();
    poweredReadOnly.forEach((dead, group) -> {
      if (!group.isEmpty()) {
        powered.put(dead, Set.copyOf(group));
      }
    });
    return powered;
  }

  /** The recovery group of the failed DataNode at chain position {@code f} that sleeps and is not being woken. */
  private Set<String> sleepersOfGroup(int f, ActiveSet on, ActiveSet failed, ShiftState state) {
    Set<String> group = new TreeSet<>(planner.forFailure(f, on, failed).ids());
    group.retainAll(state.sleeping());
    group.removeAll(state.waking());
    return group;
  }

  /** Of what the last {@link #find} answered, the DataNodes woken for failed DataNodes' recovery groups. */
  Set<String> lastForFailure() {
    return lastForFailure;
  }

  /** The failed DataNodes whose recovery groups the last {@link #find} woke, each "dead" or "stale", by id. */
  Map<String, String> lastFailed() {
    return lastFailed;
  }

  /** Of what the last {@link #find} answered, the recovery groups {@link #readOnly} had powered on and announced. */
  Set<String> lastAnnounced() {
    return lastAnnounced;
  }

  /** Every server of the chain not asleep, and those being woken (kept per state: states are immutable). */
  private ActiveSet on(ShiftState state) {
    if (state != onState) {
      onSet = ActiveSet.all(chain).minus(asleep(state.sleeping()).minus(ActiveSet.ofIdsOnChain(chain, state.waking())));
      onState = state;
    }
    return onSet;
  }

  /** The chain positions of {@code sleeping}, translated once per sleeping set (a state's set is immutable). */
  private ActiveSet asleep(Set<String> sleeping) {
    if (sleeping != asleepIds) {
      asleep = ActiveSet.ofIdsOnChain(chain, sleeping);
      asleepIds = sleeping;
    }
    return asleep;
  }

  /** Why a failed DataNode's group is woken, as {@link ShiftEvents#wakeStarted} names it. */
  private static String why(DataNodeView view) {
    return view.alive() ? "stale" : view.registered() ? "dead" : "dead (not registered)";
  }

  /** DataNodes that should be on and dead at {@code now}, by {@link FailedDataNodes}' rule. */
  ActiveSet failed(ShiftState state, long now) {
    return FailedDataNodes.among(ports.cluster, chain, asleep(state.sleeping()), now);
  }

  /**
   * {@link #failed} and the DataNodes that should be on, in service and stale; only the dead when more than half of
   * those that should be on are failed or stale at once (many stale at once is the NameNode's own pause, not failures).
   */
  ActiveSet failedOrStale(ShiftState state, long now) {
    ActiveSet dead = failed(state, now);
    ActiveSet candidates = ports.cluster.stale(chain).minus(asleep(state.sleeping()));
    if (candidates.isEmpty()) {
      return dead;
    }
    BitSet stale = new BitSet(chain.size());
    for (int p = candidates.next(0); p >= 0; p = candidates.next(p + 1)) {
      if (ports.cluster.dataNode(chain.id(p)).admin() == AdminState.NORMAL) {
        stale.set(p);
      }
    }
    ActiveSet both = dead.union(ActiveSet.of(chain, stale));
    int shouldBeOn = chain.size() - asleep(state.sleeping()).size();
    return both.size() * 2 <= shouldBeOn ? both : dead;
  }

  /**
   * The group to wake for {@code block}, which has no live replica, whether a read named it or the file system listed
   * it (one rule for both): the smallest holding it among its sleeping holders (an awake holder holds a dead or
   * corrupt replica; nothing when one of them is being woken already), else among the sleeping homes of its holders.
   */
  private ActiveSet forLostBlock(ReplicatedFile block, ActiveSet on, ActiveSet failed, Set<String> sleeping) {
    int[] holders = positions(block);
    int[] asleep = Arrays.stream(holders).filter(p -> sleeping.contains(chain.id(p))).toArray();
    if (asleep.length == 0) {
      asleep = SleepingHomes.candidates(layout, holders, new int[0]).ids().stream().filter(sleeping::contains)
          .mapToInt(chain::position).toArray();
    }
    return planner.forBlock(asleep, on, failed);
  }

  private int[] positions(ReplicatedFile block) {
    return block.replicaServers().stream().mapToInt(chain::position).filter(p -> p >= 0).toArray();
  }
}
