package org.eafr.sim.policy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.destination.RandomDestination;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearController;
import org.eafr.placement.gear.GearDecision;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.LoadSample;
import org.eafr.placement.gear.OffloadLedger;
import org.eafr.placement.gear.ReadBalancer;
import org.eafr.placement.gear.StorageRoom;
import org.eafr.placement.gear.StoredBlocks;
import org.eafr.placement.gear.layout.CapacityPrimaries;
import org.eafr.placement.recovery.LostReplica;
import org.eafr.placement.recovery.RecoveryPlan;
import org.eafr.placement.grid.DeferralScheduler;
import org.eafr.placement.grid.DeferredWork;
import org.eafr.placement.grid.GridSettings;
import org.eafr.placement.grid.GridSignal;
import org.eafr.placement.grid.Objective;
import org.eafr.placement.grid.UtilizationSteering;
import org.eafr.placement.grid.WorkKind;
import org.eafr.placement.gear.policy.GearedPolicySpec;
import org.eafr.placement.gear.policy.LayoutContext;
import org.eafr.placement.gear.policy.WritePlacement;
import org.eafr.placement.settings.EafrSettings;
import org.eafr.sim.engine.UnsharedRandom;
import org.eafr.sim.model.GridSignals;
import org.eafr.sim.model.SimFile;

/**
 * A geared policy wired from the core: a {@link GearedLayout} over a rack-interleaved {@link ExpansionChain} places
 * every block (one per file) under the servers on, recording offloaded replicas in an {@link OffloadLedger}; a
 * {@link ReadBalancer} picks the holder of each read among the servers on; the {@link GearController} (with the
 * ledger as its availability floor) picks the gear each control period; the ledger gives the cleanup before servers
 * sleep and the reflection after they wake. Rabbit, SpringFS, Accordion and EAFR on gears differ only in their layout
 * and balancer. Failures are recovered as the baselines do (random source and destination); the gear scenarios run
 * without failures.
 */
public class LayoutPolicy implements GearedPolicy {
  private final String name;
  private final PolicyEnvironment env;
  private final BiFunction<ExpansionChain, PolicyEnvironment, GearedLayout> layoutFactory;
  private final Function<GearedLayout, ReadBalancer> balancerFactory;
  /** The core registry's parts when this policy is one of its entries; null for a test layout. */
  private Built<?> built;
  private final RandomRecovery recovery;
  private final StorageReserve reserve;
  private final Counted counted;
  private final OffloadLedger ledger = new OffloadLedger();
  /** The controller's floor: the ledger and the files a full lowest gear left without a replica there. */
  private final LowestGearFloor floor = new LowestGearFloor(ledger);
  private ActiveSet lowestOn;
  private ExpansionChain chain;
  private long oneCopyBytes;
  private GearedLayout layout;
  private ReadBalancer balancer;
  private GearController controller;
  private ActiveSet on;
  private LoadSample perServer;
  private ClusterView roomView;
  private long[] placedSinceView;
  private long displaced;
  private Objective objective;
  private GridSignal signal;
  private DeferredWork deferred;
  private UtilizationSteering steering;
  private boolean shiftedDown;
  private double lastReadMeanMs = Double.NaN;
  private final List<GridStep> timeline = new ArrayList<>();

  /**
   * One control period of a run against a grid signal: run time, the signal's carbon intensity and price then, the
   * gear decided, the target utilization used, and the kinds of background work held for a cleaner or cheaper hour.
   */
  public record GridStep(long runMillis, double gco2PerKwh, double eurPerMwh, int gear, double targetUtilization,
      int heldKinds) {
  }

  public LayoutPolicy(String name, PolicyEnvironment env,
      BiFunction<ExpansionChain, PolicyEnvironment, GearedLayout> layoutFactory,
      Function<GearedLayout, ReadBalancer> balancerFactory) {
    this(name, env, layoutFactory, balancerFactory, new Counted());
  }

  /** The core registry's geared policy {@code spec} ({@code GearedPolicies}) under the name {@code name}. */
  public LayoutPolicy(String name, PolicyEnvironment env, GearedPolicySpec<?> spec) {
    this(name, env, spec, new Counted());
  }

  /** The same, with {@code counted} for a balancer that weighs servers by what they store. */
  protected LayoutPolicy(String name, PolicyEnvironment env, GearedPolicySpec<?> spec, Counted counted) {
    this(name, env, new Built<>(spec, counted), counted);
  }

  private LayoutPolicy(String name, PolicyEnvironment env, Built<?> built, Counted counted) {
    this(name, env, built::layout, built::balancer, counted);
    this.built = built;
  }

  /**
   * A registry entry's parts on the run's chain: the layout, built once in {@link #start}, and the read balancer and
   * write placement made on it, typed by the entry's layout.
   */
  private static final class Built<L extends GearedLayout> {
    private final GearedPolicySpec<L> spec;
    private final Counted counted;
    private L layout;
    private WritePlacement writes;

    Built(GearedPolicySpec<L> spec, Counted counted) {
      this.spec = spec;
      this.counted = counted;
    }

    GearedLayout layout(ExpansionChain chain, PolicyEnvironment env) {
      layout = spec.layout(context(chain, env));
      writes = spec.writes(layout);
      return layout;
    }

    ReadBalancer balancer(GearedLayout ignored) {
      return spec.reads(layout, counted).balancer();
    }

    int lowestGear(EafrSettings settings) {
      return spec.lowestGear(layout, settings);
    }
  }

  /** The context a registry layout is built in: the run's settings, its chain, the simulated clock, its own random. */
  static LayoutContext context(ExpansionChain chain, PolicyEnvironment env) {
    return new LayoutContext(env.settings().eafr(), chain, chain.size(), simulatedClock(env.clockMillis()),
        () -> new UnsharedRandom(env.random().nextLong()));
  }

  /** A policy whose balancer or migration reads {@code counted}, which this policy keeps current once the run starts. */
  protected LayoutPolicy(String name, PolicyEnvironment env,
      BiFunction<ExpansionChain, PolicyEnvironment, GearedLayout> layoutFactory,
      Function<GearedLayout, ReadBalancer> balancerFactory, Counted counted) {
    this.name = name;
    this.counted = counted;
    this.env = env;
    this.layoutFactory = layoutFactory;
    this.balancerFactory = balancerFactory;
    this.reserve = new StorageReserve(env.settings().eafr().storageReserveBytes());
    this.objective = env.settings().grid().objective();
    this.recovery = new RandomRecovery(new RandomDestination(reserve, new UnsharedRandom(env.random().nextLong())),
        new UnsharedRandom(env.random().nextLong()), false);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean receiveRateControl() {
    return false;
  }

  @Override
  public void start(ClusterView cluster, LoadSample perServer) {
    chain = ExpansionChain.rackInterleaved(new ArrayList<>(cluster.servers()));
    EafrSettings keys = env.settings().eafr();
    boolean byCapacity = keys.get(EafrSettings.GEAR_CAPACITY_AWARE) == 1;
    chain = byCapacity ? chain.largestFirst() : chain;
    layout = layoutFactory.apply(chain, byCapacity ? sizedByCapacity(keys) : env);
    balancer = balancerFactory.apply(layout);
    int lowest = lowestGear();
    controller = GearController.from(env.settings().eafr(), layout, perServer, lowest, lowest,
        simulatedClock(env.clockMillis()));
    on = ActiveSet.all(chain);
    placedSinceView = new long[chain.size()];
    this.perServer = perServer;
    signal = GridSignals.of(env.settings());
    GridSettings grid = env.settings().grid().withObjective(objective);
    deferred = new DeferredWork(new DeferralScheduler(grid, signal));
    steering = new UtilizationSteering(grid, signal);
    EafrSettings eafr = env.settings().eafr();
    // A steering range the controller cannot take (u - lower at or below h) stops the run before it starts.
    steering.target(wallNow(), eafr.get(EafrSettings.GEAR_TARGET_UTILIZATION), eafr.get(EafrSettings.GEAR_DOWN_MARGIN),
        Double.NaN);
  }

  @Override
  public void catalog(long oneCopyBytes) {
    this.oneCopyBytes = oneCopyBytes;
  }

  /**
   * The environment the layout is built in when it is sized by capacity: with eafr.gear.primaries 0, p is the fewest
   * of the largest servers whose layout holds one copy of the catalog with eafr.gear.capacity-headroom to spare at
   * every server ({@link CapacityPrimaries}: more primaries when the servers past them would overflow).
   */
  private PolicyEnvironment sizedByCapacity(EafrSettings keys) {
    if (keys.get(EafrSettings.GEAR_PRIMARIES) > 0 || oneCopyBytes <= 0) {
      return env;
    }
    int p = CapacityPrimaries.primaries(oneCopyBytes, keys.get(EafrSettings.GEAR_CAPACITY_HEADROOM), chain,
        keys.storageReserveBytes(), keys.get(EafrSettings.GEAR_GROUP_SIZE), keys.get(EafrSettings.GEAR_REPLICAS));
    return new PolicyEnvironment(env.settings().with(java.util.Map.of(EafrSettings.GEAR_PRIMARIES.key(),
        String.valueOf(p))), env.random(), env.clockMillis());
  }

  /** Schedules this policy's background work against {@code scheduled} (a named carbon- or price-aware variant). */
  public final LayoutPolicy scheduledFor(Objective scheduled) {
    this.objective = scheduled;
    return this;
  }

  /** The signal's time now: the run's time 0 is {@code sim.grid.start}. */
  private long wallNow() {
    return env.settings().gridStartMillis() + env.clockMillis().getAsLong();
  }

  /**
   * Whether {@code pending} items of {@code kind} work run now (the core's {@link DeferredWork}); a reflection's
   * deadline is the gear-down the controller has just decided.
   */
  protected final boolean mayRun(WorkKind kind, int pending) {
    long now = wallNow();
    return deferred.mayRun(kind, pending, now, 0, shiftedDown && kind == WorkKind.REFLECTION ? now : Long.MAX_VALUE);
  }

  @Override
  public DeferredWork deferredWork() {
    return deferred;
  }

  @Override
  public void readLatency(double meanMs) {
    lastReadMeanMs = meanMs;
    deferred.readLatency(meanMs);
  }

  /** Each control period's signal, gear, target utilization and held work (empty without a signal). */
  public List<GridStep> timeline() {
    return timeline;
  }

  @Override
  public void storedBlocks(StoredBlocks stored) {
    counted.counts = stored;
  }

  /** The blocks each server stores now (nothing before the simulator hands its counts over). */
  protected StoredBlocks counted() {
    return counted;
  }

  /**
   * A {@link StoredBlocks} that reads the simulator's counts once they are handed over: a layout's balancer is made
   * before the run starts, so it is given this and sees the counts as they change.
   */
  protected static final class Counted implements StoredBlocks {
    private volatile StoredBlocks counts = StoredBlocks.NONE;

    @Override
    public long held(int position) {
      return counts.held(position);
    }

    @Override
    public long blocks() {
      return counts.blocks();
    }
  }

  /**
   * The lowest gear the controller may run (and the gear at time 0), once the layout is built: the registry entry's
   * (0, or the gear that keeps a read floor on), 0 for a test layout.
   */
  protected int lowestGear() {
    return built == null ? 0 : built.lowestGear(env.settings().eafr());
  }

  /** The registry entry's write placement (its write offloading), once the layout is built; null for a test layout. */
  protected WritePlacement writes() {
    return built == null ? null : built.writes;
  }

  /** One server's throughput, as the simulator measured it. */
  protected LoadSample perServer() {
    return perServer;
  }

  /** What the layout owes (offloaded replicas), shared by placement, cleanup and reflection. */
  protected OffloadLedger ledger() {
    return ledger;
  }

  protected PolicyEnvironment env() {
    return env;
  }

  /** The simulated clock as a {@link Clock} for the controller's dwell time and forecast. */
  static Clock simulatedClock(LongSupplier millis) {
    return new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }

      @Override
      public long millis() {
        return millis.getAsLong();
      }

      @Override
      public Instant instant() {
        return Instant.ofEpochMilli(millis());
      }
    };
  }

  @Override
  public ExpansionChain chain() {
    return chain;
  }

  @Override
  public GearedLayout layout() {
    return layout;
  }

  @Override
  public ReadBalancer newBalancer() {
    return balancerFactory.apply(layout);
  }

  @Override
  public ActiveSet initialOn() {
    return layout.serversOn(controller.gear());
  }

  @Override
  public void activeSetChanged(ActiveSet now) {
    this.on = now;
  }

  @Override
  public List<Server> placeNewFile(SimFile file, ClusterView cluster) {
    BlockPlacement placement = place(BlockRequest.of(file.id(), replicas())
        .withSize(file.sizeBytes(), room(cluster)), on);
    ledger.record(file.id(), placement);
    lowestOn = lowestOn != null ? lowestOn : layout.serversOn(lowestGear());
    floor.placed(file, placement, lowestOn);
    displaced += placement.displacedCount();
    List<Server> servers = new ArrayList<>(placement.size());
    for (int i = 0; i < placement.size(); i++) {
      placedSinceView[placement.holder(i)] += file.sizeBytes();
      servers.add(cluster.server(chain.id(placement.holder(i))));
    }
    return servers;
  }

  /** Room is the view's free storage less what this policy placed since ({@link #room}). */
  @Override
  public boolean countsPlacementsSinceView() {
    return true;
  }

  /** Where a new block goes: the registry entry's write placement, or the test layout's placement. */
  protected BlockPlacement place(BlockRequest request, ActiveSet nowOn) {
    return built == null ? layout.place(request, nowOn) : built.writes.place(request, nowOn);
  }

  /**
   * Room as the simulator will check it: a server's free space in {@code cluster} less what this policy placed on it
   * since that view was taken (the simulator refreshes its view only every few files), past the storage reserve.
   */
  private StorageRoom room(ClusterView cluster) {
    if (cluster != roomView) {
      roomView = cluster;
      Arrays.fill(placedSinceView, 0);
    }
    return (position, bytes) -> reserve.canHold(
        cluster.server(chain.id(position)).remainingStorage() - placedSinceView[position], bytes);
  }

  @Override
  public int replicasPerNewFile() {
    return replicas();
  }

  @Override
  public long displacedReplicas() {
    return displaced;
  }

  /** Replicas per block: the r the layout is built for (eafr.gear.replicas). */
  protected int replicas() {
    return env.settings().eafr().get(org.eafr.placement.settings.EafrSettings.GEAR_REPLICAS);
  }

  @Override
  public Optional<Server> chooseReplica(String readerRack, List<Server> holders) {
    int[] positions = new int[holders.size()];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = chain.position(holders.get(i).id());
    }
    int chosen = balancer.choose(positions, on);
    for (int i = 0; i < positions.length; i++) {
      if (positions[i] == chosen) {
        return Optional.of(holders.get(i));
      }
    }
    return Optional.empty();
  }

  @Override
  public void readStarted(SimFile file, String serverId, long nowMillis) {
  }

  @Override
  public IntervalDecision endOfInterval(List<SimFile> files, ClusterView cluster, long nowMillis) {
    return IntervalDecision.NONE;
  }

  @Override
  public RecoveryPlan recover(String failedId, List<LostReplica> lost, ClusterView cluster) {
    return recovery.recover(failedId, lost, cluster);
  }

  @Override
  public GearDecision decide(LoadSample load, ActiveSet nowOn, ActiveSet failed) {
    EafrSettings eafr = env.settings().eafr();
    long now = wallNow();
    controller.targetUtilization(steering.target(now, eafr.get(EafrSettings.GEAR_TARGET_UTILIZATION),
        eafr.get(EafrSettings.GEAR_DOWN_MARGIN), lastReadMeanMs));
    GearDecision decision = controller.decide(load, nowOn, failed, floor);
    shiftedDown = decision.targetGear() < decision.previousGear();
    if (signal != null && signal.covers(now)) {
      timeline.add(new GridStep(env.clockMillis().getAsLong(), signal.carbonAt(now), signal.priceAt(now),
          decision.targetGear(), controller.targetUtilization(), deferred.heldKinds()));
    }
    return decision;
  }

  /**
   * The layout's reflection, when the grid lets it run ({@link WorkKind#REFLECTION}), less what the write placement
   * keeps for cleanup (Rabbit's offloaded primaries).
   */
  @Override
  public List<BlockMove> reflection(ActiveSet nowOn) {
    List<BlockMove> owed = ledger.reflectionFor(nowOn);
    List<BlockMove> now = mayRun(WorkKind.REFLECTION, owed.size()) ? owed : List.of();
    return built == null ? now : built.writes.beforeCleanup(now);
  }

  @Override
  public void moved(BlockMove move) {
    ledger.moved(move);
  }

  @Override
  public int gear() {
    return controller.gear();
  }
}
