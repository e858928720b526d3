package org.eafr.namenode.monitor;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.eafr.namenode.cluster.Metric;
import org.eafr.namenode.energy.EnergySnapshot;
import org.eafr.namenode.gear.GearMode;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.gear.GearStatus;
import org.eafr.namenode.grid.GridGate;
import org.eafr.namenode.power.DataNodePowerState;
import org.eafr.namenode.replication.MonitorStats;
import org.eafr.namenode.transfer.TransferTracker;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.gear.GearReason;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.grid.WorkKind;
import org.eafr.placement.popularity.FileTemperature;

/**
 * EAFR's metrics2 source on the NameNode (JMX {@code Hadoop:service=NameNode,name=EafrNameNode}, and the /prom page
 * with {@code hadoop.prometheus.endpoint.enabled}, each name there {@code eafr_name_node_} and the name below in snake
 * case): files per class and nodes per role as of the last round, replicas added, removed and migrated, bytes copied,
 * rounds, time spent deciding, and the DataNode-to-DataNode copies timed for the transfer-speed EWMA (Eq. 9); the gears
 * ({@link GearStatus}: gear, target gear, sleeping DataNodes, reflection backlog, shifts, refusals, power failures,
 * blocks reflected, the autopilot's decisions by reason); and the energy estimate ({@link EnergySnapshot}: DataNodes
 * per power state, watts now and all on, kWh used and saved since start).
 *
 * <p>Every series is there from the start with the same labels (Hadoop's {@code context} and {@code hostname} only):
 * states in words (layout, gear phase, layout problem, gear mode, the last auto decision) are attributes of the
 * {@link EafrGears} bean and lines of {@code hdfs eafr status}, never tags, since a tag is a label of every series on
 * /prom and a changing label starts new series. Each word-state an alert needs is a 0/1 gauge here
 * ({@code GearShiftUnderWay}, {@code GearsCannotRun}, {@code GearAutoMode}). Each DataNode's role and power state are
 * in the {@link EafrDataNodes} bean for the same reason.
 */
public final class EafrMetrics implements MetricsSource {
  public static final String NAME = "EafrNameNode";

  /** The gear status's numbers, by their name in {@link GearStatus}. */
  static final Map<String, Metric> GEAR_METRICS = gearMetrics();
  /** The energy sample's numbers, by their name in {@link EnergySnapshot}. */
  static final Map<String, Metric> ENERGY_METRICS = energyMetrics();

  private static final Metric SHIFT_UNDER_WAY = Metric.gauge("GearShiftUnderWay",
      "1 while a gear shift is under way (the gear phase is not STEADY), else 0");
  private static final Metric CANNOT_RUN = Metric.gauge("GearsCannotRun",
      "1 when the gear settings build no layout, so every DataNode stays on (the reason is in hdfs eafr status), else 0");
  private static final Metric AUTO_MODE = Metric.gauge("GearAutoMode",
      "1 when the autopilot chooses the gear (gear mode auto), 0 in manual mode");

  private static final Metric GRID_FALLBACK = Metric.gauge("GridSignalFallback",
      "1 when the objective is carbon or price but no usable signal covers now, so work runs for energy only");

  private final MonitorStats stats;
  private final TransferTracker transfers;
  private final GearRuntime gears;
  private final Supplier<EnergySnapshot> energy;

  /** @param energy the energy estimate's latest sample ({@link EnergySnapshot}), or null for none */
  public EafrMetrics(MonitorStats stats, TransferTracker transfers, GearRuntime gears,
      Supplier<EnergySnapshot> energy) {
    this.stats = stats;
    this.transfers = transfers;
    this.gears = gears;
    this.energy = energy;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder record = collector.addRecord(NAME).setContext("dfs");
    addMonitor(record);
    Map<String, Object> gear = GearStatus.of(gears).values();
    addNumbers(record, gear, GEAR_METRICS);
    SHIFT_UNDER_WAY.addTo(record, ShiftPhase.STEADY.name().equals(gear.get("GearPhase")) ? 0 : 1);
    CANNOT_RUN.addTo(record, gear.get("LayoutProblem") == null ? 0 : 1);
    AUTO_MODE.addTo(record, GearMode.AUTO.word().equals(gear.get("GearMode")) ? 1 : 0);
    GRID_FALLBACK.addTo(record, gear.get("GridFallback") == null ? 0 : 1);
    if (energy != null) {
      addNumbers(record, energy.get().values(), ENERGY_METRICS);
    }
  }

  private void addMonitor(MetricsRecordBuilder record) {
    for (FileTemperature temperature : FileTemperature.values()) {
      Metric.gauge(capitalized(temperature.name()) + "Files", "Files classified " + temperature + " in the last round")
          .addTo(record, stats.files(temperature));
    }
    for (ServerRole role : ServerRole.values()) {
      Metric.gauge(capitalized(role.name()) + "Nodes", "DataNodes in role " + role + " in the last round")
          .addTo(record, stats.nodes(role));
    }
    Metric.gauge("FilesBelowMinReplicas",
        "Files whose replication factor was below eafr.min-replicas in the last round (reported, not raised)")
        .addTo(record, stats.filesBelowMinReplicas());
    Metric.gauge("MigrationsOwed", "Cold migrations EAFR on gears owes to DataNodes of gears asleep at the last round")
        .addTo(record, stats.owedMigrations());
    Metric.counter("RoundsTotal", "Replication rounds run").addTo(record, stats.rounds());
    Metric.counter("ReplicasAddedTotal", "Replicas added for hot files").addTo(record, stats.added());
    Metric.counter("ReplicasRemovedTotal", "Replicas removed from cold files").addTo(record, stats.removed());
    Metric.counter("ReplicasMigratedTotal", "Replicas migrated to standby servers").addTo(record, stats.migrated());
    Metric.counter("MovedBytesTotal", "Bytes of file data copied by adds and migrations")
        .addTo(record, stats.bytesMoved());
    Metric.counter("MigratedBytesTotal", "Bytes of file data copied by migrations (to standby servers; with"
        + " eafr-geared, to the gear above)").addTo(record, stats.bytesMigrated());
    Metric.counter("DecidingSecondsTotal", "Seconds spent reading the namespace, classifying and planning")
        .addTo(record, stats.decidingNanos() / 1e9);
    Metric.counter("TransfersTimedTotal", "DataNode-to-DataNode copies timed for the transfer-speed EWMA")
        .addTo(record, transfers.timed());
    Metric.counter("TimedBytesTotal", "Bytes of the copies timed for the transfer-speed EWMA")
        .addTo(record, transfers.timedBytes());
    Metric.counter("TransfersNotTimedTotal", "Copies scheduled but not timed (over the bound, no block, timeout)")
        .addTo(record, transfers.untimed());
  }

  /** Each number of {@code values} under its metric; the words ({@link GearStatus#WORDS}) are the EafrGears bean's. */
  private static void addNumbers(MetricsRecordBuilder record, Map<String, Object> values, Map<String, Metric> metrics) {
    values.forEach((name, value) -> {
      if (GearStatus.WORDS.contains(name)) {
        return;
      }
      Metric metric = metrics.get(name);
      if (metric == null) {
        throw new IllegalStateException("EAFR metric " + name + " has no Prometheus name and help");
      }
      metric.addTo(record, (Number) value);
    });
  }

  private static String capitalized(String upperCase) {
    return upperCase.charAt(0) + upperCase.substring(1).toLowerCase(Locale.ROOT);
  }

  private static Map<String, Metric> gearMetrics() {
    Map<String, Metric> metrics = new LinkedHashMap<>();
    metrics.put("Gear", Metric.gauge("Gear", "The gear in force (NaN before the expansion chain is fixed)"));
    metrics.put("TargetGear", Metric.gauge("TargetGear",
        "The gear a shift under way heads for; the gear in force when steady (NaN before the chain is fixed)"));
    metrics.put("MaximumGear", Metric.gauge("MaximumGear",
        "The top gear, every layout DataNode on (NaN before the expansion chain is fixed)"));
    metrics.put("SleepingNodes", Metric.gauge("SleepingNodes", "DataNodes asleep (powered off) in the gear in force"));
    metrics.put("ReflectionBacklogFiles", Metric.gauge("ReflectionBacklogFiles",
        "Files with moves owed to woken DataNodes, not yet reflected"));
    metrics.put("WakingNodes", Metric.gauge("WakingNodes", "DataNodes being woken out of turn now"));
    counter(metrics, "GearShifts", "Gear shifts started, by an operator or the autopilot");
    counter(metrics, "GearShiftsRefused", "Gear shifts refused (availability check, a shift under way, no layout)");
    counter(metrics, "GearPowerFailures", "Gear shifts held because a host did not reach the power state asked");
    counter(metrics, "BlocksReflected", "Blocks copied back to their homes after a gear-up");
    counter(metrics, "ReflectionMoveFailures", "Reflection copies that failed and were retried later");
    metrics.put("PassiveMigrationBacklogFiles", Metric.gauge("PassiveMigrationBacklogFiles",
        "Files owing SpringFS passive migration to their homes, not yet migrated"));
    counter(metrics, "PassiveMigratedBlocks", "Blocks SpringFS passive migration copied back to their homes");
    counter(metrics, "PassiveMigratedBytes", "Bytes SpringFS passive migration copied back to their homes");
    counter(metrics, "PassiveMigrationsDropped", "Files whose passive migration was dropped, each home it owed"
        + " already holding its equal-work share");
    counter(metrics, "WakesForFailures", "Out-of-turn wakes of a recovery group because a DataNode that should be on"
        + " failed");
    counter(metrics, "WakesForBlocks", "Out-of-turn wakes because a block had no live replica and a sleeping holder");
    counter(metrics, "NodesWoken", "DataNodes woken out of turn");
    counter(metrics, "ReadsWithoutReplica", "Block locations given to a reader with no live replica");
    counter(metrics, "ReReplicationsDeferred", "Re-replications HDFS asked for and the placement policy held back,"
        + " the missing replicas being asleep at their homes (a block asked again counts again)");
    counter(metrics, "GearAutoShifts", "Gear shifts the autopilot started (also counted in gear_shifts_total)");
    for (GearReason reason : GearReason.values()) {
      if (reason != GearReason.MANUAL) {
        counter(metrics, GearStatus.decisionsMetric(reason), "Autopilot decisions with the reason " + reason);
      }
    }
    counter(metrics, "GearAutoDecisions", "Autopilot decisions, every reason (also those that hold the gear)");
    metrics.put("GridCarbonIntensity", Metric.gauge("GridCarbonIntensityGramsPerKwh",
        "The grid signal's carbon intensity now, gCO2/kWh (NaN when the signal has none now)"));
    metrics.put("GridPrice", Metric.gauge("GridPriceEurosPerMwh",
        "The grid signal's day-ahead price now, EUR/MWh (NaN when the signal has none now)"));
    metrics.put("GridCarbon", Metric.counter("GridCarbonGramsTotal",
        "Grams of CO2 of the DataNodes' estimated energy since start, at the signal's intensity (NaN without one)"));
    metrics.put("GridCost", Metric.gauge("GridCostEuros", "Euros of the DataNodes' estimated energy since start, at"
        + " the signal's price (NaN without one); a gauge, since hours of negative price take euros off"));
    metrics.put("GridTargetUtilization", Metric.gauge("GridTargetUtilization", "The gear controller's target"
        + " utilization at the autopilot's last decision, u moved with the grid signal (NaN before one)"));
    heldWork(metrics, WorkKind.REFLECTION, "GridReflectionHeld", "GridReflectionDeadlineTimestampSeconds");
    heldWork(metrics, WorkKind.RELAYOUT, "GridRelayoutHeld", "GridRelayoutDeadlineTimestampSeconds");
    heldWork(metrics, WorkKind.COLD_MIGRATION, "GridColdMigrationHeld", "GridColdMigrationDeadlineTimestampSeconds");
    heldWork(metrics, WorkKind.TRIM, "GridTrimHeld", "GridTrimDeadlineTimestampSeconds");
    return Collections.unmodifiableMap(metrics);
  }

  /** A kind of deferrable work's metrics: whether it is held for the grid, and its deadline. */
  private static void heldWork(Map<String, Metric> metrics, WorkKind kind, String held, String deadline) {
    String name = GridGate.valueName(kind);
    String work = kind.key().replace('-', ' ');
    metrics.put(name + "Held", Metric.gauge(held,
        "1 while " + work + " is held for a cleaner or cheaper slot of the grid signal, else 0"));
    metrics.put(name + "DeadlineSeconds", Metric.gauge(deadline,
        "Unix time by which held " + work + " is released at the latest (NaN when none is held)"));
  }

  private static void counter(Map<String, Metric> metrics, String name, String help) {
    metrics.put(name, Metric.counter(name + "Total", help));
  }

  private static Map<String, Metric> energyMetrics() {
    Map<String, Metric> metrics = new LinkedHashMap<>();
    for (DataNodePowerState state : DataNodePowerState.values()) {
      String name = EnergySnapshot.perStateName(state);
      metrics.put(name, Metric.gauge(name, "DataNodes whose power state is " + state + " at the last energy sample"));
    }
    metrics.put("WattsNow", Metric.gauge("PowerDrawWatts",
        "Watts the DataNodes draw at the last energy sample: BMC readings where fresh, else the power model"));
    metrics.put("WattsMeasured", Metric.gauge("PowerDrawMeasuredWatts",
        "The part of PowerDrawWatts that BMCs measured (the rest is the power model's)"));
    metrics.put("WattsAllOn", Metric.gauge("PowerDrawAllOnWatts",
        "Watts the DataNodes would draw at the last energy sample with every one on"));
    metrics.put("EnergyUsedKwh", Metric.counter("EnergyUsedKwhTotal",
        "Kilowatt hours the DataNodes used since the NameNode started (measured where BMCs report, else modelled)"));
    metrics.put("EnergyMeasuredKwh", Metric.counter("EnergyUsedMeasuredKwhTotal",
        "The part of EnergyUsedKwhTotal integrated from BMC readings (the rest is the power model's)"));
    metrics.put("EnergySavedKwh", Metric.counter("EnergySavedKwhTotal",
        "Kilowatt hours saved since the NameNode started against every DataNode on (estimate)"));
    return Collections.unmodifiableMap(metrics);
  }
}
