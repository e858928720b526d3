package org.eafr.datanode.power;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * The power agent's metrics2 source on a DataNode (JMX {@code Hadoop:service=DataNode,name=EafrPowerAgent-HOST-PORT};
 * the /prom page with {@code hadoop.prometheus.endpoint.enabled}, each name {@code eafr_power_agent_} and the name in
 * snake case). Its state is a number, not a tag: a tag is a label of every series on /prom, and a label that changes
 * with the state starts new series; counters end in {@code Total}.
 */
final class PowerAgentMetrics implements MetricsSource {
  static final String NAME_PREFIX = "EafrPowerAgent-";

  private final String name;
  private final PowerAgent agent;

  PowerAgentMetrics(String dataNodeDisplayName, PowerAgent agent) {
    this.name = NAME_PREFIX + dataNodeDisplayName.replace(':', '-');
    this.agent = agent;
  }

  String name() {
    return name;
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    PowerAgentState state = agent.state();
    MetricsRecordBuilder record = collector.addRecord("EafrPowerAgent").setContext("dfs");
    record.addGauge(Interns.info("State",
        "The agent's state: 0 idle, 1 polling, 2 arming Wake-on-LAN, 3 stopping the DataNode, 4 host command run"),
        state.ordinal());
    record.addCounter(Interns.info("PollsTotal", "Polls sent to the NameNode"), agent.polls.get());
    record.addCounter(Interns.info("UnansweredPollsTotal",
        "Polls no active NameNode's EAFR handler answered"), agent.unansweredPolls.get());
    record.addCounter(Interns.info("RefusalsTotal",
        "Sleep requests refused: not IN_MAINTENANCE, or Wake-on-LAN not armed"), agent.refusals.get());
    record.addCounter(Interns.info("SleepsTotal", "Times the agent stopped the DataNode to sleep"),
        agent.sleeps.get());
  }
}
