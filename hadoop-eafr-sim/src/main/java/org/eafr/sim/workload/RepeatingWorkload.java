package org.eafr.sim.workload;

import java.io.IOException;

/**
 * A workload whose trace is replayed every period ({@code sim.trace.period.hours}): replay k is the trace read anew
 * from its start, every operation shifted by k periods, keeping the operations before one period (so replays never
 * overlap). Each replay opens the inner workload again, so every replay is the same operations on the same files (a
 * seeded trace draws the same file choices). The simulator stops pulling at the end of the run, so the stream is as
 * long as the run needs.
 */
final class RepeatingWorkload implements Workload {
  private final Workload inner;
  private final long periodMicros;

  RepeatingWorkload(Workload inner, long periodMicros) {
    if (periodMicros <= 0) {
      throw new IllegalArgumentException("trace period " + periodMicros + " us is not allowed: expected > 0");
    }
    this.inner = inner;
    this.periodMicros = periodMicros;
  }

  @Override
  public long[] fileSizes() {
    return inner.fileSizes();
  }

  @Override
  public TraceReader open() {
    return new Reader();
  }

  @Override
  public String describe() {
    return inner.describe() + ", replayed every " + periodMicros / 3.6e9 + " h";
  }

  private final class Reader implements TraceReader {
    private TraceReader replay = inner.open();
    private long offsetMicros;
    private boolean replayEmpty = true;

    @Override
    public TraceEvent next() throws IOException {
      while (true) {
        TraceEvent event = replay.next();
        if (event != null && event.timeMicros() < periodMicros) {
          replayEmpty = false;
          return new TraceEvent(event.timeMicros() + offsetMicros, event.kind(), event.file(), event.copies(),
              event.bytesPerCopy());
        }
        replay.close();
        if (replayEmpty) {
          // A trace with no operation within one period would be replayed forever without yielding one.
          replay = () -> null;
          return null;
        }
        replay = inner.open();
        offsetMicros += periodMicros;
        replayEmpty = true;
      }
    }

    @Override
    public void close() throws IOException {
      replay.close();
    }
  }
}
