package org.eafr.sim.workload;

/**
 * A workload: the files that exist at the start (their sizes, indexed 0..n-1) and a way to open the stream of
 * operations on them. Opening twice gives the same stream, so every policy sees the same trace.
 */
public interface Workload {
  /** File sizes in bytes, by file index. */
  long[] fileSizes();

  /** A new reader over the operations, from the start. */
  TraceReader open();

  /** A one-line description for reports. */
  String describe();
}
