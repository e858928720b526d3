package org.eafr.namenode.gear;

import java.util.concurrent.atomic.AtomicLong;

/** What the gear service has done since the NameNode started, for metrics2 and {@code hdfs eafr status}. */
public final class GearCounters {
  public final AtomicLong shifts = new AtomicLong();
  public final AtomicLong refusedShifts = new AtomicLong();
  public final AtomicLong powerFailures = new AtomicLong();
  public final AtomicLong blocksReflected = new AtomicLong();
  public final AtomicLong reflectionFailures = new AtomicLong();
  public final AtomicLong offloadedWrites = new AtomicLong();
  /** Files whose owed moves are recorded in the namespace and not yet reflected (the reflection backlog). */
  public final AtomicLong owedFiles = new AtomicLong();
}
