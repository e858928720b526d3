package org.eafr.sim.gear;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.gear.shift.AdminState;
import org.eafr.placement.gear.shift.DataNodeView;
import org.eafr.placement.gear.shift.ShiftCluster;
import org.eafr.sim.model.Cluster;
import org.eafr.sim.model.SimFile;
import org.eafr.sim.model.SimServer;

/**
 * The simulated cluster as the gear shift sees it: every server is a registered DataNode, alive while it is awake
 * (not asleep, not failed) and then reported at once; its admin state is {@link SimMaintenance}'s. Blocks are the
 * files (one block each) with at least one replica; the simulator places a write's replicas at once, so no block is
 * ever being written ({@link #pipelines()} is empty).
 */
public final class SimShiftCluster implements ShiftCluster {
  private final Cluster cluster;
  private final List<SimFile> files;
  private final SimMaintenance maintenance;
  private final IntPredicate idle;
  private final LongSupplier version;
  private List<List<ReplicatedFile>> byServer;
  private long indexedAt = -1;

  /**
   * @param idle whether server {@code index} serves, queues and transfers nothing
   * @param version changes whenever replicas may have changed (the event count): {@link #blocksOn} indexes the files
   *     once per version
   */
  public SimShiftCluster(Cluster cluster, List<SimFile> files, SimMaintenance maintenance, IntPredicate idle,
      LongSupplier version) {
    this.cluster = cluster;
    this.files = files;
    this.maintenance = maintenance;
    this.idle = idle;
    this.version = version;
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
  public Iterable<ReplicatedFile> blocks() {
    return () -> files.stream().filter(f -> f.replicaCount() > 0).map(SimFile::view).iterator();
  }

  @Override
  public Iterable<ReplicatedFile> blocksOn(String id) {
    if (indexedAt != version.getAsLong()) {
      byServer = new ArrayList<>();
      for (int s = 0; s < cluster.size(); s++) {
        byServer.add(new ArrayList<>());
      }
      for (SimFile file : files) {
        if (file.replicaCount() > 0) {
          ReplicatedFile view = file.view();
          for (int r : file.replicas()) {
            byServer.get(r).add(view);
          }
        }
      }
      indexedAt = version.getAsLong();
    }
    return byServer.get(cluster.server(id).index());
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
