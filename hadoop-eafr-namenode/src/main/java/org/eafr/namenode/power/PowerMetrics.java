package org.eafr.namenode.power;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.eafr.namenode.cluster.Metric;

/**
 * The power manager's metrics2 source (JMX {@code Hadoop:service=NameNode,name=EafrPower} once registered, and the
 * /prom page, each name there {@code eafr_power_} and the metric name in snake case): commands sent, state changes
 * reached, failed attempts, retries, refusals and quarantines, counted since the manager started, with gauges of the
 * inventory hosts per last known state, quarantined and busy. {@code hdfs eafr status} shows the counters under the
 * names of {@link #counters()}; each metric's name is in {@link #COUNTERS}.
 */
public final class PowerMetrics implements MetricsSource {
  public static final String NAME = "EafrPower";
  /** Each counter of {@link #counters()} by its name there. */
  static final Map<String, Metric> COUNTERS = Map.of(
      "PowerCommands", Metric.counter("CommandsTotal", "Power commands sent to BMCs (on, graceful-off, forced-off)"),
      "PowerStateReads", Metric.counter("StateReadsTotal", "Power state reads from BMCs and agents"),
      "PoweredOn", Metric.counter("PoweredOnTotal", "Hosts seen reaching ON after a command"),
      "PoweredOff", Metric.counter("PoweredOffTotal", "Hosts seen reaching OFF after a command"),
      "PowerFailedAttempts", Metric.counter("FailedAttemptsTotal",
          "Attempts that failed: command refused, BMC unreachable, state not reached in time"),
      "PowerRetries", Metric.counter("RetriesTotal", "Attempts retried"),
      "PowerRefusals", Metric.counter("RefusalsTotal",
          "Requests refused without trying: busy, quarantined, not in maintenance, unknown host"),
      "PowerQuarantines", Metric.counter("QuarantinesTotal", "Hosts put in quarantine"),
      "PowerMeasurements", Metric.counter("MeasurementsTotal", "Measured power readings taken from BMCs"),
      "PowerPollErrors", Metric.counter("PollErrorsTotal",
          "Background BMC polls (power state or power reading) that failed"));
  private static final Metric NODES_ON = Metric.gauge("NodesOn", "Inventory hosts last seen ON");
  private static final Metric NODES_OFF = Metric.gauge("NodesOff", "Inventory hosts last seen OFF");
  private static final Metric NODES_UNKNOWN = Metric.gauge("NodesUnknown", "Inventory hosts whose state is not known");
  private static final Metric NODES_QUARANTINED = Metric.gauge("NodesQuarantined", "Inventory hosts in quarantine");
  private static final Metric ACTIONS_IN_FLIGHT = Metric.gauge("ActionsInFlight", "Power actions under way");
  private static final Metric NODES_MEASURED = Metric.gauge("NodesMeasured",
      "Inventory hosts with a fresh measured power reading from their BMC");
  private static final Metric MEASURED_WATTS = Metric.gauge("MeasuredWatts",
      "Sum of the fresh measured power readings of the inventory hosts, in watts (hosts without one not included)");

  final LongAdder commands = new LongAdder();
  final LongAdder stateReads = new LongAdder();
  final LongAdder poweredOn = new LongAdder();
  final LongAdder poweredOff = new LongAdder();
  final LongAdder failedAttempts = new LongAdder();
  final LongAdder retries = new LongAdder();
  final LongAdder refusals = new LongAdder();
  final LongAdder quarantines = new LongAdder();
  private final Supplier<List<NodePowerStatus>> nodes;
  private final MeasuredPower measured;

  PowerMetrics(Supplier<List<NodePowerStatus>> nodes, MeasuredPower measured) {
    this.nodes = nodes;
    this.measured = measured;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder record = collector.addRecord(NAME).setContext("dfs");
    counters().forEach((name, value) -> COUNTERS.get(name).addTo(record, value));
    List<NodePowerStatus> statuses = nodes.get();
    NODES_ON.addTo(record, count(statuses, PowerState.ON));
    NODES_OFF.addTo(record, count(statuses, PowerState.OFF));
    NODES_UNKNOWN.addTo(record, count(statuses, PowerState.UNKNOWN));
    NODES_QUARANTINED.addTo(record, statuses.stream().filter(NodePowerStatus::quarantined).count());
    ACTIONS_IN_FLIGHT.addTo(record, statuses.stream().filter(s -> s.inFlight() != null).count());
    long measuredNodes = 0;
    double watts = 0;
    for (NodePowerStatus status : statuses) {
      OptionalDouble reading = measured.watts(status.host(), status.lastKnown());
      if (reading.isPresent()) {
        measuredNodes++;
        watts += reading.getAsDouble();
      }
    }
    NODES_MEASURED.addTo(record, measuredNodes);
    MEASURED_WATTS.addTo(record, watts);
  }

  /**
   * The counters since the manager started, name to value, in display order: for {@code hdfs eafr status} and the
   * metrics source ({@link #COUNTERS}), so both show the same numbers.
   */
  public Map<String, Long> counters() {
    Map<String, Long> counters = new LinkedHashMap<>();
    counters.put("PowerCommands", commands.sum());
    counters.put("PowerStateReads", stateReads.sum());
    counters.put("PoweredOn", poweredOn.sum());
    counters.put("PoweredOff", poweredOff.sum());
    counters.put("PowerFailedAttempts", failedAttempts.sum());
    counters.put("PowerRetries", retries.sum());
    counters.put("PowerRefusals", refusals.sum());
    counters.put("PowerQuarantines", quarantines.sum());
    counters.put("PowerMeasurements", measured.measurements.sum());
    counters.put("PowerPollErrors", measured.pollErrors.sum());
    return counters;
  }

  private static int count(List<NodePowerStatus> statuses, PowerState state) {
    return (int) statuses.stream().filter(s -> s.lastKnown() == state).count();
  }

  public long commands() {
    return commands.sum();
  }

  public long poweredOn() {
    return poweredOn.sum();
  }

  public long poweredOff() {
    return poweredOff.sum();
  }

  public long failedAttempts() {
    return failedAttempts.sum();
  }

  public long retries() {
    return retries.sum();
  }

  public long refusals() {
    return refusals.sum();
  }

  public long quarantines() {
    return quarantines.sum();
  }
}
