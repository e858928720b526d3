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

  /** What deferrable work (reflection, cold migrations, trimming) is scheduled against: energy, carbon or price. */
  String getGridObjective();

  /** The grid signal read (file, slots, span, values), or null when there is none. */
  String getGridSignal();

  /** Why there is no grid signal (no file, missing, unreadable, malformed), or null when there is one. */
  String getGridSignalProblem();

  /** Why work runs for energy only although the objective is carbon or price, or null when it does not. */
  String getGridFallback();

  /** The start of the slot held reflection waits for (ISO 8601), or null when none is held. */
  String getReflectionHeldUntil();

  /** The time held reflection runs by at the latest (ISO 8601), or null when none is held. */
  String getReflectionDeadline();

  /** The start of the slot held cold migrations wait for (ISO 8601), or null when none are held. */
  String getColdMigrationHeldUntil();

  /** The time held cold migrations run by at the latest (ISO 8601), or null when none are held. */
  String getColdMigrationDeadline();

  /** The start of the slot held trimming waits for (ISO 8601), or null when none is held. */
  String getTrimHeldUntil();

  /** The time held trimming runs by at the latest (ISO 8601), or null when none is held. */
  String getTrimDeadline();
}
