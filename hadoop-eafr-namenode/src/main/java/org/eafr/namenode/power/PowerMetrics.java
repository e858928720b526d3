package org.eafr.namenode.power;

import java.util.List;
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
    record.addCounter(Interns.info("PowerCommands", "Power commands sent to BMCs (on, graceful-off, forced-off)"),
        commands.sum());
    record.addCounter(Interns.info("PowerStateReads", "Power state reads"), stateReads.sum());
    record.addCounter(Interns.info("PoweredOn", "Hosts seen reaching ON after a command"), poweredOn.sum());
    record.addCounter(Interns.info("PoweredOff", "Hosts seen reaching OFF after a command"), poweredOff.sum());
    record.addCounter(Interns.info("PowerFailedAttempts",
        "Attempts that failed: command refused, BMC unreachable, state not reached in time"), failedAttempts.sum());
    record.addCounter(Interns.info("PowerRetries", "Attempts retried"), retries.sum());
    record.addCounter(Interns.info("PowerRefusals",
        "Requests refused without trying: busy, quarantined, not in maintenance, unknown host"), refusals.sum());
    record.addCounter(Interns.info("PowerQuarantines", "Nodes put in quarantine"), quarantines.sum());
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
