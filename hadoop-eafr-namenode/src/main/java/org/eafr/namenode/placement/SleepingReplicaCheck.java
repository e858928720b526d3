package org.eafr.namenode.placement;

import java.util.BitSet;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeManager;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.net.Node;
import org.eafr.namenode.cluster.ServerTranslator;
import org.eafr.namenode.gear.GearRecord;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.gear.GearService;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.SleepingHomes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NameNode side of the core's {@link SleepingHomes}: for a re-replication HDFS asks of the placement policy,
 * whether the block's missing replicas sleep at their homes, unseen by this NameNode (a restart, or a standby started
 * while groups slept, never had their block reports), so that copying it would only repeat data that is asleep.
 *
 * <p>Each DataNode of the chain is, for this NameNode:
 * <ul>
 *   <li><b>known</b>: registered and every storage has sent a block report (alive, or dead in maintenance, whose
 *       replicas HDFS keeps): whether it holds the block is in the block map;</li>
 *   <li><b>unseen</b>: asleep in the persisted gear state and never reported here, or registered and not yet
 *       reported, or dead in maintenance before its first report: a replica there is not in the block map;</li>
 *   <li><b>failed</b>: not asleep and neither alive nor in maintenance: a replica there is lost.</li>
 * </ul>
 * The view is rebuilt at most once a second and whenever the gear state changes (O(DataNodes of the chain)); each
 * question costs the core's bit-set work and no lock. With no DataNode asleep the policy is asked nothing.
 */
final class SleepingReplicaCheck {
  private static final Logger LOG = LoggerFactory.getLogger(SleepingReplicaCheck.class);
  private static final long REFRESH_NANOS = 1_000_000_000L;

  private final GearRuntime gears;
  private final LongSupplier nanoTime;
  private volatile View view;
  private volatile ActiveSet logged;

  SleepingReplicaCheck(GearRuntime gears, LongSupplier nanoTime) {
    this.gears = gears;
    this.nanoTime = nanoTime;
  }

  /**
   * Whether to answer HDFS's request for {@code missing} more replicas of a block with no target: its missing replicas
   * sleep at their homes. {@code live} are the block's live replicas; {@code known} the nodes HDFS excluded, which
   * for a re-replication are every node holding the block in any state.
   */
  boolean holdBack(GearedLayout layout, List<DatanodeStorageInfo> live, Set<Node> known, int missing) {
    GearRecord state = gears.state();
    GearService service = gears.service();
    if (state.sleeping().isEmpty() || service == null) {
      return false;
    }
    View current = view(layout, state, service.dataNodes());
    if (current.unseen.isEmpty()) {
      return false;
    }
    int[] livePositions = new int[live.size()];
    for (int i = 0; i < livePositions.length; i++) {
      livePositions[i] = layout.chain().position(ServerTranslator.idOf(live.get(i).getDatanodeDescriptor()));
    }
    boolean held = SleepingHomes.missingAsleep(layout, livePositions, positions(layout.chain(), known), missing,
        current.unseen, current.failed);
    if (held) {
      gears.counters().reReplicationsDeferred.incrementAndGet();
      logOnce(current.unseen);
    }
    return held;
  }

  private void logOnce(ActiveSet unseen) {
    if (!unseen.equals(logged)) {
      logged = unseen;
      LOG.info("EAFR placement: re-replication held back for blocks whose missing replicas sleep at their homes on"
          + " {} DataNodes this NameNode has no block report from: {}; they count again once their group wakes and"
          + " reports", unseen.size(), unseen.ids());
    }
  }

  private static int[] positions(ExpansionChain chain, Collection<Node> nodes) {
    if (nodes == null) {
      return new int[0];
    }
    return nodes.stream().filter(DatanodeDescriptor.class::isInstance)
        .mapToInt(node -> chain.position(ServerTranslator.idOf((DatanodeDescriptor) node))).toArray();
  }

  private View view(GearedLayout layout, GearRecord state, DatanodeManager dataNodes) {
    View current = view;
    long now = nanoTime.getAsLong();
    if (current == null || current.layout != layout || current.state != state
        || now - current.builtAt >= REFRESH_NANOS) {
      current = new View(layout, state, dataNodes, now);
      view = current;
    }
    return current;
  }

  /** The chain's DataNodes sorted into unseen and failed, as of one moment. */
  private static final class View {
    final GearedLayout layout;
    final GearRecord state;
    final long builtAt;
    final ActiveSet unseen;
    final ActiveSet failed;

    View(GearedLayout layout, GearRecord state, DatanodeManager dataNodes, long builtAt) {
      this.layout = layout;
      this.state = state;
      this.builtAt = builtAt;
      ExpansionChain chain = layout.chain();
      BitSet unseenBits = new BitSet(chain.size());
      BitSet failedBits = new BitSet(chain.size());
      for (int p = 0; p < chain.size(); p++) {
        String id = chain.id(p);
        DatanodeDescriptor dn = ServerTranslator.dataNodeOf(dataNodes, id);
        boolean asleep = state.sleeping().contains(id);
        if (dn == null) {
          (asleep ? unseenBits : failedBits).set(p);
        } else if (dn.isAlive() || dn.isMaintenance()) {
          unseenBits.set(p, !reportedAll(dn));
        } else {
          (asleep ? unseenBits : failedBits).set(p);
        }
      }
      this.unseen = ActiveSet.of(chain, unseenBits);
      this.failed = ActiveSet.of(chain, failedBits);
    }

    private static boolean reportedAll(DatanodeDescriptor dn) {
      DatanodeStorageInfo[] storages = dn.getStorageInfos();
      for (DatanodeStorageInfo storage : storages) {
        if (storage.getBlockReportCount() == 0) {
          return false;
        }
      }
      return storages.length > 0;
    }
  }
}
