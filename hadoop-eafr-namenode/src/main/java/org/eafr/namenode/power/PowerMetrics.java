package org.eafr.namenode.power;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * The power manager's metrics2 source (JMX {@code Hadoop:service=NameNode,name=EafrPower} once registered, and the
 * /prom page): commands sent, state changes reached, failed attempts, retries, refusals and quarantines, with gauges
 * of the nodes per last known state, quarantined and busy.
 */
public final class PowerMetrics implements MetricsSource {
  public static final String NAME = "EafrPower";
  private static final Map<String, String> DESCRIPTIONS = Map.of(
      "PowerCommands", "Power commands sent to BMCs (on, graceful-off, forced-off)",
      "PowerStateReads", "Power state reads",
      "PoweredOn", "Hosts seen reaching ON after a command",
      "PoweredOff", "Hosts seen reaching OFF after a command",
      "PowerFailedAttempts", "Attempts that failed: command refused, BMC unreachable, state not reached in time",
      "PowerRetries", "Attempts retried",
      "PowerRefusals", "Requests refused without trying: busy, quarantined, not in maintenance, unknown host",
      "PowerQuarantines", "Nodes put in quarantine");

  final LongAdder commands = new LongAdder();
  final LongAdder stateReads = new LongAdder();
  final LongAdder poweredOn = new LongAdder();
  final LongAdder poweredOff = new LongAdder();
  final LongAdder failedAttempts = new LongAdder();
  final LongAdder retries = new LongAdder();
  final LongAdder refusals = new LongAdder();
  final LongAdder quarantines = new LongAdder();
  private final Supplier<List<NodePowerStatus>> nodes;

  PowerMetrics(Supplier<List<NodePowerStatus>> nodes) {
    this.nodes = nodes;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder record = collector.addRecord(NAME).setContext("dfs");
    counters().forEach((name, value) -> record.addCounter(Interns.info(name, DESCRIPTIONS.get(name)), value));
    List<NodePowerStatus> statuses = nodes.get();
    record.addGauge(Interns.info("PowerNodesOn", "Inventory hosts last seen ON"), count(statuses, PowerState.ON));
    record.addGauge(Interns.info("PowerNodesOff", "Inventory hosts last seen OFF"), count(statuses, PowerState.OFF));
    record.addGauge(Interns.info("PowerNodesUnknown", "Inventory hosts whose state is not known"),
        count(statuses, PowerState.UNKNOWN));
    record.addGauge(Interns.info("PowerNodesQuarantined", "Inventory hosts in quarantine"),
        (int) statuses.stream().filter(NodePowerStatus::quarantined).count());
    record.addGauge(Interns.info("PowerActionsInFlight", "Power actions under way"),
        (int) statuses.stream().filter(s -> s.inFlight() != null).count());
  }

  /**
   * The counters since the manager started, metric name to value, in display order: for the metrics source and for
   * {@code hdfs eafr status}, so both show the same numbers.
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
