package org.eafr.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.power.PowerModel;
import org.eafr.sim.engine.EventQueue;
import org.eafr.sim.model.Cluster;
import org.eafr.sim.model.Network;
import org.eafr.sim.model.ReplicaCounts;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.policy.GearedPolicy;
import org.eafr.sim.policy.Policy;
import org.eafr.sim.stats.RunStats;

/**
 * What the parts of one run share: the settings, the policy, the event queue, the cluster and its files, the network,
 * the statistics, and the load served and offered since the last control period and sample. Each part of the run
 * ({@link ReadPath}, {@link Transfers}, {@link ServerPower}, {@link Gears}, {@link Failures}, {@link Sampler}) reads
 * and changes it; the {@link Simulator} builds it and wires the parts.
 */
final class RunState {
  static final long MICROS_PER_MILLI = 1_000;

  final SimSettings settings;
  final Policy policy;
  /** Non-null for a power-proportional policy: servers turn off and on as its gear controller decides. */
  final GearedPolicy geared;
  final EventQueue queue;
  final Cluster cluster;
  final List<SimFile> files = new ArrayList<>();
  final ReplicaCounts replicaCounts;
  final Network network;
  final RunStats stats;
  final StorageReserve reserve;
  final PowerModel power;
  /** The rack of each client (reader or writer). */
  final Random clientRacks;
  final long endMicros;
  /** Load served in the current control period (what the servers did) and offered by clients (for the ideal). */
  final LoadWindow served = new LoadWindow();
  final LoadWindow offered = new LoadWindow();
  long readsServed;

  ReadPath reads;
  Transfers transfers;
  ServerPower serverPower;
  /** Null unless the policy is geared. */
  Gears gears;

  RunState(SimSettings settings, Policy policy, EventQueue queue, Cluster cluster, Network network, RunStats stats,
      Random clientRacks) {
    this.settings = settings;
    this.policy = policy;
    this.geared = policy instanceof GearedPolicy g ? g : null;
    this.queue = queue;
    this.cluster = cluster;
    this.replicaCounts = new ReplicaCounts(cluster.size());
    this.network = network;
    this.stats = stats;
    this.reserve = new StorageReserve(settings.eafr().storageReserveBytes());
    this.power = PowerModel.of(settings.eafr()); // Table 2 and 10 W asleep unless eafr.energy.* say otherwise
    this.clientRacks = clientRacks;
    this.endMicros = settings.durationMicros();
  }

  /** The file of a core file or block id ("f12"). */
  SimFile file(String fileId) {
    return files.get(Integer.parseInt(fileId.substring(1)));
  }

  long nowMillis() {
    return queue.now() / MICROS_PER_MILLI;
  }
}
