package org.eafr.sim;

import java.util.Iterator;
import java.util.List;
import org.eafr.sim.workload.TraceEvent;
import org.eafr.sim.workload.TraceReader;
import org.eafr.sim.workload.Workload;

/** A workload written out in a test: file sizes and a short list of operations. */
final class InlineWorkload implements Workload {
  private final long[] sizes;
  private final List<TraceEvent> events;

  InlineWorkload(long[] sizes, List<TraceEvent> events) {
    this.sizes = sizes.clone();
    this.events = List.copyOf(events);
  }

  static TraceEvent read(long micros, int file, int copies) {
    return new TraceEvent(micros, TraceEvent.Kind.READ, file, copies);
  }

  @Override
  public long[] fileSizes() {
    return sizes.clone();
  }

  @Override
  public TraceReader open() {
    Iterator<TraceEvent> it = events.iterator();
    return () -> it.hasNext() ? it.next() : null;
  }

  @Override
  public String describe() {
    return "inline: " + events.size() + " operations";
  }
}
