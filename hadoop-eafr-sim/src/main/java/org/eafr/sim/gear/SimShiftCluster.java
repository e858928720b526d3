package org.eafr.sim.gear;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.IntPredicate;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.gear.shift.AdminState;
import org.eafr.placement.gear.shift.DataNodeView;
import org.eafr.placement.gear.shift.ShiftCluster;
import org.eafr.sim.model.Cluster;
import org.eafr.sim.model.ReplicaCounts;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.model.SimServer;

/**
 * The simulated cluster as the gear shift sees it: every server is a registered DataNode, alive while it is awake
 * (not asleep, not failed) and then reported at once; its admin state is {@link SimMaintenance}'s. Blocks are the
 * files (one block each) with at least one replica, listed per server by {@link ReplicaCounts}; the simulator
 * places a write's replicas at once, so no block is ever being written ({@link #pipelines()} is empty).
 */
public final class SimShiftCluster implements ShiftCluster {
  private final Cluster cluster;
  private final List<SimFile> files;
  private final SimMaintenance maintenance;
  private final IntPredicate idle;
  private final ReplicaCounts replicas;

  /**
   * @param idle whether server {@code index} serves, queues and transfers nothing
   * @param replicas the run's replica bookkeeping, whose per-server lists {@link #blocksOn} reads
   */
  public SimShiftCluster(Cluster cluster, List<SimFile> files, SimMaintenance maintenance, IntPredicate idle,
      ReplicaCounts replicas) {
    this.cluster = cluster;
    this.files = files;
    this.maintenance = maintenance;
    this.idle = idle;
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
}
