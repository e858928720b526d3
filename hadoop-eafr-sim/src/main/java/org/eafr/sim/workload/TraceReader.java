package org.eafr.sim.workload;

import java.io.Closeable;
import java.io.IOException;

/**
 * A stream of trace operations in time order, read once: the simulator pulls the next event only when the previous
 * one has fired, so a trace never has to fit in memory. Each policy run opens its own reader over the same trace.
 */
public interface TraceReader extends Closeable {
  /** The next operation, or null at the end of the trace. */
  TraceEvent next() throws IOException;

  @Override
  default void close() throws IOException {
  }
}
