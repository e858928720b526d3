package org.eafr.placement.gear.shift;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.layout.EqualWorkLayout;

/**
 * One seeded schedule of the deterministic simulation: a {@link GearShift} over a {@link SimulatedCluster} of 12
 * DataNodes (equal-work, p = 4, g = 2, r = 3), {@value #FAULT_STEPS} steps that interleave gear requests, writes,
 * reads, an operator's cancel of the shift under way, and faults (power commands that fail or hang, an unreachable BMC, a DataNode dying awake or asleep or going stale (no heartbeat for a while), a move
 * failing or hanging, the NameNode restarting or failing over mid-phase; in one schedule of four, at its first
 * restart, a DataNode that should be on dies for good while the NameNode is down and never registers again), then
 * everything else heals: the shift must
 * settle within {@value #SETTLE_STEPS} steps, and a gear-up to the highest gear must then reflect every owed block
 * home. After every event it checks:
 * <ul>
 *   <li>no block loses its last replica on a DataNode that is on and registered, except by a fault (a DataNode that
 *       dies); such a block must get one back once the faults heal (unless every holder died for good);</li>
 *   <li>a block whose only replicas not dead sleep has a group woken for it (a holder waking) within HDFS's dead
 *       interval ({@link SimulatedCluster#DEAD_INTERVAL} ticks) and {@value #WAKE_BOUND} ticks;</li>
 *   <li>no power-off of a host not IN_MAINTENANCE, or with a block left without a replica in service elsewhere, and no
 *       dead DataNode out of maintenance ({@link SimulatedCluster});</li>
 *   <li>every request is accepted or refused with a reason, and once healed every shift ends and every wake finishes
 *       within the bound, even with a non-primary that never shows IN_MAINTENANCE (a quarter of the seeds: its
 *       transfers never drain, and no heal ends that) cancelling each gear-down it would leave in;</li>
 *   <li>an operator's cancel leaves asleep only DataNodes that do not run ({@link ShiftCancel#of});</li>
 *   <li>a block written away from a home stays owed in the store, across restarts, until every home holds it.</li>
 * </ul>
 * The same seed replays the same run exactly.
 */
final class ShiftSchedule {
  static final int FAULT_STEPS = 40;
  static final int SETTLE_STEPS = 120;
  /** Ticks past the dead interval within which a block whose only replicas sleep must have a holder waking. */
  static final int WAKE_BOUND = 2;
  private static final ShiftSettings SETTINGS = new ShiftSettings(2, 3, 4);

  private final long seed;
  private final Random random;
  private final GearedLayout layout;
  private final SimulatedCluster cluster;
  private final MemoryShiftStore store = new MemoryShiftStore();
  private final Map<String, List<String>> owedHomes = new HashMap<>();
  private final List<String> trace = new ArrayList<>();
  private GearShift shift;
  private Set<String> unavailable = new HashSet<>();
  private final Set<String> excused = new HashSet<>();
  /** Each block whose only replicas not dead sleep and none is waking, with the tick it was first seen so. */
  private final Map<String, Integer> asleepOnly = new HashMap<>();
  /** The DataNode that died for good, if this schedule has one. */
  private String diedForGood;
  private int blockCount;
  private String failure;
  /** What this run went through: restarts and failovers mid-phase, shifts reached and cancelled, wakes, moves. */
  final Coverage coverage = new Coverage();

  ShiftSchedule(long seed) {
    this.seed = seed;
    this.random = new Random(seed);
    ExpansionChain chain = GearServers.chain(12, 3);
    this.layout = new EqualWorkLayout(chain, 4, 2, 3);
    this.cluster = new SimulatedCluster(chain, random);
    cluster.powerFails = random.nextDouble() * 0.3;
    cluster.powerHangs = random.nextDouble() * 0.2;
    cluster.moveFails = random.nextDouble() * 0.3;
    cluster.moveHangs = random.nextDouble() * 0.1;
    Random drains = new Random(~seed); // its own draws: every seed's schedule stays what it was
    if (drains.nextInt(4) == 0) {
      cluster.neverInMaintenance(chain.id(4 + drains.nextInt(8)));
    }
    ActiveSet all = ActiveSet.all(chain);
    for (int b = 0; b < 24; b++) {
      String id = blockId();
      cluster.addBlock(id, layout.place(BlockRequest.of(id, 3), all).holderIds());
    }
    shift = GearShift.resume(layout, ports(), SETTINGS);
  }

  /** The run's failure, one line with how to replay it; empty when every invariant held. */
  Optional<String> run() {
    for (int s = 0; s < FAULT_STEPS && failure == null; s++) {
      event();
      step();
    }
    cluster.healAll();
    trace.add("heal");
    settle();
    ShiftAnswer top = shift.request(layout.maximumGear());
    trace.add("request " + layout.maximumGear() + ": " + top);
    if (failure == null && !top.accepted()) {
      fail("the highest gear refused once healed and steady: " + top.text());
    }
    for (int s = 0; s < SETTLE_STEPS && failure == null && !(settled() && owedHomeable().isEmpty()); s++) {
      step();
    }
    if (failure == null && !owedHomeable().isEmpty()) {
      fail(owedHomeable().size() + " blocks still owed " + SETTLE_STEPS + " steps into the highest gear, e.g. "
          + owedHomeable().get(0));
    }
    return Optional.ofNullable(failure);
  }

  /**
   * The owed blocks none of whose homes and holders died for good: a move to such a home, or from such a holder away
   * from home, waits for HDFS's re-replication (not simulated here) or the operator.
   */
  private List<OwedBlock> owedHomeable() {
    List<OwedBlock> owed = new ArrayList<>(store.owedAfter("", Integer.MAX_VALUE));
    owed.removeIf(block -> block.homes().stream().anyMatch(cluster::deadForGood)
        || cluster.holders(block.blockId()).stream().anyMatch(cluster::deadForGood));
    return owed;
  }

  /** Steps until steady with nothing waking and every block live; fails after {@value #SETTLE_STEPS} steps. */
  private void settle() {
    for (int s = 0; s < SETTLE_STEPS && failure == null && !settled(); s++) {
      step();
    }
    if (failure == null && !settled()) {
      fail("not settled " + SETTLE_STEPS + " steps after the faults healed: " + shift.state() + ", unavailable "
          + unavailable + ", last news: " + shift.lastNews());
    }
  }

  List<String> trace() {
    return trace;
  }

  GearShift shift() {
    return shift;
  }

  private boolean settled() {
    return shift.state().phase() == ShiftPhase.STEADY && shift.state().waking().isEmpty() && unavailable.isEmpty();
  }

  private void event() {
    int roll = random.nextInt(100);
    if (roll < 20) {
      int gear = random.nextInt(layout.maximumGear() + 1);
      ShiftAnswer answer = shift.request(gear);
      trace.add("request " + gear + ": " + answer);
      if (answer.text().isEmpty()) {
        fail("request " + gear + " answered with no reason");
      }
      if (!answer.accepted() && gear == layout.maximumGear()) { // an operator gives up the shift under way
        ShiftAnswer cancelled = shift.cancel();
        trace.add("cancel: " + cancelled);
        checkCancel(cancelled);
      }
    } else if (roll < 35) {
      write();
    } else if (roll < 45) {
      read();
    } else if (roll < 52) {
      fault("crash awake", cluster.crashAwake(1 + random.nextInt(10)));
    } else if (roll < 57) {
      fault("crash asleep", cluster.crashAsleep(1 + random.nextInt(10)));
    } else if (roll < 63) {
      cluster.bmcDown(1 + random.nextInt(8));
      trace.add("bmc down");
    } else if (roll < 67) {
      coverage.resumedMidPhase += shift.state().phase() == ShiftPhase.STEADY ? 0 : 1;
      dieForGoodWhileTheNameNodeIsDown();
      cluster.nameNodeRestarted((int) (seed % 3)); // the running DataNodes register with it 0 to 2 ticks later
      shift = GearShift.resume(layout, ports(), SETTINGS);
      fault("NameNode restart", true);
    } else if (roll < 71) {
      coverage.resumedMidPhase += shift.state().phase() == ShiftPhase.STEADY ? 0 : 1;
      cluster.failedOver();
      shift = GearShift.resume(layout, ports(), SETTINGS);
      trace.add("failover");
    } else if (roll < 75) {
      fault("stale", cluster.goStale(2 + (int) (seed % 4)));
    } else {
      trace.add("quiet");
    }
  }

  /**
   * In one schedule of four ({@code seed % 4 == 1}), at its first restart: the first running DataNode that should be
   * on dies for good (no random number is drawn, so the schedule's other events are unchanged).
   */
  private void dieForGoodWhileTheNameNodeIsDown() {
    if (seed % 4 != 1 || diedForGood != null) {
      return;
    }
    for (String id : ActiveSet.all(cluster.chain).ids()) {
      if (!shift.state().sleeping().contains(id) && cluster.heartbeating(id)) {
        diedForGood = id;
        cluster.dieForGood(id);
        coverage.diedForGood++;
        trace.add("dies for good while the NameNode is down: " + id);
        return;
      }
    }
  }

  private void fault(String what, boolean happened) {
    trace.add(what + (happened ? "" : " (nothing to hit)"));
    Set<String> now = cluster.unavailable();
    for (String block : now) {
      if (!unavailable.contains(block)) {
        excused.add(block);
      }
    }
    unavailable = now;
  }

  /** A client writes a block onto the DataNodes in service now, complete at once or after a few ticks. */
  private void write() {
    List<String> on = new ArrayList<>();
    for (String id : ActiveSet.all(cluster.chain).ids()) {
      if (cluster.liveInService(id)) {
        on.add(id);
      }
    }
    if (on.isEmpty()) {
      trace.add("write: no DataNode in service");
      return;
    }
    String id = blockId();
    BlockPlacement placement = layout.place(BlockRequest.of(id, 3), ActiveSet.ofIds(cluster.chain, on));
    if (random.nextBoolean()) {
      cluster.startWrite(id, placement.holderIds(), 1 + random.nextInt(3));
    } else {
      cluster.addBlock(id, placement.holderIds());
    }
    shift.written(id, placement);
    if (placement.owesMoves()) {
      List<String> homes = new ArrayList<>();
      for (int i = 0; i < placement.size(); i++) {
        homes.add(cluster.chain.id(placement.home(i)));
      }
      owedHomes.put(id, homes);
    }
    trace.add("write " + id + " on " + placement.holderIds());
  }

  private void read() {
    List<String> ids = new ArrayList<>(cluster.blockIds());
    String id = ids.get(random.nextInt(ids.size()));
    boolean found = cluster.holders(id).stream().anyMatch(cluster::live);
    if (!found) {
      shift.readFoundNoReplica(id);
    }
    trace.add("read " + id + (found ? "" : ": no live replica"));
  }

  private void step() {
    cluster.tick();
    String news = shift.lastNews();
    shift.step(cluster.tick);
    if (!shift.lastNews().equals(news)) {
      coverage.count(shift.lastNews());
    }
    trace.add("step " + cluster.tick + ": " + shift.state());
    checkAvailability();
    checkAsleepOnly();
    checkOwed();
    if (!cluster.violations().isEmpty() && failure == null) {
      fail(cluster.violations().get(0));
    }
  }

  /** A cancel's rule: every DataNode still asleep after it is one that does not run. */
  private void checkCancel(ShiftAnswer cancelled) {
    if (!cancelled.accepted()) {
      return;
    }
    coverage.operatorCancels++;
    for (String id : shift.state().sleeping()) {
      if (cluster.dataNode(id).alive()) {
        fail("cancel kept running DataNode " + id + " asleep: " + cancelled.text());
      }
    }
  }

  private void checkAvailability() {
    Set<String> now = cluster.unavailable();
    for (String block : now) {
      if (!unavailable.contains(block) && !excused.contains(block)) {
        fail("block " + block + " on " + cluster.holders(block) + " lost its last live replica in a step");
      }
    }
    excused.retainAll(now);
    unavailable = now;
  }

  /**
   * A block whose replicas are all asleep (in the shift's sleeping set, not dead for good) or dead for good, with at
   * least one asleep and none being woken (out of turn, or powered on by a gear-up): within the dead interval and
   * {@value #WAKE_BOUND} ticks of first being seen so, or of the NameNode becoming active when that came later (a
   * NameNode made active anew waits the dead interval again), a group holding it must be waking.
   */
  private void checkAsleepOnly() {
    ShiftState state = shift.state();
    Map<String, Integer> still = new HashMap<>();
    for (String block : cluster.unavailable()) {
      Set<String> holders = cluster.holders(block);
      boolean asleep = holders.stream().anyMatch(h -> state.sleeping().contains(h) && !cluster.deadForGood(h));
      boolean onlyAsleep = holders.stream().allMatch(h -> state.sleeping().contains(h) || cluster.deadForGood(h));
      boolean waking = holders.stream().anyMatch(h -> state.waking().contains(h)
          || state.sleeping().contains(h) && cluster.poweredOn(h));
      if (asleep && onlyAsleep && !waking) {
        int since = asleepOnly.getOrDefault(block, cluster.tick);
        still.put(block, since);
        long waited = cluster.tick - Math.max(since, cluster.activeSince);
        if (waited > SimulatedCluster.DEAD_INTERVAL + WAKE_BOUND) {
          fail("block " + block + " on " + holders + " (asleep: " + state.sleeping() + ") has had its only replicas"
              + " asleep for " + waited + " ticks (since tick " + since + ", NameNode active since tick "
              + cluster.activeSince + ") and no group holding it is woken");
        }
      }
    }
    asleepOnly.clear();
    asleepOnly.putAll(still);
  }

  private void checkOwed() {
    owedHomes.entrySet().removeIf(owed -> {
      boolean home = cluster.holders(owed.getKey()).containsAll(owed.getValue())
          || !cluster.blockIds().contains(owed.getKey()) && !store.owes(owed.getKey());
      if (!home && !store.owes(owed.getKey())) {
        fail("block " + owed.getKey() + " forgotten while owed: homes " + owed.getValue() + ", held on "
            + cluster.holders(owed.getKey()));
      }
      return home;
    });
  }

  private void fail(String why) {
    if (failure == null) {
      failure = "seed " + seed + ": " + why + " (rerun: mvn -B -ntp -o -q -pl hadoop-eafr-placement test"
          + " -Dtest=GearShiftSimulationTest -Dshift.seed=" + seed + ")";
    }
  }

  private String blockId() {
    return String.format("blk_%03d", blockCount++);
  }

  /** Counts of what a run went through, summed over schedules to show the faults reach every phase. */
  static final class Coverage {
    long resumedMidPhase;
    long reached;
    long cancelled;
    long woken;
    long operatorCancels;
    long diedForGood;
    /** Wakes for a DataNode that should be on and had not registered for the dead interval. */
    long unregisteredWakes;

    void count(String news) {
      reached += news.contains(" reached") ? 1 : 0;
      cancelled += news.contains("cancelled") ? 1 : 0;
      woken += news.contains("woken out of turn") ? 1 : 0;
    }

    void add(Coverage other) {
      resumedMidPhase += other.resumedMidPhase;
      reached += other.reached;
      cancelled += other.cancelled;
      woken += other.woken;
      operatorCancels += other.operatorCancels;
      diedForGood += other.diedForGood;
      unregisteredWakes += other.unregisteredWakes;
    }

    @Override
    public String toString() {
      return reached + " gears reached, " + cancelled + " gear-downs cancelled, " + operatorCancels
          + " shifts cancelled by an operator, " + woken + " wakes out of turn, " + resumedMidPhase
          + " restarts or failovers mid-phase, " + diedForGood + " DataNodes dead for good, " + unregisteredWakes
          + " wakes for one unregistered";
    }
  }

  /** The ports, with every wake for a failure checked: a DataNode taken for failed must be dead or stale. */
  private ShiftPorts ports() {
    return new ShiftPorts(cluster, cluster, cluster, cluster, store, new ShiftEvents() {
      @Override
      public void wakeStarted(Set<String> ids, Map<String, String> failed) {
        coverage.unregisteredWakes += failed.containsValue("dead (not registered)") ? 1 : 0;
        failed.keySet().stream().filter(cluster::heartbeating).findFirst().ifPresent(id -> fail("DataNode " + id
            + " taken for failed (" + failed + ") while running and heartbeating; woke " + ids));
      }
    });
  }
}
