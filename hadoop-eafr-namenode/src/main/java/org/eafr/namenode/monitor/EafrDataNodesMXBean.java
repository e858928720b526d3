package org.eafr.namenode.monitor;

/**
 * Each DataNode's EAFR state over JMX ({@code Hadoop:service=NameNode,name=EafrDataNodes}), as HDFS's NameNodeInfo
 * bean shows its LiveNodes: JSON objects keyed by IP:transfer port. A plain MBean rather than metrics2 tags, so the
 * per-DataNode strings stay off the /prom page, where a tag becomes a label of every metric and JSON is no valid label
 * value.
 */
public interface EafrDataNodesMXBean {
  /** Each DataNode's role now: HOT, STANDBY, COLD or FAILED. */
  String getDataNodeRoles();

  /** Each DataNode's power state at the last energy sample: ON, OFF, TRANSITIONING, QUARANTINED or UNKNOWN. */
  String getDataNodePowerStates();
}
