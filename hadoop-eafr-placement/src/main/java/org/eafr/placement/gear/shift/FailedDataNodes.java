package org.eafr.placement.gear.shift;

import java.util.BitSet;
import java.util.Set;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ExpansionChain;

/**
 * The DataNodes that should be on and are dead at a moment, by one rule for the gear shift's wakes ({@link WakeSteps})
 * and for a host's other readers (the NameNode's autopilot and status): one HDFS decommissions had its blocks copied
 * away, and one an operator put into maintenance is expected down (HDFS does not re-replicate it either): neither is a
 * failure. One not registered counts only once HDFS's dead interval has passed since this NameNode became active
 * ({@link ShiftCluster#activeSinceMillis}, {@link ShiftCluster#deadIntervalMillis}): before that a NameNode just
 * started or made active may not have heard from its running DataNodes yet, and after it a running one has had as
 * long to register as HDFS gives a registered one to heartbeat, so one still unregistered died while no NameNode
 * watched. Only the DataNodes not alive are asked ({@link ShiftCluster#notAlive}): the cost grows with the DataNodes
 * down, not with the cluster, where the host indexes them.
 *
 * <p>Worked example ({@code GearShiftUnregisteredWakeTest}): active since 1,000 ms with a dead interval of 40,000 ms,
 * a primary that never registers is not failed at 40,999 and is failed at 41,000.
 */
public final class FailedDataNodes {
  private FailedDataNodes() {
  }

  /** The servers of {@code chain} not in {@code sleeping} that {@code cluster} shows dead at {@code now} (ms). */
  public static ActiveSet of(ShiftCluster cluster, ExpansionChain chain, Set<String> sleeping, long now) {
    return among(cluster, chain, ActiveSet.ofIdsOnChain(chain, sleeping), now);
  }

  /** The same with the sleeping servers as chain positions, {@code asleep}. */
  static ActiveSet among(ShiftCluster cluster, ExpansionChain chain, ActiveSet asleep, long now) {
    ActiveSet candidates = cluster.notAlive(chain).minus(asleep);
    boolean unregisteredDead = deadIntervalPassed(cluster, now);
    BitSet failed = new BitSet(chain.size());
    for (int p = candidates.next(0); p >= 0; p = candidates.next(p + 1)) {
      DataNodeView view = cluster.dataNode(chain.id(p));
      if ((view.registered() || unregisteredDead) && !view.admin().decommission() && !view.admin().maintenance()) {
        failed.set(p);
      }
    }
    return ActiveSet.of(chain, failed);
  }

  /** Whether HDFS's dead interval has passed at {@code now} since this NameNode became active. */
  private static boolean deadIntervalPassed(ShiftCluster cluster, long now) {
    long since = cluster.activeSinceMillis();
    return now >= since && now - since >= cluster.deadIntervalMillis();
  }
}
