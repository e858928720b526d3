package org.eafr.sim.model;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.rate.RateAdjustment;
import org.eafr.placement.rate.ReceiveRateController;
import org.eafr.sim.engine.EventQueue;

/**
 * The fluid network model for writes, replication and recovery transfers (reads are short requests served by
 * {@link SimServer} slots). A flow's rate is the least of: its source's link divided among the source's outflows; its
 * destination's share; and, across racks, {@link ModelConstants#CROSS_RACK_FACTOR} of the slower link. The
 * destination's share:
 * <ul>
 *   <li>without rate control: the link divided among n inflows, times the incast goodput 1 / (1 + k (n - 1));</li>
 *   <li>with rate control: each sender's controlled rate, which the core's {@link ReceiveRateController} adjusts every
 *       {@link ModelConstants#RATE_CONTROL_PERIOD_MICROS} (EAFR Alg. 2); only if the senders together exceed the link
 *       does incast strike.</li>
 * </ul>
 * Rates are recomputed for every flow at either end of a flow that starts or ends, and completions are rescheduled.
 */
public final class Network {
  private final Cluster cluster;
  private final EventQueue queue;
  private final ReceiveRateController controller;
  /** A flow with less than this left is finished (rounding of rate x time). */
  private static final double FINISHED_BYTES = 0.5;

  private final boolean[] controlTicking;
  private final double[] offered;
  private final long[] offeredStamp;
  private long stamp;
  private long nextId;

  /**
   * @param controller the receive-side rate controller, or null when rate control is off
   */
  public Network(Cluster cluster, EventQueue queue, ReceiveRateController controller) {
    this.cluster = cluster;
    this.queue = queue;
    this.controller = controller;
    this.controlTicking = new boolean[cluster.size()];
    this.offered = new double[cluster.size()];
    this.offeredStamp = new long[cluster.size()];
  }

  public boolean rateControl() {
    return controller != null;
  }

  /** Starts a transfer of {@code bytes} now. */
  public Flow start(int source, int sourceRack, int destination, long bytes, Flow.FlowListener listener) {
    long now = queue.now();
    Flow flow = new Flow(nextId++, source, sourceRack, destination, Math.max(1, bytes), now, listener);
    SimServer dst = cluster.server(destination);
    if (controller != null) {
      double used = 0;
      for (Flow other : dst.inFlows) {
        used += other.controlledRate;
      }
      double link = dst.linkBytesPerSecond();
      flow.controlledRate = Math.max(link - used, minimumRate(link, dst.inFlows.size() + 1));
    }
    dst.inFlows.add(flow);
    if (source != Flow.CLIENT) {
      cluster.server(source).outFlows.add(flow);
    }
    refreshAround(flow, now);
    if (controller != null && !controlTicking[destination]) {
      controlTicking[destination] = true;
      queue.after(ModelConstants.RATE_CONTROL_PERIOD_MICROS, t -> controlTick(destination, t));
    }
    return flow;
  }

  /** Ends every flow into or out of {@code server} without completing it (the server failed). */
  public void failServer(int server, long now) {
    SimServer s = cluster.server(server);
    List<Flow> affected = new ArrayList<>(s.inFlows);
    affected.addAll(s.outFlows);
    for (Flow flow : affected) {
      if (!flow.done) {
        end(flow, now, false);
      }
    }
  }

  /** Flows in progress into {@code server}. */
  public int inflows(int server) {
    return cluster.server(server).inFlows.size();
  }

  /**
   * A completion check. Checks are not cancelled when a rate changes (that would leave the queue full of dead
   * entries); instead a check that finds bytes left schedules the next one, and a new check is added only when a
   * flow's predicted end moves earlier than its earliest pending check.
   */
  private void check(Flow flow, long at, long now) {
    if (flow.done) {
      return;
    }
    if (at == flow.pendingCheckMicros) {
      flow.pendingCheckMicros = Long.MAX_VALUE;
    }
    advance(flow, now);
    if (flow.remaining <= FINISHED_BYTES) {
      end(flow, now, true);
    } else {
      scheduleCheck(flow, now);
    }
  }

  private void end(Flow flow, long now, boolean completed) {
    flow.done = true;
    advance(flow, now);
    cluster.server(flow.destination).inFlows.remove(flow);
    if (flow.source != Flow.CLIENT) {
      cluster.server(flow.source).outFlows.remove(flow);
    }
    refreshAround(flow, now);
    flow.listener.finished(flow, now, completed);
  }

  private void refreshAround(Flow flow, long now) {
    stamp++;
    List<Flow> touched = new ArrayList<>();
    collect(cluster.server(flow.destination).inFlows, touched);
    collect(cluster.server(flow.destination).outFlows, touched);
    if (flow.source != Flow.CLIENT) {
      collect(cluster.server(flow.source).inFlows, touched);
      collect(cluster.server(flow.source).outFlows, touched);
    }
    for (Flow f : touched) {
      advance(f, now);
    }
    for (Flow f : touched) {
      reschedule(f, now);
    }
  }

  private void collect(List<Flow> flows, List<Flow> into) {
    for (Flow f : flows) {
      if (f.collectedStamp != stamp) {
        f.collectedStamp = stamp;
        into.add(f);
      }
    }
  }

  private static void advance(Flow flow, long now) {
    flow.remaining = Math.max(0, flow.remaining - flow.rate * (now - flow.updatedMicros) / 1e6);
    flow.updatedMicros = now;
  }

  private void reschedule(Flow flow, long now) {
    flow.rate = rateOf(flow);
    scheduleCheck(flow, now);
  }

  private void scheduleCheck(Flow flow, long now) {
    long at = now + Math.max(1, (long) Math.ceil(flow.remaining / flow.rate * 1e6));
    if (controller != null && at > now + ModelConstants.RATE_CONTROL_PERIOD_MICROS) {
      return; // the receiver's next control tick re-plans this flow before it can end
    }
    if (at < flow.pendingCheckMicros) {
      flow.pendingCheckMicros = at;
      queue.schedule(at, t -> check(flow, at, t));
    }
  }

  /** The flow's current rate in bytes per second under the model of the class comment. */
  double rateOf(Flow flow) {
    SimServer dst = cluster.server(flow.destination);
    double sourceLink = flow.source == Flow.CLIENT ? ModelConstants.CLIENT_BYTES_PER_SECOND
        : cluster.server(flow.source).linkBytesPerSecond();
    int sourceFlows = flow.source == Flow.CLIENT ? 1 : cluster.server(flow.source).outFlows.size();
    double rate = sourceLink / Math.max(1, sourceFlows);
    rate = Math.min(rate, destinationShare(flow, dst));
    if (flow.sourceRack != dst.rack()) {
      rate = Math.min(rate, ModelConstants.CROSS_RACK_FACTOR * Math.min(sourceLink, dst.linkBytesPerSecond()));
    }
    return Math.max(rate, 1.0);
  }

  private double destinationShare(Flow flow, SimServer dst) {
    int n = dst.inFlows.size();
    double link = dst.linkBytesPerSecond();
    double goodput = incastGoodput(n);
    if (controller == null) {
      return link / n * goodput;
    }
    double offered = offeredInto(dst);
    return offered <= link ? flow.controlledRate : flow.controlledRate * link / offered * goodput;
  }

  /** The senders' total controlled rate into {@code dst}, computed once per refresh. */
  private double offeredInto(SimServer dst) {
    int i = dst.index();
    if (offeredStamp[i] != stamp) {
      double sum = 0;
      for (Flow f : dst.inFlows) {
        sum += f.controlledRate;
      }
      offered[i] = sum;
      offeredStamp[i] = stamp;
    }
    return offered[i];
  }

  /**
   * The least rate a controlled sender gets: {@link ModelConstants#RATE_CONTROL_MIN_SHARE} of the link shared by all
   * senders, so the floors together never exceed the link and the controller can always steer below it.
   */
  private static double minimumRate(double link, int senders) {
    return ModelConstants.RATE_CONTROL_MIN_SHARE * link / Math.max(1, senders);
  }

  /** The share of a link that n concurrent inflows get together (TCP incast, see {@link ModelConstants}). */
  public static double incastGoodput(int inflows) {
    return inflows <= 1 ? 1.0 : 1.0 / (1.0 + ModelConstants.INCAST_PENALTY * (inflows - 1));
  }

  /** EAFR Alg. 2 at one receiver: the core decides each sender's adjustment; the network applies it. */
  private void controlTick(int destination, long now) {
    SimServer dst = cluster.server(destination);
    if (dst.inFlows.isEmpty()) {
      controlTicking[destination] = false;
      return;
    }
    List<Flow> senders = new ArrayList<>(dst.inFlows);
    List<String> ids = new ArrayList<>(senders.size());
    // u_b is what the receiver granted its senders (their receive windows over the round trip): under incast the
    // measured goodput is low while the link is congested, and reading it as free room would raise the rates.
    double used = 0;
    for (Flow f : senders) {
      advance(f, now);
      used += f.controlledRate;
      ids.add(f.connectionId);
    }
    double link = dst.linkBytesPerSecond();
    List<RateAdjustment> adjustments = controller.adjust(link, Math.min(used, link), ids);
    for (int i = 0; i < senders.size(); i++) {
      Flow f = senders.get(i);
      double adjusted = adjustments.get(i).applyTo(f.controlledRate);
      f.controlledRate = Math.min(link, Math.max(adjusted, minimumRate(link, senders.size())));
    }
    stamp++;
    for (Flow f : senders) {
      reschedule(f, now);
    }
    // Checks the control loop skipped (ends beyond this tick) are due now: re-plan every sender each tick.
    queue.after(ModelConstants.RATE_CONTROL_PERIOD_MICROS, t -> controlTick(destination, t));
  }
}
