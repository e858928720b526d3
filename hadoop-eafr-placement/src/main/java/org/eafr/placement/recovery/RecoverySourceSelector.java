package org.eafr.placement.recovery;

import java.util.Objects;
import java.util.Optional;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;

/**
 * The source of a re-replication after a server failure (EAFR, Lin and Shen, Sec. 3.6, Alg. 4 lines 4-8): among the
 * file's other holders that serve reads (hot or standby), the one with the most remaining service capacity
 * phi = c_c - h; only when there is none, the cold holder with the most (it must be woken, which costs energy and
 * time); when no live replica is left, none. Ties go to the earlier holder in the file's replica order. Holders unknown
 * to the cluster view, failed holders and the failed server itself are never sources.
 *
 * <p>Worked example: a file on F (failed), C2 (COLD, phi 12), S2 (STANDBY, phi 3), S1 (STANDBY, phi 10) is copied from
 * S1; a file on F, C1 (COLD, phi 8), C2 (COLD, phi 12) from C2, which must be woken; a file only on F has no source.
 *
 * <p>One pass over the holders, O(r) (the paper sorts them, O(r log r)). Stateless and thread-safe.
 */
public final class RecoverySourceSelector {

  /** The source for {@code file}, or empty when no server but {@code failedServerId} holds a live replica. */
  public Optional<Server> select(ReplicatedFile file, String failedServerId, ClusterView view) {
    Objects.requireNonNull(failedServerId, "failedServerId");
    Server bestServing = null;
    Server bestCold = null;
    for (String holderId : file.replicaServers()) {
      Optional<Server> holder = holderId.equals(failedServerId) ? Optional.empty() : view.find(holderId);
      if (!holder.isPresent()) {
        continue;
      }
      Server server = holder.get();
      if (server.role().servesReads()) {
        bestServing = moreSpare(bestServing, server);
      } else if (server.role() == ServerRole.COLD) {
        bestCold = moreSpare(bestCold, server);
      }
    }
    return Optional.ofNullable(bestServing != null ? bestServing : bestCold);
  }

  /** Strictly more spare capacity replaces the best so far, so the earlier holder wins a tie. */
  private static Server moreSpare(Server best, Server candidate) {
    if (best == null || candidate.remainingServiceCapacity() > best.remainingServiceCapacity()) {
      return candidate;
    }
    return best;
  }
}
