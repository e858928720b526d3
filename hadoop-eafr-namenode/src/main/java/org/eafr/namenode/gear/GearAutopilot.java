package org.eafr.namenode.gear;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.util.Time;
import org.eafr.namenode.cluster.ReadAttribution;
import org.eafr.namenode.config.NamenodeSettings;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.CleanupWork;
import org.eafr.placement.gear.GearController;
import org.eafr.placement.gear.GearDecision;
import org.eafr.placement.gear.GearFloor;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.LoadSample;
import org.eafr.placement.gear.UnavailableBlock;
import org.eafr.placement.gear.policy.GearedParts;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.settings.EafrSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Auto mode ({@code eafr.gear.mode = auto}, or {@code hdfs eafr gear auto}): every {@code eafr.gear.auto.interval.ms}
 * on the active NameNode, samples the NameNode's load ({@link LoadSignals}: opens per second, bytes written per
 * second, DataNode xceivers), lets the core's {@link GearController} decide (u, hysteresis h, minimum dwell time,
 * availability floor) against one DataNode's capacity ({@code eafr.gear.server.opens-per-second},
 * {@code eafr.gear.server.write-bytes-per-second}, and {@code eafr.server.service-capacity} concurrent transfers),
 * and asks the {@link GearService} to shift exactly as an operator's gear command does, so every check of a manual
 * shift applies. It decides only while the gear is steady: a shift under way finishes first.
 *
 * <p>Every decision is counted by its reason ({@link GearCounters#autoDecisions}); a shift started and a refused shift
 * are logged (one line each: {@code EAFR gears: auto: load 412 opens/s, 3.1 MB/s written, 37 xceivers (5.20
 * DataNodes needed) -> gear 2 (was 1): UP_FOR_LOAD; shift started}), and so is the first decision that holds the gear
 * after auto mode started or after a shift; later ones that hold (load unchanged, dwell time, hysteresis, floor) are
 * counted and logged at DEBUG only, however their reason alternates.
 *
 * <p>The mode is persisted in the namespace ({@link GearStore#writeMode}), so a restart or a failover keeps it; the
 * controller's dwell time counts from when this NameNode's controller was built (when auto mode started here, or
 * after a refused or outside shift), so a new active NameNode shifts down no sooner than one dwell time after taking
 * over. The availability floor walks the leaving DataNodes' blocks ({@code NamespaceFloor}) only for a gear other
 * than the one running, and a gear it found unsafe is not walked again for one dwell time.
 */
public final class GearAutopilot implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GearAutopilot.class);

  private final NameNode nameNode;
  private final NamenodeSettings settings;
  private final GearRuntime gears;
  private final GearService service;
  private final GearStore store;
  private final LoadSignals signals;
  private final LoadSample perServer;
  private final ScheduledExecutorService scheduler;
  private volatile GearMode mode;
  private volatile AutoDecision lastDecision;
  private volatile AutoDecision lastShift;
  private GearController controller;
  private GearedLayout controllerLayout;
  /** Whether a decision that held the gear was logged since auto mode started or the last shift. */
  private boolean loggedHold;
  private UnsafeGear unsafe;

  private GearAutopilot(NameNode nameNode, GearRuntime gears, NamenodeSettings settings, ReadAttribution attribution,
      GearService service) {
    this.nameNode = nameNode;
    this.settings = settings;
    this.gears = gears;
    this.service = service;
    this.store = new GearStore(nameNode, gears.settings().stateDir());
    this.signals = new LoadSignals(attribution::opens, () -> nameNode.getNamesystem().getBlockManager()
        .getDatanodeManager().getDatanodeListForReport(DatanodeReportType.LIVE), Time::monotonicNow);
    this.perServer = new LoadSample(gears.settings().serverOpensPerSecond(), 0, 0,
        gears.settings().serverWriteBytesPerSecond(), settings.serviceCapacity());
    this.mode = gears.settings().mode();
    this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "eafr-gear-autopilot");
      thread.setDaemon(true);
      return thread;
    });
  }

  /**
   * Starts sampling and deciding every {@code eafr.gear.auto.interval.ms} beside {@code service}; the read load comes
   * from {@code attribution}.
   */
  public static GearAutopilot start(NameNode nameNode, GearRuntime gears, NamenodeSettings settings,
      ReadAttribution attribution, GearService service) {
    GearAutopilot autopilot = new GearAutopilot(nameNode, gears, settings, attribution, service);
    try {
      autopilot.mode = autopilot.store.readMode(autopilot.mode).orElse(autopilot.mode);
    } catch (IOException e) {
      LOG.error("EAFR gears: could not read the persisted gear mode; it is read again at every decision", e);
    }
    long interval = gears.settings().autoIntervalMillis();
    autopilot.scheduler.scheduleWithFixedDelay(autopilot::tickSafely, interval, interval, TimeUnit.MILLISECONDS);
    return autopilot;
  }

  private void tickSafely() {
    try {
      tick();
    } catch (Exception | Error e) { // keep deciding: the next tick samples afresh
      LOG.error("EAFR gears: auto: decision failed", e);
    }
  }

  /** One sample and, in auto mode with the gear steady on the active NameNode, one decision. Tests call it too. */
  synchronized void tick() throws IOException {
    mode = store.readMode(gears.settings().mode()).orElse(gears.settings().mode());
    if (!nameNode.isActiveState() || nameNode.getNamesystem().isInSafeMode()) {
      signals.forget();
      controller = null;
      return;
    }
    Optional<LoadSample> load = signals.sample();
    Optional<GearedParts> parts = gears.parts();
    Optional<GearedLayout> layout = parts.map(GearedParts::layout);
    if (load.isPresent() && parts.isPresent()) {
      writeLoad(load.get(), parts.get());
    }
    GearRecord state = gears.state();
    // Reflection held for the grid would keep the gear up until its deadline: decide during the hold too.
    boolean heldReflection = state.phase() == ShiftPhase.REFLECTING && gears.grid().reflectionHeld();
    if (mode != GearMode.AUTO || load.isEmpty() || layout.isEmpty()
        || (state.phase() != ShiftPhase.STEADY && !heldReflection)) {
      return;
    }
    int gearNow = heldReflection ? state.target() : state.gear();
    if (controller == null || controllerLayout != layout.get() || controller.gear() != gearNow) {
      controller = GearController.from(settings.core(), layout.get(), perServer, gearNow,
          Math.min(parts.get().lowestGear(), gearNow), Clock.systemUTC());
      controllerLayout = layout.get();
    }
    EafrSettings core = settings.core();
    controller.targetUtilization(gears.grid().targetUtilization(core.get(EafrSettings.GEAR_TARGET_UTILIZATION),
        core.get(EafrSettings.GEAR_DOWN_MARGIN)));
    ActiveSet failed = service.failed(layout.get(), System.currentTimeMillis());
    GearDecision decision = controller.decide(load.get(), service.nodes().serversOn(layout.get()), failed,
        floor(failed));
    gears.counters().autoDecisions.get(decision.reason()).incrementAndGet();
    AutoDecision decided = new AutoDecision(System.currentTimeMillis(), load.get(), decision);
    if (heldReflection) {
      releaseForGearDown(decided, gearNow);
    } else {
      act(decided);
    }
  }

  /**
   * The sample's write rate, as primary-replica bytes (every replica's bytes / r), sets the geared policy's write
   * offloading for the coming interval (Rabbit's offloaded share, SpringFS's offload set m); nothing when one
   * DataNode's write rate is 0 (writes do not limit).
   */
  private void writeLoad(LoadSample load, GearedParts parts) {
    if (perServer.writeBytesPerSecond() > 0) {
      int replicas = settings.core().get(EafrSettings.GEAR_REPLICAS);
      parts.writes().writeLoad(load.writeBytesPerSecond() / replicas, perServer.writeBytesPerSecond());
    }
  }

  /**
   * During reflection held for the grid, a decision to shift down ends the hold (a gear-down starts only once
   * reflection has run); the gear-down itself is decided again once the gear is steady.
   */
  private void releaseForGearDown(AutoDecision decided, int gearNow) {
    lastDecision = decided;
    if (decided.decision.shifts() && decided.decision.targetGear() < gearNow && gears.grid().gearDownAsked()) {
      controller = null;
      LOG.info("EAFR gears: auto: {}; reflection held for the grid released now, the gear-down follows it",
          decided.describe());
    }
  }

  private void act(AutoDecision decided) throws IOException {
    GearDecision decision = decided.decision;
    lastDecision = decided;
    if (!decision.shifts()) {
      if (loggedHold) {
        LOG.debug("EAFR gears: auto: {}", decided.describe());
      } else {
        LOG.info("EAFR gears: auto: {}", decided.describe());
        loggedHold = true;
      }
      return;
    }
    loggedHold = false;
    try {
      service.requestGear(decision.targetGear(), decision.reason());
    } catch (IllegalStateException | IllegalArgumentException refused) {
      controller = null; // its gear moved with the decision: rebuild it at the gear in force
      LOG.warn("EAFR gears: auto: {}; refused: {}", decided.describe(), refused.getMessage());
      return;
    }
    gears.counters().autoShifts.incrementAndGet();
    lastShift = decided;
    LOG.info("EAFR gears: auto: {}; shift started", decided.describe());
  }

  /**
   * The floor the controller asks about each gear it considers: the gear running now needs no walk (its blocks are
   * wherever they are; raising it after failures is the recovery waker's job), and a gear found unsafe is remembered
   * for one dwell time, so a steady low load that the floor holds up costs one availability walk per dwell time.
   */
  private GearFloor floor(ActiveSet failed) {
    ActiveSet running = controller.staysOn(controller.gear(), failed);
    NamespaceFloor namespace = service.nodes().floor();
    long dwell = settings.core().get(EafrSettings.GEAR_MIN_DWELL_MS);
    return new GearFloor() {
      @Override
      public CleanupWork cleanupFor(ActiveSet staysOn) {
        return namespace.cleanupFor(staysOn);
      }

      @Override
      public Optional<UnavailableBlock> firstUnavailable(ActiveSet staysOn) {
        if (staysOn.equals(running)) {
          return Optional.empty();
        }
        long now = Time.monotonicNow();
        if (unsafe != null && unsafe.gear.equals(staysOn) && now - unsafe.foundAt < dwell) {
          return Optional.of(unsafe.block);
        }
        Optional<UnavailableBlock> gap = namespace.firstUnavailable(staysOn);
        unsafe = gap.map(block -> new UnsafeGear(staysOn, block, now)).orElse(null);
        return gap;
      }
    };
  }

  /** {@code hdfs eafr gear auto}: hands the gear to the controller, persisted; refused on a standby NameNode. */
  public synchronized String enable() throws IOException {
    if (!nameNode.isActiveState()) {
      throw new IllegalStateException("this NameNode is not active: ask the active NameNode");
    }
    GearMode before = mode();
    store.writeMode(GearMode.AUTO, gears.settings().mode());
    mode = GearMode.AUTO;
    controller = null;
    loggedHold = false;
    LOG.info("EAFR gears: mode auto (was {}); the controller decides every {} ms", before.word(),
        gears.settings().autoIntervalMillis());
    return "gear mode auto" + (before == GearMode.AUTO ? " (already)" : " (was manual)") + ": the gear controller"
        + " decides every " + gears.settings().autoIntervalMillis() + " ms from the NameNode's load; gear "
        + gears.state().gear() + " now";
  }

  /**
   * An operator's gear command ({@code gear N|up|down}), run under this autopilot's lock so no decision interleaves;
   * once the command is accepted the mode is manual (persisted). A refused command changes nothing, the mode neither.
   */
  public synchronized String manual(GearCommand command) throws IOException {
    String answer = command.run();
    if (mode() == GearMode.AUTO) {
      store.writeMode(GearMode.MANUAL, gears.settings().mode());
      mode = GearMode.MANUAL;
      LOG.info("EAFR gears: mode manual (was auto), by an operator's gear command");
      return answer + "; gear mode manual (was auto)";
    }
    return answer;
  }

  /** The mode in force on this NameNode (as last read from the namespace). */
  public GearMode mode() {
    return mode;
  }

  /** The controller's latest decision on this NameNode; empty before the first one in auto mode. */
  public Optional<AutoDecision> lastDecision() {
    return Optional.ofNullable(lastDecision);
  }

  /** The latest decision that started a shift; empty before the first. */
  public Optional<AutoDecision> lastShift() {
    return Optional.ofNullable(lastShift);
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }

  /** A manual gear command to run in place of a decision. */
  @FunctionalInterface
  public interface GearCommand {
    String run() throws IOException;
  }

  /** One decision of the controller in auto mode: when, the load it saw, and what it decided. Immutable. */
  public static final class AutoDecision {
    private final long millis;
    private final LoadSample load;
    private final GearDecision decision;

    AutoDecision(long millis, LoadSample load, GearDecision decision) {
      this.millis = millis;
      this.load = load;
      this.decision = decision;
    }

    /** Wall-clock time of the decision, in milliseconds since the epoch. */
    public long millis() {
      return millis;
    }

    public LoadSample load() {
      return load;
    }

    public GearDecision decision() {
      return decision;
    }

    /** One line: the load, the gear and the reason (and the block that held the floor up, if one did). */
    public String describe() {
      return String.format(Locale.ROOT, "load %.0f opens/s, %.1f MB/s written, %.0f xceivers (%s DataNodes needed)"
          + " -> gear %d (was %d): %s%s", load.readsPerSecond(), load.writeBytesPerSecond() / 1e6, load.transfers(),
          decision.serversNeededText(), decision.targetGear(), decision.previousGear(), decision.reason(),
          decision.floorBlock().map(block -> "; floor: " + block.message()).orElse(""));
    }

    @Override
    public String toString() {
      return Instant.ofEpochMilli(millis) + " " + describe();
    }
  }

  /** A gear (its servers on) the floor found unsafe, the block, and when. */
  private static final class UnsafeGear {
    final ActiveSet gear;
    final UnavailableBlock block;
    final long foundAt;

    UnsafeGear(ActiveSet gear, UnavailableBlock block, long foundAt) {
      this.gear = gear;
      this.block = block;
      this.foundAt = foundAt;
    }
  }
}
