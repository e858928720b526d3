package org.eafr.sim.stats;

import java.util.LinkedHashMap;
import java.util.Map;
import org.eafr.placement.power.EnergyMeter;
import org.eafr.placement.recovery.RecoveryFailure;

/**
 * Collects one policy's metrics during a run (the per-run stats object of the Caffeine simulator's design): read
 * latency, replication time by size group, utilization reports, maintenance overhead, recovery batches, and the
 * core's {@link EnergyMeter}. {@link #result} turns them into a {@link RunResult}.
 */
public final class RunStats {
  /** Replication size groups of EAFR Fig. 8(a): 1, 10, 100, 1,000 and 10,000 MB. */
  public static final int[] SIZE_GROUPS_MB = {1, 10, 100, 1_000, 10_000};
  private static final long TEN_MS = 10_000;

  private final LatencyHistogram reads = new LatencyHistogram(TEN_MS);
  private long failedReads;
  private long wakeReads;
  private long singleReplicaReads;
  private long readsByServingReplicas;
  private final double[] replicationSeconds = new double[SIZE_GROUPS_MB.length];
  private final long[] replicationCounts = new long[SIZE_GROUPS_MB.length];
  private long replications;
  private final DoubleList utilization = new DoubleList();
  private final DoubleList overloadedShares = new DoubleList();
  private final double[] maintenance;
  private final boolean[] updated;
  private long deferredUpdates;
  private final DoubleList recoverySeconds = new DoubleList();
  private long recoveredReplicas;
  private final long[] unrecoverable = new long[RecoveryFailure.values().length];
  private long abandonedRecoveryCopies;
  private final EnergyMeter energy = new EnergyMeter();
  private double machineMicros;
  private double idealMachineMicros;
  private double idealJoules;
  private double dwellIdealMachineMicros;
  private double dwellIdealJoules;
  private long[] serverPowerOns = new long[0];
  private long[] idealPowerOns = new long[0];
  private long[] dwellIdealPowerOns = new long[0];
  private boolean oracleKeepsDwell;
  private double meteredMicros;
  private long cleanupBytes;
  private long reflectionBytes;
  private long gearUps;
  private double fill = Double.NaN;
  private long failedWrites;
  private long shortWrites;
  private long displacedReplicas;
  private double maxServerFill;
  private long gearShifts;
  private double gearUpReads;
  private double gearUpJoules;
  private boolean oracle;
  private double powerProportionality = Double.NaN;
  private double recoveryGroupServers = Double.NaN;
  /** Non-null when the run is accounted against a grid signal. */
  private GridAccount grid;

  public RunStats(int files) {
    this.maintenance = new double[files];
    this.updated = new boolean[files];
  }

  public void read(long latencyMicros) {
    reads.record(latencyMicros);
  }

  public void failedRead() {
    failedReads++;
  }

  /** A read found no holder awake and waited for a sleeping one to wake (the wait is in its latency). */
  public void readWaitedForWake() {
    wakeReads++;
  }

  /** {@code copies} concurrent reads of one file arrived while {@code servingReplicas} of its holders served reads. */
  public void readFanOut(int copies, int servingReplicas) {
    readsByServingReplicas += (long) copies * servingReplicas;
    if (servingReplicas == 1) {
      singleReplicaReads += copies;
    }
  }

  /** One replication transfer of a file of {@code bytes}, taking {@code micros}. */
  public void replication(long bytes, long micros) {
    int group = sizeGroup(bytes);
    replicationSeconds[group] += micros / 1e6;
    replicationCounts[group]++;
    replications++;
  }

  /** The group whose size is nearest to {@code bytes} on a log scale. */
  public static int sizeGroup(long bytes) {
    double mb = bytes / 1e6;
    int group = (int) Math.round(Math.log10(Math.max(mb, 1e-9)));
    return Math.max(0, Math.min(SIZE_GROUPS_MB.length - 1, group));
  }

  /** One reported utilization value: the maximum of 10 one-minute samples of a server (EAFR Sec. 4.1.4). */
  public void utilization(double value) {
    utilization.add(value);
  }

  /** The share of awake servers overloaded in one 10-minute report. */
  public void overloadedShare(double share) {
    overloadedShares.add(share);
  }

  /** One update of {@code file} reached one replica after {@code micros}; the file is {@code sizeBytes} big. */
  public void update(int file, long micros, long sizeBytes) {
    maintenance[file] += (micros / 1e3) * (sizeBytes / 1e6);
    updated[file] = true;
  }

  /** An update to a replica on a sleeping server, postponed until it wakes (EAFR Sec. 4.1.5). */
  public void deferredUpdate() {
    deferredUpdates++;
  }

  public void recoveryBatch(long micros, int replicas) {
    recoverySeconds.add(micros / 1e6);
    recoveredReplicas += replicas;
  }

  /** A failed server's file that its recovery plan could not re-replicate, and why. */
  public void unrecoverable(RecoveryFailure reason) {
    unrecoverable[reason.ordinal()]++;
  }

  /**
   * A planned recovery copy that did not land: its source or target failed, its source no longer holds the file, or
   * another copy put the file on its target first.
   */
  public void abandonedRecoveryCopy() {
    abandonedRecoveryCopies++;
  }

  /**
   * One control or sample period of {@code micros}: {@code powered} servers were on (awake or waking); the ideal
   * (SpringFS Sec. 5.2) would have kept {@code idealServers} on, drawing {@code idealWatts} in all.
   */
  public void period(long micros, int powered, int idealServers, double idealWatts) {
    machineMicros += (double) powered * micros;
    idealMachineMicros += (double) idealServers * micros;
    idealJoules += idealWatts * micros / 1e6;
    meteredMicros += micros;
  }

  /**
   * The same period under the ideal that keeps the gear controller's minimum dwell ({@link IdealSchedule}):
   * {@code servers} on, drawing {@code watts} in all.
   */
  public void dwellIdealPeriod(long micros, int servers, double watts) {
    dwellIdealMachineMicros += (double) servers * micros;
    dwellIdealJoules += watts * micros / 1e6;
  }

  /** How often each server came up from sleep in the run. */
  public void serverPowerOns(long[] perServer) {
    serverPowerOns = perServer.clone();
  }

  /** How often the ideal's and the dwell-bounded ideal's servers were switched on. */
  public void idealPowerOns(long[] ideal, long[] dwellIdeal) {
    idealPowerOns = ideal.clone();
    dwellIdealPowerOns = dwellIdeal.clone();
  }

  /** Accounts the run against a grid signal: its metrics join the result. */
  public void grid(GridAccount account) {
    this.grid = account;
  }

  /** The grid account, or null. */
  public GridAccount grid() {
    return grid;
  }

  /** {@code joules} drawn by all servers over the sample period starting at run time {@code runMillis}. */
  public void gridEnergy(long runMillis, double joules) {
    if (grid != null) {
      grid.serverEnergy(runMillis, joules);
    }
  }

  /** A background move of {@code bytes} landed at run time {@code runMillis}. */
  public void gridMove(long runMillis, long bytes) {
    if (grid != null) {
      grid.moved(runMillis, bytes);
    }
  }

  /** A finished move of {@code bytes}: cleanup before servers sleep, or reflection / migration after they wake. */
  public void moved(long bytes, boolean cleanup) {
    if (cleanup) {
      cleanupBytes += bytes;
    } else {
      reflectionBytes += bytes;
    }
  }

  /** The gear controller shifted; {@code up} when to a higher gear. */
  public void gearShift(boolean up) {
    gearShifts++;
    gearUps += up ? 1 : 0;
  }

  /** During a gear-up (until its reflection is done) {@code reads} were served while the cluster drew {@code joules}. */
  public void gearUpPeriod(double reads, double joules) {
    gearUpReads += reads;
    gearUpJoules += joules;
  }

  /** Stored bytes over the servers' raw capacity once the initial files are placed. */
  public void initialFill(double share) {
    fill = share;
  }

  /**
   * A file version (initial or rewritten) got {@code placed} of the {@code wanted} replicas its policy meant to give
   * it (0: whatever it placed was meant): none is a failed write (HDFS fails the write), fewer a short one.
   */
  public void write(int placed, int wanted) {
    failedWrites += placed == 0 ? 1 : 0;
    shortWrites += placed > 0 && placed < wanted ? 1 : 0;
  }

  /** The fullest server's peak stored bytes over its raw capacity. */
  public void maxServerFill(double share) {
    maxServerFill = share;
  }

  /** Replicas a geared layout put off their home because the home was full. */
  public void displacedReplicas(long replicas) {
    displacedReplicas = replicas;
  }

  /**
   * This run is the "ideal" oracle: it reports the ideal's machine-hours, energy and power cycles as its own (the
   * dwell-bounded ideal's when {@code keepsDwell}), and no read latency (the oracle is a bound, not a system that
   * serves reads).
   */
  public void reportAsIdeal(boolean keepsDwell) {
    oracle = true;
    oracleKeepsDwell = keepsDwell;
  }

  /**
   * A geared layout's degree of power proportionality (Rabbit Sec. 3.4), the least over its gears from 5% of the
   * servers up, and the most servers a failed server's recovery group wakes (Sec. 3.5).
   */
  public void layoutShape(double proportionality, int recoveryGroup) {
    powerProportionality = proportionality;
    recoveryGroupServers = recoveryGroup;
  }

  public EnergyMeter energy() {
    return energy;
  }

  public LatencyHistogram reads() {
    return reads;
  }

  /** The metrics, in report order, given what only the simulator knows at the end. */
  public Map<String, Double> result(EndState end) {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("reads", (double) reads.count());
    m.put("failed_reads", (double) failedReads);
    m.put("read_mean_ms", oracle ? Double.NaN : reads.mean() / 1e3);
    m.put("read_p1_ms", oracle ? Double.NaN : reads.percentile(1) / 1e3);
    m.put("read_p50_ms", oracle ? Double.NaN : reads.percentile(50) / 1e3);
    m.put("read_p99_ms", oracle ? Double.NaN : reads.percentile(99) / 1e3);
    m.put("read_over_10ms", oracle ? Double.NaN : reads.shareAbove());
    long issued = reads.count() + failedReads;
    m.put("reads_waited_wake", (double) wakeReads);
    m.put("reads_one_awake_replica_share", issued == 0 ? Double.NaN : (double) singleReplicaReads / issued);
    m.put("awake_replicas_per_read", issued == 0 ? Double.NaN : (double) readsByServingReplicas / issued);
    for (int g = 0; g < SIZE_GROUPS_MB.length; g++) {
      m.put("repl_" + SIZE_GROUPS_MB[g] + "MB_s",
          replicationCounts[g] == 0 ? Double.NaN : replicationSeconds[g] / replicationCounts[g]);
    }
    m.put("replications", (double) replications);
    double kwhPerDay = energy.meteredMillis() > 0 ? energy.kilowattHoursPerDay() : 0.0;
    m.put("energy_kwh_day", oracle ? kwhPerDay(oracleKeepsDwell ? dwellIdealJoules : idealJoules) : kwhPerDay);
    double hours = (oracle ? (oracleKeepsDwell ? dwellIdealMachineMicros : idealMachineMicros) : machineMicros) / 3.6e9;
    m.put("machine_hours", hours);
    m.put("ideal_machine_hours", idealMachineMicros / 3.6e9);
    m.put("machine_hours_vs_ideal", idealMachineMicros > 0 ? hours / (idealMachineMicros / 3.6e9) : Double.NaN);
    m.put("dwell_ideal_machine_hours", dwellIdealMachineMicros / 3.6e9);
    m.put("machine_hours_vs_dwell_ideal", dwellIdealMachineMicros > 0 ? hours / (dwellIdealMachineMicros / 3.6e9)
        : Double.NaN);
    long[] powerOns = oracle ? (oracleKeepsDwell ? dwellIdealPowerOns : idealPowerOns) : serverPowerOns;
    double days = meteredMicros / 8.64e10;
    m.put("power_cycles_mean_day", cyclesPerDay(powerOns, days, false));
    m.put("power_cycles_max_day", cyclesPerDay(powerOns, days, true));
    m.put("migrated_gb", (cleanupBytes + reflectionBytes) / 1e9);
    m.put("cleanup_gb", cleanupBytes / 1e9);
    m.put("reflection_gb", reflectionBytes / 1e9);
    m.put("gear_shifts", (double) gearShifts);
    m.put("gear_ups", (double) gearUps);
    m.put("power_proportionality", powerProportionality);
    m.put("recovery_group_servers", recoveryGroupServers);
    m.put("gear_up_reads_per_joule", gearUpJoules > 0 ? gearUpReads / gearUpJoules : Double.NaN);
    m.put("util_p1", utilization.percentile(1));
    m.put("util_p50", utilization.percentile(50));
    m.put("util_p99", utilization.percentile(99));
    m.put("overloaded_share", overloadedShares.mean());
    m.put("storage_tb", end.storageBytes() / 1e12);
    m.put("replicas_per_file", end.replicasPerFile());
    m.put("fill", fill);
    m.put("failed_writes", (double) failedWrites);
    m.put("short_writes", (double) shortWrites);
    m.put("displaced_replicas", (double) displacedReplicas);
    m.put("max_server_fill", maxServerFill);
    DoubleList overheads = new DoubleList();
    for (int f = 0; f < maintenance.length; f++) {
      if (updated[f]) {
        overheads.add(maintenance[f]);
      }
    }
    m.put("maint_p1", overheads.percentile(1));
    m.put("maint_p50", overheads.percentile(50));
    m.put("maint_p99", overheads.percentile(99));
    m.put("deferred_updates", (double) deferredUpdates);
    m.put("success_lambda_0.1", end.successAt01());
    m.put("success_lambda_0.2", end.successAt02());
    m.put("recovery_mean_s", recoverySeconds.size() == 0 ? Double.NaN : recoverySeconds.mean());
    m.put("recovered_replicas", (double) recoveredReplicas);
    long total = abandonedRecoveryCopies;
    for (long files : unrecoverable) {
      total += files;
    }
    m.put("unrecoverable", (double) total);
    m.put("unrecoverable_no_replica", (double) unrecoverable[RecoveryFailure.NO_LIVE_REPLICA.ordinal()]);
    m.put("unrecoverable_no_room", (double) unrecoverable[RecoveryFailure.NO_DESTINATION_WITH_ROOM.ordinal()]);
    m.put("recovery_copies_abandoned", (double) abandonedRecoveryCopies);
    m.put("cold_servers", (double) end.coldServers());
    m.put("events", (double) end.events());
    if (grid != null) {
      m.putAll(grid.metrics(meteredMicros > 0 ? meteredMicros / 8.64e10 : 1));
    }
    return m;
  }

  private double kwhPerDay(double joules) {
    return meteredMicros > 0 ? joules / 3.6e6 / (meteredMicros / 8.64e10) : 0.0;
  }

  /** Power-ons per server per day over {@code days}: the mean over servers, or the most of one server. */
  static double cyclesPerDay(long[] powerOns, double days, boolean most) {
    if (powerOns.length == 0 || days <= 0) {
      return Double.NaN;
    }
    long total = 0;
    long max = 0;
    for (long count : powerOns) {
      total += count;
      max = Math.max(max, count);
    }
    return (most ? max : (double) total / powerOns.length) / days;
  }

  /** What the simulator reports at the end of a run. */
  public record EndState(long storageBytes, double replicasPerFile, double successAt01, double successAt02,
      int coldServers, long events) {
  }
}
