package org.eafr.namenode.placement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.eafr.namenode.cluster.PendingActions;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.replication.ExcessReplicaSelector;

/**
 * Which replica of a block with one too many goes, among those HDFS's rack rule lets go: a reflected block's
 * offloaded copy first, then a migration's draining source, then (never a migration's target while another may go)
 * the one on the server with the least remaining service capacity (Eq. 7, {@link ExcessReplicaSelector}), keeping eps
 * replicas on hot servers. Empty when only sleeping or eps-protected replicas could go: the policy then leaves the
 * choice to HDFS, so the excess still shrinks.
 */
final class ExcessReplicaChoice {
  private final ServerTranslator translator;
  private final GearRuntime gears;
  private final PendingActions pending;
  private final ExcessReplicaSelector excess;

  ExcessReplicaChoice(ServerTranslator translator, GearRuntime gears, PendingActions pending,
      ExcessReplicaSelector excess) {
    this.translator = translator;
    this.gears = gears;
    this.pending = pending;
    this.excess = excess;
  }

  /**
   * @param groups the block's replicas, grouped as HDFS gives them (racks with more than one, racks with exactly one)
   * @param candidates the replicas HDFS's rack rule lets go
   * @param excessTypes the storage types of which there is one too many; only a candidate of one of them may go
   */
  Optional<DatanodeStorageInfo> choose(List<Collection<DatanodeStorageInfo>> groups,
      Collection<DatanodeStorageInfo> candidates, List<StorageType> excessTypes) {
    List<Server> replicas = new ArrayList<>();
    Map<String, DatanodeStorageInfo> byId = new HashMap<>();
    for (Collection<DatanodeStorageInfo> group : groups) {
      for (DatanodeStorageInfo storage : group) {
        Server server = translator.toServer(storage.getDatanodeDescriptor());
        if (byId.putIfAbsent(server.id(), storage) == null) {
          replicas.add(server);
        }
      }
    }
    Set<String> deletable = new HashSet<>();
    for (DatanodeStorageInfo storage : candidates) {
      if (excessTypes.contains(storage.getStorageType())) {
        deletable.add(ServerTranslator.idOf(storage.getDatanodeDescriptor()));
      }
    }
    Optional<DatanodeStorageInfo> offloaded = offloadedCopy(deletable, byId);
    if (offloaded.isPresent()) {
      return offloaded;
    }
    return bySpareCapacity(replicas, notReflectionTargets(deletable)).map(victim -> byId.get(victim.id()));
  }

  /**
   * Never the copy a reflection move is making at home while another replica may go: deleting it would undo the move,
   * and the next step would move the block again.
   */
  private Set<String> notReflectionTargets(Set<String> deletable) {
    if (gears.reflectionMoves().isEmpty()) {
      return deletable;
    }
    Set<String> notHome = new HashSet<>(deletable);
    notHome.removeIf(gears::isReflectionTarget);
    return notHome.isEmpty() ? deletable : notHome;
  }

  /** A migration's source first, a migration's target last (when Eq. 7's constraints allow), else Eq. 7 over all. */
  private Optional<Server> bySpareCapacity(List<Server> replicas, Set<String> deletable) {
    Set<String> draining = new HashSet<>();
    Set<String> notReceiving = new HashSet<>();
    for (String id : deletable) {
      if (pending.isDraining(id)) {
        draining.add(id);
      }
      if (!pending.isReceiving(id)) {
        notReceiving.add(id);
      }
    }
    Optional<Server> victim = excess.choose(replicas, draining);
    if (victim.isEmpty()) {
      victim = excess.choose(replicas, notReceiving);
    }
    if (victim.isEmpty()) {
      victim = excess.choose(replicas, deletable);
    }
    return victim;
  }

  /**
   * A reflected block's offloaded copy, which goes first: the replica on a move's source when the move's target holds
   * the block too; else one on a move's source that is no move's target (HDFS's rack rule may have kept the hint).
   */
  private Optional<DatanodeStorageInfo> offloadedCopy(Set<String> deletable, Map<String, DatanodeStorageInfo> byId) {
    if (gears.reflectionMoves().isEmpty()) {
      return Optional.empty();
    }
    for (String id : deletable) {
      for (String other : byId.keySet()) {
        if (gears.isReflectionMove(id, other)) {
          return Optional.of(byId.get(id));
        }
      }
    }
    for (String id : deletable) {
      if (gears.isReflectionSource(id) && !gears.isReflectionTarget(id)) {
        return Optional.of(byId.get(id));
      }
    }
    return Optional.empty();
  }
}
