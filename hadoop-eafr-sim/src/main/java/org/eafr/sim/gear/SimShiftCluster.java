package org.eafr.sim.gear;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.function.IntPredicate;
import java.util.function.IntToLongFunction;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.shift.AdminState;
import org.eafr.placement.gear.shift.DataNodeView;
import org.eafr.placement.gear.shift.ShiftCluster;
import org.eafr.sim.model.Cluster;
import org.eafr.sim.model.ReplicaCounts;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.model.SimServer;

/**
 * The simulated cluster as the gear shift sees it: every server is a registered DataNode of a NameNode active since the
 * run started, alive while it is awake (not asleep, not failed) and then reported at once; its admin state is
 * {@link SimMaintenance}'s, and what it still serves, queues and transfers while ENTERING_MAINTENANCE are the blocks
 * HDFS would wait on. Blocks are the
 * files (one block each) with at least one replica, listed per server by {@link ReplicaCounts}; the simulator
 * places a write's replicas at once, so no block is ever being written ({@link #pipelines()} is empty). The servers
 * not alive come from the cluster's index ({@link Cluster#down}), so {@link #notAlive} costs what is down, not a view
 * per server.
 */
public final class SimShiftCluster implements ShiftCluster {
  private final Cluster cluster;
  private final List<SimFile> files;
  private final SimMaintenance maintenance;
  private final IntPredicate idle;
  private final IntToLongFunction busy;
  private final ReplicaCounts replicas;
  /** The chain {@link #positionOf} maps server indexes to. */
  private ExpansionChain mapped;
  private int[] positionOf;

  /**
   * @param idle whether server {@code index} serves, queues and transfers nothing
   * @param replicas the run's replica bookkeeping, whose per-server lists {@link #blocksOn} reads
   */
  public SimShiftCluster(Cluster cluster, List<SimFile> files, SimMaintenance maintenance, IntPredicate idle,
      ReplicaCounts replicas) {
    this(cluster, files, maintenance, idle, index -> 0, replicas);
  }

  /** @param busy the reads, copies and moves server {@code index} serves, queues or sends */
  public SimShiftCluster(Cluster cluster, List<SimFile> files, SimMaintenance maintenance, IntPredicate idle,
      IntToLongFunction busy, ReplicaCounts replicas) {
    this.cluster = cluster;
    this.files = files;
    this.maintenance = maintenance;
    this.idle = idle;
    this.busy = busy;
    this.replicas = replicas;
  }

  @Override
  public DataNodeView dataNode(String id) {
    SimServer server = cluster.server(id);
    boolean alive = server.role().servesReads();
    AdminState admin = AdminState.NORMAL;
    if (maintenance.in(server.index())) {
      admin = !alive || idle.test(server.index()) ? AdminState.IN_MAINTENANCE : AdminState.ENTERING_MAINTENANCE;
      if (alive && admin == AdminState.IN_MAINTENANCE) {
        maintenance.seeAlive(server.index());
      }
    }
    return new DataNodeView(true, alive, alive, admin, maintenance.seenAlive(server.index()));
  }

  /** The simulated NameNode is active from the run's start (time 0) and never restarts. */
  @Override
  public long activeSinceMillis() {
    return 0;
  }

  /**
   * The simulator declares a failed server dead at once (no heartbeat to expire), and every server is registered, so
   * none waits the dead interval of one not registered.
   */
  @Override
  public long deadIntervalMillis() {
    return 0;
  }

  /** What the server still serves, queues and sends while it enters maintenance; 0 once it shows IN_MAINTENANCE. */
  @Override
  public long maintenanceBlocksLeft(String id) {
    return dataNode(id).admin() == AdminState.ENTERING_MAINTENANCE ? busy.applyAsLong(cluster.server(id).index()) : 0;
  }

  @Override
  public Iterable<ReplicatedFile> blocksOn(String id) {
    int[] held = replicas.filesOn(cluster.server(id).index());
    return () -> Arrays.stream(held).mapToObj(f -> files.get(f).view()).iterator();
  }

  @Override
  public Iterable<ReplicatedFile> pipelines() {
    return List.of();
  }

  @Override
  public Optional<ReplicatedFile> block(String blockId) {
    int index = Integer.parseInt(blockId.substring(1));
    if (index < 0 || index >= files.size() || files.get(index).replicaCount() == 0) {
      return Optional.empty();
    }
    return Optional.of(files.get(index).view());
  }

  /**
   * The servers not alive, from the cluster's index. Asking every DataNode would have seen each server in maintenance
   * that is alive and idle as IN_MAINTENANCE (what the power-off guard trusts later); those are seen here too, so
   * the answer and what follows from it are the same as {@link ShiftCluster}'s default.
   */
  @Override
  public ActiveSet notAlive(ExpansionChain chain) {
    BitSet down = cluster.down();
    BitSet aliveInMaintenance = (BitSet) maintenance.inSet().clone();
    aliveInMaintenance.andNot(down);
    for (int i = aliveInMaintenance.nextSetBit(0); i >= 0; i = aliveInMaintenance.nextSetBit(i + 1)) {
      if (idle.test(i)) {
        maintenance.seeAlive(i);
      }
    }
    int[] positions = positionsOn(chain);
    BitSet bits = new BitSet(chain.size());
    for (int i = down.nextSetBit(0); i >= 0 && i < positions.length; i = down.nextSetBit(i + 1)) {
      if (positions[i] >= 0) {
        bits.set(positions[i]);
      }
    }
    return ActiveSet.of(chain, bits);
  }

  /** Each server's position on {@code chain} (-1 off it), computed once per chain. */
  private int[] positionsOn(ExpansionChain chain) {
    if (chain != mapped) {
      positionOf = new int[cluster.size()];
      Arrays.fill(positionOf, -1);
      for (int p = 0; p < chain.size(); p++) {
        positionOf[cluster.server(chain.id(p)).index()] = p;
      }
      mapped = chain;
    }
    return positionOf;
  }
}
