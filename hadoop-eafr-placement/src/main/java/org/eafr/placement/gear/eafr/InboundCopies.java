package org.eafr.placement.gear.eafr;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.Server;

/**
 * The copies one interval has already sent to each destination, charged as load there (ours, for EAFR on gears): a
 * copy being received is one more concurrent transfer on its destination, as a DataNode counts it among its xceivers,
 * so a destination chosen for c copies is seen with h + c. Both of EAFR's uses of h then see the interval's own
 * choices: a hot extra's destination must not be overloaded at tau_c (Alg. 1), and Eq. 10-12 rank by phi = c_c - h.
 * Without it the planner sees every server's h as the interval found it: when the peak load of the interval leaves
 * one server of the running gear below tau_c, every extra of the interval goes there. In the simulator on FB-2010,
 * 250 copies at one hour's end went to one gear-0 server at once, each took 317 s under the incast, and the moves
 * from the servers leaving the gear queued behind them, which kept those servers on (docs/evaluation-eafr-geared.md).
 *
 * <p>Worked example (c_c = 10, tau_c = 0.8, so a server is overloaded above h = 8): s1 at h = 7 is the only server
 * of the running gear not overloaded. The first extra of the interval goes to s1 (now h = 8 in the planner's eyes),
 * the second too (h = 9), and a third finds s1 overloaded: the pool widens to the next gear, or the file waits for
 * the next interval. GearedEafrPlannerTest checks the step from s1 at h = 8 to the next gear.
 *
 * <p>Not thread-safe: one per {@link GearedEafrPlanner#plan} call.
 */
final class InboundCopies {
  private final Map<String, Integer> chosen = new HashMap<>();

  /** Counts a copy sent to {@code destination}. */
  void sent(Server destination) {
    chosen.merge(destination.id(), 1, Integer::sum);
  }

  /** {@code server} with the copies sent to it this interval added to its h. */
  Server charged(Server server) {
    int copies = chosen.getOrDefault(server.id(), 0);
    return copies == 0 ? server : server.withConcurrentReads(server.concurrentReads() + copies);
  }

  /** {@code cluster} with every destination of this interval charged. */
  ClusterView charged(ClusterView cluster) {
    if (chosen.isEmpty()) {
      return cluster;
    }
    List<Server> servers = new ArrayList<>(cluster.size());
    for (Server server : cluster.servers()) {
      servers.add(charged(server));
    }
    return ClusterView.of(servers);
  }
}
