package org.eafr.sim.workload;

/**
 * One trace operation: at {@code timeMicros}, {@code copies} clients read (or one client updates, or one client
 * rewrites as a new version) file {@code file}. The simulator's concurrency multiplier applies on top of
 * {@code copies}.
 */
public record TraceEvent(long timeMicros, Kind kind, int file, int copies, long bytesPerCopy) {
  /** An operation whose copies each move one response packet (the synthetic workload). */
  public TraceEvent(long timeMicros, Kind kind, int file, int copies) {
    this(timeMicros, kind, file, copies, 0);
  }

  /** What the operation does. */
  public enum Kind {
    READ,
    /** A 64 KB update sent to every awake replica. */
    WRITE,
    /** A new version of the whole file: its old replicas are dropped and its new blocks placed by the policy now. */
    REWRITE
  }

  public TraceEvent {
    if (timeMicros < 0) {
      throw new IllegalArgumentException("trace time " + timeMicros + " us is not allowed: expected >= 0");
    }
    if (file < 0) {
      throw new IllegalArgumentException("trace file index " + file + " is not allowed: expected >= 0");
    }
    if (bytesPerCopy < 0) {
      throw new IllegalArgumentException("trace bytes per copy " + bytesPerCopy + " is not allowed: expected >= 0");
    }
    if (copies < 1) {
      throw new IllegalArgumentException("trace copies " + copies + " is not allowed: expected >= 1");
    }
  }
}
