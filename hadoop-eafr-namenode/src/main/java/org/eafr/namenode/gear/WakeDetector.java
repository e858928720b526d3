package org.eafr.namenode.gear;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.namenode.FSNamesystem;
import org.apache.hadoop.hdfs.server.namenode.INodeFile;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.BlocksWithoutLiveReplica;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.SleepingHomes;
import org.eafr.placement.gear.WakePlanner;

/**
 * Finds, on the gear service's thread, the sleeping DataNodes that must wake out of turn, and asks the core's
 * {@link WakePlanner} which:
 * <ul>
 *   <li>a DataNode of the chain that should be on (not asleep, not in maintenance) is dead or stale (no heartbeat for
 *       {@code dfs.namenode.stale.datanode.interval}, 30 s by default, so a failed primary's group wakes without
 *       waiting the 10.5 minutes HDFS takes to declare it dead; when more than half of the DataNodes that should be
 *       on are stale at once, as after a long pause of the NameNode itself, only dead ones count): its recovery
 *       group;</li>
 *   <li>a block HDFS needs to re-replicate (its queue of low-redundancy blocks) has no live replica and a holder that
 *       sleeps: the smallest group holding it (when this NameNode knows no sleeping holder, having started while
 *       they slept, among the homes the layout gives its holders: the core's {@code SleepingHomes}). A read of such a block gets no location; the reader ordering counts it
 *       and has this detector look at once ({@link GearRuntime#readFoundNoReplica}), since HDFS queued the block for
 *       re-replication when its last live replica went.</li>
 * </ul>
 * The queue is read under the namesystem read lock, at most {@link #MAX_BLOCKS_SCANNED} blocks a scan (blocks with
 * no live replica sit in HDFS's highest-priority queue, which the iteration visits first), and only while some
 * DataNode sleeps and HDFS has low-redundancy blocks: when the failed DataNodes changed, every step for
 * {@link #SCAN_INTERVAL_MILLIS} after a read asked (HDFS may queue the block a redundancy-monitor pass after the read),
 * and else every {@link #SCAN_INTERVAL_MILLIS}. Nothing here runs on an IPC handler thread.
 */
final class WakeDetector {
  static final int MAX_BLOCKS_SCANNED = 10_000;
  static final long SCAN_INTERVAL_MILLIS = 10_000;

  private final NameNode nameNode;
  private final Function<String, DatanodeDescriptor> descriptors;
  private final long staleMillis;
  private long lastScan;
  private long lastReadAsked = Long.MIN_VALUE / 2;
  private ActiveSet lastFailed;

  WakeDetector(NameNode nameNode, Function<String, DatanodeDescriptor> descriptors) {
    this.nameNode = nameNode;
    this.descriptors = descriptors;
    this.staleMillis = nameNode.getConf().getLong(DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_KEY,
        DFSConfigKeys.DFS_NAMENODE_STALE_DATANODE_INTERVAL_DEFAULT);
  }

  /** Sleeping DataNodes to wake, and why. */
  static final class Wake {
    final Set<String> ids;
    final String why;
    final boolean forFailure;

    Wake(Set<String> ids, String why, boolean forFailure) {
      this.ids = ids;
      this.why = why;
      this.forFailure = forFailure;
    }
  }

  /**
   * The wakes {@code state} needs now: {@code on} are the DataNodes alive and in service; {@code readAsked} whether a
   * reader got a block with no location since the last call.
   */
  List<Wake> find(GearedLayout layout, GearRecord state, Predicate<String> isLive, boolean readAsked) {
    List<Wake> wakes = new ArrayList<>();
    Set<String> asleep = new TreeSet<>(state.sleeping());
    asleep.removeAll(state.waking());
    if (asleep.isEmpty()) {
      return wakes;
    }
    WakePlanner planner = new WakePlanner(layout);
    ActiveSet on = GearRuntime.serversOn(layout, isLive);
    ActiveSet stale = GearRuntime.serversOn(layout, id -> failed(id, state, true));
    ActiveSet awake = GearRuntime.serversOn(layout, id -> !state.sleeping().contains(id));
    // Many stale at once is the NameNode's own pause (GC), not failures: then only dead DataNodes count.
    boolean trustStale = stale.size() * 2 <= awake.size();
    ActiveSet failed = trustStale ? stale : GearRuntime.serversOn(layout, id -> failed(id, state, false));
    for (int f = failed.next(0); f >= 0; f = failed.next(f + 1)) {
      Set<String> ids = sleepers(planner.forFailure(f, on, failed), asleep);
      if (!ids.isEmpty()) {
        DatanodeDescriptor dn = descriptors.apply(layout.chain().id(f));
        wakes.add(new Wake(ids, "DataNode " + layout.chain().id(f) + (dn.isAlive() ? " stopped heartbeating"
            : " is dead") + " (not in maintenance) in gear " + state.gear() + "; waking its recovery group", true));
        asleep.removeAll(ids);
        on = on.union(ActiveSet.ofIds(layout.chain(), ids)); // its blocks are served once these are on
      }
    }
    long now = System.currentTimeMillis();
    if (readAsked) {
      lastReadAsked = now;
    }
    BlockManager blocks = nameNode.getNamesystem().getBlockManager();
    boolean readRecently = now - lastReadAsked < SCAN_INTERVAL_MILLIS;
    if (!asleep.isEmpty() && blocks.getLowRedundancyBlocksCount() > 0
        && (readRecently || !failed.equals(lastFailed) || now - lastScan >= SCAN_INTERVAL_MILLIS)) {
      lastScan = now;
      lastFailed = failed;
      scanBlocks(layout, planner, on, failed, state, asleep, wakes);
    }
    return wakes;
  }

  /** A DataNode of the chain that should be on, registered, not in maintenance, and dead (or stale). */
  private boolean failed(String id, GearRecord state, boolean orStale) {
    if (state.sleeping().contains(id)) {
      return false;
    }
    DatanodeDescriptor dn = descriptors.apply(id);
    return dn != null && !dn.isMaintenance() && !dn.isDecommissionInProgress() && !dn.isDecommissioned()
        && (!dn.isAlive() || orStale && dn.isStale(staleMillis));
  }

  /**
   * Wakes for the blocks HDFS lists with no live replica, by the core's rule for such a block (the one the simulator's
   * reads follow): the smallest group holding it among its sleeping holders, none while one of them is being woken,
   * else among the sleeping homes of its holders.
   */
  private void scanBlocks(GearedLayout layout, WakePlanner planner, ActiveSet on, ActiveSet failed, GearRecord state,
      Set<String> asleep, List<Wake> wakes) {
    FSNamesystem namesystem = nameNode.getNamesystem();
    ActiveSet[] onNow = {on};
    BlocksWithoutLiveReplica.scan(namesystem, MAX_BLOCKS_SCANNED, (block, holders) -> {
      // No live replica: a holder that is awake holds a dead, corrupt (or stale) replica, which serves no one.
      List<String> asleepHolders = new ArrayList<>(holders);
      asleepHolders.retainAll(state.sleeping());
      if (asleepHolders.stream().anyMatch(state.waking()::contains)) {
        return !asleep.isEmpty(); // served once the wake under way ends
      }
      int[] sleeping = positions(layout, asleepHolders);
      if (sleeping.length == 0) {
        // A NameNode restarted (or a standby started) while the groups slept has no report of their replicas:
        // they are among the homes the layout gives the block's holders.
        ActiveSet homes = SleepingHomes.candidates(layout, positions(layout, holders), new int[0]);
        sleeping = positions(layout, homes.ids().stream().filter(asleep::contains).collect(Collectors.toList()));
      }
      Set<String> ids = sleepers(planner.forBlock(sleeping, onNow[0], failed), asleep);
      if (!ids.isEmpty()) {
        wakes.add(new Wake(ids, "block " + block.getBlockName() + " of file " + fileOf(namesystem, block)
            + " has no live replica; its replicas are on " + holders + "; waking the group that holds it",
            false));
        asleep.removeAll(ids);
        onNow[0] = onNow[0].union(ActiveSet.ofIds(layout.chain(), ids));
      }
      return !asleep.isEmpty();
    });
  }

  private static int[] positions(GearedLayout layout, List<String> ids) {
    return ids.stream().mapToInt(layout.chain()::position).filter(p -> p >= 0).toArray();
  }

  private static Set<String> sleepers(ActiveSet toWake, Set<String> asleep) {
    Set<String> ids = new TreeSet<>(toWake.ids());
    ids.retainAll(asleep);
    return ids;
  }

  private static String fileOf(FSNamesystem namesystem, BlockInfo block) {
    INodeFile file = namesystem.getBlockCollection(block.getBlockCollectionId());
    return file == null ? "(deleted)" : file.getFullPathName();
  }
}
