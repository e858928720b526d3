package org.eafr.namenode.monitor;

/**
 * The gears' states in words over JMX ({@code Hadoop:service=NameNode,name=EafrGears}), the same as
 * {@code hdfs eafr status} shows. Attributes of a plain MBean rather than metrics2 tags: a tag is a label of every
 * series on /prom, and a label that changes with each decision starts new series. Each is null where there is none.
 */
public interface EafrGearsMXBean {
  /** The layout in use: random, equal-work, accordion or multi-dataset. */
  String getLayout();

  /** Where a gear shift stands: STEADY, ENTERING_MAINTENANCE, POWERING_OFF, POWERING_ON, REGISTERING, REFLECTING. */
  String getGearPhase();

  /** Why the gear settings build no layout (so every DataNode stays on), or null when they do. */
  String getLayoutProblem();

  /** manual or auto. */
  String getGearMode();

  /** The autopilot's last decision (its time, the gears, the reason and the load), or null before the first. */
  String getGearAutoLastDecision();
}
