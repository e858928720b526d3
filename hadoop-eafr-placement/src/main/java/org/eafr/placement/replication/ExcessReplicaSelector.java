package org.eafr.placement.replication;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;

/**
 * Which replica of a block to delete when it has one too many (EAFR Eq. 7, Lin and Shen Sec. 3.2.3), for a caller that
 * is handed the excess one block at a time (the NameNode's chooseReplicasToDelete) rather than planning a round.
 *
 * <p>Rule: among the deletable replicas, the one on the server with the least remaining service capacity phi = c_c - h
 * (Eq. 7), ties to the earlier replica. A replica is deletable when the caller allows it (e.g. its loss keeps HDFS's
 * rack fault tolerance), its server is awake (hot or standby: deleting on a sleeping cold server would wake it), and,
 * for a replica on a hot server, when more than eps of the replicas are on hot servers, so that eps hot replicas
 * remain. {@link ReplicationPlanner} deletes by this rule too.
 *
 * <p>Worked example (eps = 1): replicas on H1 (hot, phi 2), H2 (hot, phi 9) and S1 (standby, phi 10), all deletable:
 * H1. With H2 not deletable and H1 cold (asleep): S1. Replicas on H1 (hot, phi 2) and S1 (standby, phi 10): H1 is
 * the only hot replica, so S1.
 */
public final class ExcessReplicaSelector {
  private final int minHotReplicas;

  /** @param minHotReplicas eps, at least 0 */
  public ExcessReplicaSelector(int minHotReplicas) {
    if (minHotReplicas < 0) {
      throw new IllegalArgumentException("minHotReplicas (eps) = " + minHotReplicas
          + " is not allowed: expected >= 0");
    }
    this.minHotReplicas = minHotReplicas;
  }

  /**
   * @param replicas every replica server of the block, in replica order
   * @param deletable ids of the replicas the caller may delete
   * @return the replica to delete, or empty when none may go
   */
  public Optional<Server> choose(List<Server> replicas, Set<String> deletable) {
    Objects.requireNonNull(deletable, "deletable");
    long hot = replicas.stream().filter(s -> s.role() == ServerRole.HOT).count();
    Server best = null;
    for (Server server : replicas) {
      boolean awake = server.role() == ServerRole.HOT || server.role() == ServerRole.STANDBY;
      boolean keepsHot = server.role() != ServerRole.HOT || hot > minHotReplicas;
      if (awake && keepsHot && deletable.contains(server.id())
          && (best == null || server.remainingServiceCapacity() < best.remainingServiceCapacity())) {
        best = server;
      }
    }
    return Optional.ofNullable(best);
  }
}
