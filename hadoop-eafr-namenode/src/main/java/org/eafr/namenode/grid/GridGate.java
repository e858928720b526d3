package org.eafr.namenode.grid;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;
import org.eafr.placement.grid.DeferralScheduler;
import org.eafr.placement.grid.DeferredWork;
import org.eafr.placement.grid.GridMeter;
import org.eafr.placement.grid.GridGap;
import org.eafr.placement.grid.GridSettings;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.placement.grid.GridSignal;
import org.eafr.placement.grid.Objective;
import org.eafr.placement.grid.UtilizationSteering;
import org.eafr.placement.grid.Verdict;
import org.eafr.placement.grid.WorkKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NameNode's grid signal and the core's scheduler for its deferrable work: the gear service's reflection, asked
 * every gear step while files owe moves after a gear-up ({@link #mayReflect}), relayout's moves, asked every relayout
 * step while a relayout runs, and the replication monitor's cold migrations and trimming, asked every round that plans
 * them ({@link #mayRun}). It holds each kind while the forecast has a cleaner (or cheaper) slot before the kind's
 * deadline and releases it at that slot or at the deadline ({@link DeferredWork}, {@link DeferralScheduler}). The
 * autopilot asks it for the gear controller's target utilization each decision ({@link #targetUtilization}: u moved
 * with the forecast within the operator's {@code eafr.grid.utilization.lower} and {@code .raise}, {@link
 * UtilizationSteering}). The deadline is {@code eafr.grid.defer.<kind>.ms} after the kind became due; for reflection
 * also the moment a gear-down is asked while it is held ({@link #gearDownAsked}): no gear-down starts during a shift,
 * so held reflection would otherwise keep the gear up. It also adds the DataNodes' estimated kWh up against the signal
 * ({@link GridMeter}).
 *
 * <p>Without a usable signal for the objective (no file or URL, missing, unreadable, malformed, an HTTP error,
 * without the objective's values, or no slot covering now) every verdict is energy only: the work runs at once; the
 * reason is logged once per change and shown in {@code hdfs eafr status}. A new signal (the file changed) keeps the
 * deadlines and the sums.
 *
 * <p>Worked example ({@code GridGateTest}, the scheduler's example: 30-minute slots forecast at 200, 180, 120, 150,
 * 90, 300 gCO2/kWh from 00:00, longest wait of reflection 3 h): reflection due at 00:00 is held until 02:00 (deadline
 * 03:00), still held at 01:00, released at 02:00; a gear-down asked at 00:40 releases it then (DEADLINE).
 *
 * <p>Thread-safe.
 */
public final class GridGate {
  private static final Logger LOG = LoggerFactory.getLogger(GridGate.class);
  /** The kinds of deferrable work the NameNode schedules against the grid, in status order. */
  public static final List<WorkKind> KINDS = List.of(WorkKind.REFLECTION, WorkKind.RELAYOUT, WorkKind.COLD_MIGRATION,
      WorkKind.TRIM);
  /** The names of {@link #values()} that are words (or null), not numbers. */
  public static final Set<String> WORDS = words();

  private final GridSettings settings;
  private final GridSource source;
  private volatile LongSupplier clock = System::currentTimeMillis;
  private GridSignal signal;
  private DeferredWork deferred;
  private GridMeter meter;
  private UtilizationSteering steering;
  /** The target utilization of the autopilot's last decision, NaN before one. */
  private double lastTarget = Double.NaN;
  private double gramsBefore;
  private double eurosBefore;
  private double lastKwh = Double.NaN;
  /** When each kind became due (files owed it), absent when none is due. */
  private final Map<WorkKind, Long> dueSince = new EnumMap<>(WorkKind.class);
  /** When a gear-down was asked while reflection was held (its deadline then), or Long.MAX_VALUE. */
  private long gearDownAskedAt = Long.MAX_VALUE;
  private String loggedProblem;

  /**
   * @throws InvalidSettingException when {@code eafr.grid.read-latency-bound.ms} is set: the NameNode measures no read
   *     latency per decision, so it could neither release held work nor keep a raised target within the bound, and
   *     a bound it accepted and ignored would promise what it does not do
   */
  public GridGate(GridSettings settings, GridSource source) {
    this.settings = Objects.requireNonNull(settings, "settings");
    double bound = settings.get(GridSettings.READ_LATENCY_BOUND_MS);
    if (bound > 0) {
      throw new InvalidSettingException(GridSettings.READ_LATENCY_BOUND_MS.key(), String.valueOf(bound),
          "0 on the NameNode, which measures no read latency to hold it to (the simulator honours it)");
    }
    this.source = Objects.requireNonNull(source, "source");
    this.deferred = new DeferredWork(new DeferralScheduler(settings, null));
    this.meter = new GridMeter(null);
    this.steering = new UtilizationSteering(settings, null);
  }

  /** Energy only, no signal: what a NameNode without grid settings runs. */
  public static GridGate energyOnly() {
    return new GridGate(GridSettings.defaults(), new GridSignalFile(null));
  }

  /** The time the scheduler reads (epoch milliseconds); tests move it through a fixture's slots. */
  public void clock(LongSupplier now) {
    this.clock = Objects.requireNonNull(now, "now");
  }

  public GridSettings settings() {
    return settings;
  }

  /**
   * Whether reflection runs now, with {@code owedFiles} files owing moves: true when none does, or the scheduler
   * releases it; false while it is held for a cleaner or cheaper slot before its deadline.
   */
  public boolean mayReflect(long owedFiles) {
    return mayRun(WorkKind.REFLECTION, owedFiles, 0);
  }

  /**
   * Whether {@code kind} work ({@link #KINDS}: the gear service's reflection, relayout's moves, the replication
   * monitor's cold migrations and trimming) runs now, with {@code pendingFiles} files owing it (relayout: 1 while it
   * runs): true when none does, or the scheduler
   * releases it; false while it is held for a cleaner or cheaper slot before its deadline, which is {@code
   * eafr.grid.defer.<kind>.ms} after the kind became due here (for reflection also a gear-down asked meanwhile).
   * A caller that asks only every {@code periodMillis} (the monitor's round) has its work released at the latest one
   * period before the deadline, so it starts before it.
   */
  public synchronized boolean mayRun(WorkKind kind, long pendingFiles, long periodMillis) {
    long now = clock.getAsLong();
    refresh(now);
    if (pendingFiles <= 0) {
      dueSince.remove(kind);
      if (kind == WorkKind.REFLECTION) {
        gearDownAskedAt = Long.MAX_VALUE;
      }
      deferred.mayRun(kind, 0, now, 0, Long.MAX_VALUE);
      return true;
    }
    long since = dueSince.computeIfAbsent(kind, k -> now);
    boolean wasHeld = deferred.held(kind);
    long deadline = Math.min(kind == WorkKind.REFLECTION ? gearDownAskedAt : Long.MAX_VALUE,
        since + settings.maxWaitMillis(kind));
    boolean run = deferred.mayRun(kind, (int) Math.min(Integer.MAX_VALUE, pendingFiles), now, periodMillis,
        deadline);
    Verdict verdict = deferred.lastVerdict(kind);
    if (!run && !wasHeld) {
      LOG.info("EAFR grid: {} held for a {} slot: {}", work(kind, pendingFiles),
          settings.objective() == Objective.PRICE ? "cheaper" : "cleaner", verdict.describe());
    } else if (run && wasHeld) {
      LOG.info("EAFR grid: {} released after {} s: {}", work(kind, pendingFiles), (now - since) / 1000,
          verdict.describe());
    }
    return run;
  }

  /** The work a log line names: "reflection of 3 files", or "relayout" (a relayout's files are not counted ahead). */
  private static String work(WorkKind kind, long pendingFiles) {
    return kind == WorkKind.RELAYOUT ? kind.key() : kind.key() + " of " + pendingFiles + " files";
  }

  /** Whether {@code kind} work is held for a cleaner or cheaper slot now (what a preview of the work reports). */
  public synchronized boolean held(WorkKind kind) {
    return deferred.held(kind);
  }

  /** Why {@code kind} work waits now, for a log line or a preview: its verdict; null when it is not held. */
  public synchronized String heldWhy(WorkKind kind) {
    return deferred.held(kind) ? deferred.lastVerdict(kind).describe() : null;
  }

  /**
   * A gear-down was asked while reflection is under way (refused, as every shift during another): held reflection
   * becomes due now, so the gear-down can start once it has ended. Returns whether reflection was held.
   */
  public synchronized boolean gearDownAsked() {
    if (!deferred.held(WorkKind.REFLECTION)) {
      return false;
    }
    gearDownAskedAt = Math.min(gearDownAskedAt, clock.getAsLong());
    return true;
  }

  /**
   * The gear controller's target utilization now for the operator's u ({@code eafr.gear.target-utilization}) and
   * down margin h: u - {@code eafr.grid.utilization.lower} in the cleanest (cheapest) slot of the forecast horizon,
   * u + {@code .raise} in the dirtiest, in between by the rank of now ({@link UtilizationSteering}); u itself with
   * both at 0 (the default), energy as the objective or no usable signal. The controller's availability floor still
   * decides every gear.
   */
  public synchronized double targetUtilization(double u, double h) {
    long now = clock.getAsLong();
    refresh(now);
    lastTarget = steering.target(now, u, h, Double.NaN);
    return lastTarget;
  }

  /** Whether reflection is held for a cleaner or cheaper slot now. */
  public boolean reflectionHeld() {
    return held(WorkKind.REFLECTION);
  }

  /** Adds the energy drawn since the last call, given the DataNodes' kWh since the NameNode started. */
  public synchronized void energyUsed(double kwhSinceStart) {
    long now = clock.getAsLong();
    refresh(now);
    if (!Double.isNaN(lastKwh) && kwhSinceStart > lastKwh) {
      meter.add(now, kwhSinceStart - lastKwh);
    }
    lastKwh = kwhSinceStart;
  }

  /**
   * The grid as {@code hdfs eafr status} and the metrics show it, by JMX-style name: the objective, the signal, the
   * fallback reason (null when the signal is used or the objective is energy), the intensity and price now (null
   * when the signal has none now), gCO2 and EUR since start (null without carbon or price values), whether
   * reflection is held, until when and its deadline.
   */
  public synchronized Map<String, Object> values() {
    long now = clock.getAsLong();
    refresh(now);
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("GridObjective", settings.objective().toString());
    values.put("GridSignal", signal == null ? null : describe(signal));
    values.put("GridSignalProblem", signal == null ? source.problem() : null);
    values.put("GridFallback", fallback(now));
    boolean covered = signal != null && signal.covers(now);
    values.put("GridCarbonIntensity", covered ? known(signal.carbonAt(now)) : null);
    values.put("GridPrice", covered ? known(signal.priceAt(now)) : null);
    values.put("GridCarbon", known(gramsBefore + meter.gramsCo2()));
    values.put("GridCost", known(eurosBefore + meter.euros()));
    values.put("GridTargetUtilization", known(lastTarget));
    for (WorkKind kind : KINDS) {
      boolean held = deferred.held(kind);
      Verdict verdict = held ? deferred.lastVerdict(kind) : null;
      String name = valueName(kind);
      values.put(name + "Held", held ? 1L : 0L);
      values.put(name + "HeldUntil", verdict == null ? null : Instant.ofEpochMilli(verdict.runAtMillis()).toString());
      values.put(name + "Deadline", verdict == null ? null : Instant.ofEpochMilli(verdict.deadlineMillis()).toString());
      values.put(name + "DeadlineSeconds", verdict == null ? null : verdict.deadlineMillis() / 1000.0);
    }
    return values;
  }

  /** Rebuilds the scheduler and the meter when the file gives another signal; logs a change of fallback once. */
  private void refresh(long now) {
    GridSignal current = source.current().orElse(null);
    if (current != signal) {
      if (signal != null) {
        gramsBefore += zeroIfNaN(meter.gramsCo2());
        eurosBefore += zeroIfNaN(meter.euros());
      }
      signal = current;
      deferred = new DeferredWork(new DeferralScheduler(settings, current));
      meter = new GridMeter(current);
      steering = new UtilizationSteering(settings, current);
      if (current != null) {
        LOG.info("EAFR grid: signal read: {}", describe(current));
      }
    }
    String fallback = fallback(now);
    // With energy as the objective a configured file's problem is only the accounting's (gCO2 and EUR n/a).
    String problem = fallback != null ? fallback : signal == null && source.configured() ? source.problem() : null;
    if (!Objects.equals(problem, loggedProblem)) {
      if (fallback != null) {
        LOG.warn("EAFR grid: {}; deferrable work runs at once (energy only) until a signal covers now", fallback);
      } else if (problem != null) {
        LOG.warn("EAFR grid: {}; gCO2 and EUR are not counted until it is readable", problem);
      } else if (settings.objective() != Objective.ENERGY) {
        LOG.info("EAFR grid: the signal covers now; deferrable work is scheduled for {}", settings.objective());
      }
      loggedProblem = problem;
    }
  }

  /** Why work is scheduled for energy only although the objective is carbon or price; null when it is not. */
  private String fallback(long now) {
    Objective objective = settings.objective();
    if (objective == Objective.ENERGY) {
      return null;
    }
    if (signal == null) {
      return source.problem();
    }
    if (!signal.supports(objective)) {
      return "the signal " + signal.name() + " has no " + (objective == Objective.PRICE ? "price" : "carbon")
          + " values";
    }
    if (!signal.covers(now)) {
      return "the signal " + signal.name() + " is stale: it covers " + Instant.ofEpochMilli(signal.startMillis())
          + " to " + Instant.ofEpochMilli(signal.endMillis()) + ", not now";
    }
    return null;
  }

  /** The prefix of {@code kind}'s entries in {@link #values()}: "Reflection", "Relayout", "ColdMigration", "Trim". */
  public static String valueName(WorkKind kind) {
    StringBuilder name = new StringBuilder();
    for (String word : kind.key().split("-")) {
      name.append(Character.toUpperCase(word.charAt(0))).append(word.substring(1));
    }
    return name.toString();
  }

  private static Set<String> words() {
    Set<String> words = new LinkedHashSet<>(List.of("GridObjective", "GridSignal", "GridSignalProblem",
        "GridFallback"));
    for (WorkKind kind : KINDS) {
      words.add(valueName(kind) + "HeldUntil");
      words.add(valueName(kind) + "Deadline");
    }
    return Collections.unmodifiableSet(words);
  }

  private static String describe(GridSignal signal) {
    return signal.name() + ": " + signal.slots() + " slots of " + signal.stepMillis() / 60_000 + " min from "
        + Instant.ofEpochMilli(signal.startMillis()) + " to " + Instant.ofEpochMilli(signal.endMillis())
        + (signal.hasCarbon() ? ", carbon" : "") + (signal.hasPrice() ? ", price" : "") + gaps(signal);
  }

  /** The signal's gaps in a line: how many, their slots, the first one; empty without gaps. */
  private static String gaps(GridSignal signal) {
    List<GridGap> gaps = signal.gaps();
    if (gaps.isEmpty()) {
      return "";
    }
    int slots = gaps.stream().mapToInt(GridGap::slots).sum();
    return "; " + gaps.size() + " gap(s), " + slots + " slot(s) filled, first: " + gaps.get(0).describe();
  }

  private static Double known(double value) {
    return Double.isNaN(value) ? null : value;
  }

  private static double zeroIfNaN(double value) {
    return Double.isNaN(value) ? 0 : value;
  }
}
