package org.eafr.namenode.power;

/**
 * A DataNode's power state as {@code hdfs eafr status} and the EafrNameNode metrics count it ({@link DataNodePower}
 * says how it is derived).
 */
public enum DataNodePowerState {
  /** Heartbeating, or its host's BMC last read ON. */
  ON,
  /** Its host's BMC last read OFF, or the gears put it to sleep and it has stopped heartbeating. */
  OFF,
  /** A power action (on or off) is under way for its host. */
  TRANSITIONING,
  /** Its host is quarantined after failed power actions (docs/power.md): an operator must clear it. */
  QUARANTINED,
  /** Not heartbeating and not known to be off: a failed DataNode, or a host whose state was never read. */
  UNKNOWN
}
