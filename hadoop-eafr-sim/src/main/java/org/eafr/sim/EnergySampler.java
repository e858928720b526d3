package org.eafr.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.DoubleConsumer;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.gear.LoadSample;
import org.eafr.placement.settings.EafrSettings;
import org.eafr.sim.model.Cluster;
import org.eafr.sim.model.ModelConstants;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.model.SimServer;
import org.eafr.sim.stats.IdealSchedule;
import org.eafr.sim.workload.TraceEvent;
import org.eafr.sim.workload.Workload;

/**
 * Sampling every {@link ModelConstants#SAMPLE_PERIOD_MICROS}: each server's power draw and utilization, the servers
 * powered, and the ideal of SpringFS Sec. 5.2 for the same period (the fewest servers that carry the offered load and
 * hold one copy of the data), plainly and keeping the gear controller's minimum dwell ({@link IdealSchedule}).
 */
final class EnergySampler {
  private final RunState run;
  private final DoubleConsumer progress;
  /** One server's throughput, for the gear controller and the ideal. */
  private final LoadSample perServer;
  private final long[] oneCopyCapacityPrefix;
  private final long oneCopyBytes;
  private final double[] windowMax;
  /** The ideal's servers on without a dwell and with the gear controller's minimum dwell, ranked largest first. */
  private final IdealSchedule ideal;
  private final IdealSchedule dwellIdeal;
  private int samples;
  private long lastSampleMicros;

  EnergySampler(RunState run, LoadSample perServer, DoubleConsumer progress) {
    this.run = run;
    this.progress = progress;
    this.perServer = perServer;
    this.oneCopyCapacityPrefix = capacityPrefix(run.cluster, run.settings.eafr().storageReserveBytes());
    this.oneCopyBytes = run.files.stream().mapToLong(SimFile::sizeBytes).sum();
    this.windowMax = new double[run.cluster.size()];
    this.ideal = new IdealSchedule(run.cluster.size(), 0);
    this.dwellIdeal = new IdealSchedule(run.cluster.size(),
        run.settings.eafr().get(EafrSettings.GEAR_MIN_DWELL_MS) * RunState.MICROS_PER_MILLI);
  }

  LoadSample perServer() {
    return perServer;
  }

  /**
   * One server's throughput, for the gear controller and the ideal: the mean over servers of c_c reads in flight per
   * local service time (reads/s, and the same for replica writes), and of the link speed (bytes/s each way).
   */
  static LoadSample perServerThroughput(Cluster cluster, long[][] serviceMicros) {
    double ops = 0;
    double bytes = 0;
    for (SimServer s : cluster.servers()) {
      ops += s.capacity() / (serviceMicros[s.index()][0] / 1e6);
      bytes += s.linkBytesPerSecond();
    }
    int n = cluster.size();
    return new LoadSample(ops / n, ops / n, bytes / n, bytes / n);
  }

  /**
   * SpringFS Sec. 5.2's server throughput: "the maximum measured total throughput divided by the number of machines",
   * so that the workload's busiest control period needs every server. Total = reads plus writes times the replication
   * (the bytes the ideal counts); reads and writes per second stay the model's.
   */
  static LoadSample tracePeakThroughput(SimSettings settings, Workload workload, long[] sizes, LoadSample model,
      int servers) {
    Map<Long, Double> bytesPerPeriod = new HashMap<>();
    long period = settings.controlMicros();
    try (var reader = workload.open()) {
      for (TraceEvent event = reader.next(); event != null && event.timeMicros() <= settings.durationMicros();
          event = reader.next()) {
        double bytes = switch (event.kind()) {
          case READ -> (double) event.copies() * settings.concurrency()
              * (event.bytesPerCopy() > 0 ? event.bytesPerCopy() : ModelConstants.RESPONSE_BYTES);
          case WRITE -> (double) settings.hdfsReplicas() * ModelConstants.UPDATE_BYTES;
          case REWRITE -> (double) settings.hdfsReplicas() * sizes[event.file()];
        };
        bytesPerPeriod.merge(event.timeMicros() / period, bytes, Double::sum);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    double peak = bytesPerPeriod.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    double perServerBytes = peak / (period / 1e6) / servers;
    return perServerBytes > 0 ? new LoadSample(model.readsPerSecond(), model.writesPerSecond(), perServerBytes,
        perServerBytes) : model;
  }

  /** Prefix sums of the servers' usable storage, largest first: the fewest servers that hold one copy of the data. */
  private static long[] capacityPrefix(Cluster cluster, long reserve) {
    long[] capacities = cluster.servers().stream().mapToLong(s -> Math.max(0, s.storageCapacity() - reserve))
        .sorted().toArray();
    long[] prefix = new long[capacities.length + 1];
    for (int i = 0; i < capacities.length; i++) {
      prefix[i + 1] = prefix[i] + capacities[capacities.length - 1 - i];
    }
    return prefix;
  }

  /** The fewest servers whose storage holds one copy of every file (the ideal's floor, SpringFS Sec. 5.2). */
  int oneCopyServers() {
    int i = Arrays.binarySearch(oneCopyCapacityPrefix, oneCopyBytes);
    int servers = i >= 0 ? i : -i - 1;
    return Math.min(run.cluster.size(), Math.max(1, servers));
  }

  void sample(long now) {
    long period = now - lastSampleMicros;
    samples++;
    int powered = 0;
    int waking = 0;
    double watts = 0;
    for (SimServer server : run.cluster.servers()) {
      double busy = server.takeBusySlotMicros(now);
      double meanUtilization = period == 0 ? 0 : busy / (server.capacity() * (double) period);
      // A waking server counts as asleep, in power and machine-hours, until it is up (sim.wake.seconds, 10 s).
      double draw = run.power.watts(server.role(), meanUtilization);
      watts += draw;
      powered += server.role().servesReads() ? 1 : 0;
      waking += server.wakeAt() >= 0 ? 1 : 0;
      run.stats.energy().record(server.id(), lastSampleMicros / RunState.MICROS_PER_MILLI, draw);
      if (server.role().servesReads()) {
        windowMax[server.index()] = Math.max(windowMax[server.index()],
            (double) server.serving() / server.capacity());
      }
    }
    idealPeriod(period, powered);
    run.stats.gridEnergy(lastSampleMicros / RunState.MICROS_PER_MILLI, watts * period / 1e6);
    if (run.gears != null) {
      run.gears.sampled(waking, watts * period / 1e6);
    }
    lastSampleMicros = now;
    if (samples % ModelConstants.SAMPLES_PER_REPORT == 0) {
      reportUtilization();
    }
    progress.accept((double) now / run.endMicros);
    long next = now + ModelConstants.SAMPLE_PERIOD_MICROS;
    if (now < run.endMicros) {
      run.queue.schedule(Math.min(next, run.endMicros), this::sample);
    }
  }

  /**
   * The ideal of SpringFS Sec. 5.2 for the period just sampled: the fewest servers that carry the clients' load (reads,
   * and writes times HDFS's replication, over one server's throughput), at least those that hold one copy of all data,
   * each at the utilization the load gives it; the others asleep. The dwell-bounded ideal keeps each server it switched
   * on for the gear controller's minimum dwell, its servers sharing the same load.
   */
  private void idealPeriod(long period, int powered) {
    LoadSample load = run.offered.rates(period);
    run.offered.reset();
    double needed = load.serversNeeded(perServer);
    int floor = oneCopyServers();
    int wanted = Math.max(floor, (int) Math.ceil(needed));
    int servers = ideal.period(lastSampleMicros, period, wanted, floor);
    int dwellServers = dwellIdeal.period(lastSampleMicros, period, wanted, floor);
    run.stats.period(period, powered, servers, idealWatts(servers, needed));
    run.stats.dwellIdealPeriod(period, dwellServers, idealWatts(dwellServers, needed));
  }

  private double idealWatts(int servers, double needed) {
    double utilization = Math.min(1.0, needed / servers);
    return servers * run.power.watts(ServerRole.HOT, utilization)
        + (run.cluster.size() - servers) * run.power.watts(ServerRole.COLD, 0);
  }

  private void reportUtilization() {
    int awake = 0;
    int overloaded = 0;
    double threshold = run.settings.eafr().overloadThreshold();
    for (SimServer server : run.cluster.servers()) {
      if (server.role().servesReads()) {
        double u = windowMax[server.index()];
        run.stats.utilization(u);
        awake++;
        if (u > threshold) {
          overloaded++;
        }
      }
      windowMax[server.index()] = 0;
    }
    run.stats.overloadedShare(awake == 0 ? 0 : (double) overloaded / awake);
  }

  /** Closes every server's energy record at the end of the run and gives the ideals' power cycles. */
  void finish() {
    for (SimServer server : run.cluster.servers()) {
      run.stats.energy().record(server.id(), run.endMicros / RunState.MICROS_PER_MILLI, 0.0);
    }
    run.stats.idealPowerOns(ideal.powerOns(), dwellIdeal.powerOns());
  }
}
