package org.eafr.namenode.placement;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntSupplier;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.eafr.namenode.cluster.PendingActions;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearRecord;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.relayout.HomeChoices;
import org.eafr.placement.gear.relayout.RelayoutPlanner;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.replication.ExcessReplicaSelector;

/**
 * Which replica of a block with one too many goes: the replica a relayout move in flight copies off
 * ({@code RelayoutDrops}, keyed by block) once its target holds the block and the rest span two racks (even where
 * HDFS's rack rule would keep it); else among those HDFS's rack rule lets go: a replica the replication monitor drains
 * (a migration's source, or EAFR on gears' planned deletion), so the layout's tidy-up never undoes EAFR's action; at
 * the top gear of an equal-work layout one whose loss leaves the block on its homes ({@link RelayoutPlanner#excessCopy}),
 * then a reflected block's offloaded copy, then (never a migration's target while another may go)
 * the one on the server with the least remaining service capacity (Eq. 7, {@link ExcessReplicaSelector}), keeping eps
 * replicas on hot servers. Empty when only sleeping or eps-protected replicas could go: the policy then leaves the
 * choice to HDFS, so the excess still shrinks.
 */
final class ExcessReplicaChoice {
  private final ServerTranslator translator;
  private final GearRuntime gears;
  private final PendingActions pending;
  private final ExcessReplicaSelector excess;
  private final IntSupplier racks;
  private volatile LayoutHomes homes;

  ExcessReplicaChoice(ServerTranslator translator, GearRuntime gears, PendingActions pending,
      ExcessReplicaSelector excess, IntSupplier racks) {
    this.translator = translator;
    this.gears = gears;
    this.pending = pending;
    this.excess = excess;
    this.racks = racks;
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
    DatanodeStorageInfo relaid = gears.relayoutDrops().sourceAmong(byId.values());
    if (relaid != null && excessTypes.contains(relaid.getStorageType()) && othersSpanRacks(relaid, byId.values())) {
      return Optional.of(relaid); // the replica relayout moved off, even where HDFS's rack rule would keep it
    }
    Optional<Server> drained = drainingCopy(replicas, deletable);
    if (drained.isPresent()) { // the replication monitor's MIGRATE or DELETE: the layout's tidy-up must not undo it
      return Optional.of(byId.get(drained.get().id()));
    }
    Optional<DatanodeStorageInfo> offloaded = offLayoutCopy(deletable, byId);
    if (offloaded.isEmpty()) {
      offloaded = offloadedCopy(deletable, byId);
    }
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

  /** A deletable replica on a server the replication monitor drains, when Eq. 7's constraints allow it to go. */
  private Optional<Server> drainingCopy(List<Server> replicas, Set<String> deletable) {
    Set<String> draining = new HashSet<>();
    for (String id : deletable) {
      if (pending.isDraining(id)) {
        draining.add(id);
      }
    }
    return draining.isEmpty() ? Optional.empty() : excess.choose(replicas, draining);
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

  /**
   * Whether the replicas other than {@code gone} span two racks (or every rack, on a one-rack cluster): the rack
   * spread HDFS's placement check asks of a block, so deleting {@code gone} leaves it well placed.
   */
  private boolean othersSpanRacks(DatanodeStorageInfo gone, Collection<DatanodeStorageInfo> replicas) {
    Set<String> spanned = new HashSet<>();
    for (DatanodeStorageInfo replica : replicas) {
      if (replica != gone) {
        spanned.add(replica.getDatanodeDescriptor().getNetworkLocation());
      }
    }
    return spanned.size() >= Math.min(2, racks.getAsInt());
  }

  /**
   * At the top gear of an equal-work layout, steady: the deletable replica whose loss leaves the block on its layout
   * homes ({@link RelayoutPlanner#excessCopy}), e.g. a relayout or reflection move's source once its target has the
   * block, also after a NameNode restart lost HDFS's deletion hint; empty when no deletable replica's loss does. (The
   * equal-work homes depend on the holders only, not the block; in a lower gear an offloaded copy stays for
   * availability.)
   */
  private Optional<DatanodeStorageInfo> offLayoutCopy(Set<String> deletable, Map<String, DatanodeStorageInfo> byId) {
    Optional<GearedLayout> layout = gears.layout();
    if (layout.isEmpty() || !(layout.get() instanceof EqualWorkLayout)) {
      return Optional.empty();
    }
    GearRecord state = gears.state();
    if (state.phase() != ShiftPhase.STEADY || state.gear() != layout.get().maximumGear()) {
      return Optional.empty();
    }
    List<String> ids = new ArrayList<>(byId.keySet());
    int[] holders = new int[ids.size()];
    boolean[] mayGo = new boolean[ids.size()];
    for (int i = 0; i < holders.length; i++) {
      holders[i] = layout.get().chain().position(ids.get(i));
      if (holders[i] < 0) {
        return Optional.empty(); // a DataNode outside the layout's chain: HDFS's and Eq. 7's choice
      }
      mayGo[i] = deletable.contains(ids.get(i));
    }
    int excessCopy = RelayoutPlanner.excessCopy(homeChoices(layout.get()), "", holders, mayGo);
    return excessCopy < 0 ? Optional.empty() : Optional.of(byId.get(ids.get(excessCopy)));
  }

  private HomeChoices homeChoices(GearedLayout layout) {
    LayoutHomes cached = homes;
    if (cached == null || cached.layout != layout) {
      cached = new LayoutHomes(layout, HomeChoices.of(layout));
      homes = cached;
    }
    return cached.choices;
  }

  /** A layout's home choices, built once per layout. */
  private static final class LayoutHomes {
    final GearedLayout layout;
    final HomeChoices choices;

    LayoutHomes(GearedLayout layout, HomeChoices choices) {
      this.layout = layout;
      this.choices = choices;
    }
  }
}
