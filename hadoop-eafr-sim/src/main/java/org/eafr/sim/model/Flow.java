package org.eafr.sim.model;

/**
 * One transfer in the fluid network model: {@code bytes} from a source server (or a client, {@link #CLIENT}) to a
 * destination server. Its rate changes whenever a transfer starts or ends at either end, or the receiver's rate
 * controller adjusts it; {@link Network} keeps {@link #remaining} current.
 */
public final class Flow {
  /** The source index of a transfer from a client outside the cluster (a write). */
  public static final int CLIENT = -1;

  final long id;
  /** The sender connection's id for the receive-side rate controller. */
  final String connectionId;
  final int source;
  final int sourceRack;
  final int destination;
  final long bytes;
  final long startMicros;
  final FlowListener listener;
  double remaining;
  double rate;
  double controlledRate;
  long updatedMicros;
  /** The earliest completion check still in the event queue, or Long.MAX_VALUE when none. */
  long pendingCheckMicros = Long.MAX_VALUE;
  boolean done;
  /** The refresh that last collected this flow, so a refresh visits it once. */
  long collectedStamp = -1;

  Flow(long id, int source, int sourceRack, int destination, long bytes, long startMicros, FlowListener listener) {
    this.id = id;
    this.connectionId = "c" + id;
    this.source = source;
    this.sourceRack = sourceRack;
    this.destination = destination;
    this.bytes = bytes;
    this.startMicros = startMicros;
    this.listener = listener;
    this.remaining = bytes;
    this.updatedMicros = startMicros;
  }

  public int source() {
    return source;
  }

  public int destination() {
    return destination;
  }

  public long bytes() {
    return bytes;
  }

  public long startMicros() {
    return startMicros;
  }

  /** Called when a flow's last byte arrives ({@code completed}) or an end server fails (not completed). */
  @FunctionalInterface
  public interface FlowListener {
    void finished(Flow flow, long nowMicros, boolean completed);
  }
}
