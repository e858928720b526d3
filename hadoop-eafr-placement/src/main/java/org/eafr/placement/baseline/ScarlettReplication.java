package org.eafr.placement.baseline;

/**
 * Scarlett's desired replica count (Ananthanarayanan et al., EuroSys 2011), as AptStore Sec. IV-D emulates it:
 * max(cf + delta, 3), where cf is the peak number of concurrent accesses to the file in the learning window (see
 * {@link PeakConcurrency}) and delta a cushion against underestimating it. The floor, 3 in the paper (HDFS's default
 * replication), is a constructor parameter. Like AptStore's emulation, this has no replication budget.
 *
 * <p>Worked example: with delta = 1, a file read by at most 5 clients at once wants max(5 + 1, 3) = 6 replicas; a
 * file read by one client at a time wants max(1 + 1, 3) = 3.
 */
public final class ScarlettReplication {
  /** AptStore Sec. IV-D: max(cf + delta, 3). */
  public static final int DEFAULT_FLOOR = 3;

  private final int cushion;
  private final int floor;

  /**
   * @param cushion delta, at least 0
   * @param floor the fewest replicas of any file, at least 1
   */
  public ScarlettReplication(int cushion, int floor) {
    if (cushion < 0) {
      throw new IllegalArgumentException("cushion " + cushion + " is not allowed: expected at least 0");
    }
    if (floor < 1) {
      throw new IllegalArgumentException("floor " + floor + " is not allowed: expected at least 1");
    }
    this.cushion = cushion;
    this.floor = floor;
  }

  /** max(cf + cushion, {@value #DEFAULT_FLOOR}). */
  public ScarlettReplication(int cushion) {
    this(cushion, DEFAULT_FLOOR);
  }

  /**
   * max(cf + delta, floor).
   *
   * @param peakConcurrentAccesses cf, at least 0
   */
  public int desiredReplicas(int peakConcurrentAccesses) {
    if (peakConcurrentAccesses < 0) {
      throw new IllegalArgumentException("peakConcurrentAccesses " + peakConcurrentAccesses
          + " is not allowed: expected at least 0");
    }
    return Math.max(Math.addExact(peakConcurrentAccesses, cushion), floor);
  }

  public int cushion() {
    return cushion;
  }

  public int floor() {
    return floor;
  }
}
