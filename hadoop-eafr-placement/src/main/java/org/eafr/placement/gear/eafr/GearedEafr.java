package org.eafr.placement.gear.eafr;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.settings.EafrSettings;

/**
 * EAFR on gears, the project's own layout (docs/core-gears.md, "EAFR on gears"): EAFR's adaptive replication (Lin and Shen,
 * Alg. 1, Eq. 6-8) on top of a geared layout. For the gear k running now it gives EAFR's planner its roles and its
 * destination pools:
 * <ul>
 *   <li>roles: servers on in gear k are hot; the servers of gear k + 1 are standby (they collect cold replicas and are
 *       the next to wake); higher gears are cold; failed servers stay failed;</li>
 *   <li>a hot file's extra replica (Eq. 6) goes to the lowest gear j &lt;= k with at least {@code want} eligible
 *       servers (not holding the file, not overloaded at tau_c, with room above tau_s), widening a gear at a time up
 *       to k, so it is still served after a gear-down;</li>
 *   <li>a cold file's migrated replica (Eq. 7) goes to the lowest gear above k with at least {@code want} servers with
 *       room (the gear above the current one first), so cold data lives in the gears that sleep first;</li>
 *   <li>a replica may be deleted or migrated away only when the file keeps a live replica in gear 0, so no EAFR action
 *       can make a file unavailable in any gear; with a {@link ReadFloor}, only when it keeps r live replicas on the
 *       floor's servers, so no EAFR action takes a replica from the reads the floor keeps awake.</li>
 * </ul>
 *
 * <p>Worked example (20 servers, gears of 5, 10, 15 and 20, running gear 1): servers 0-9 are hot, 10-14 standby,
 * 15-19 cold. A hot file on servers 0 and 7 wanting 3 candidates gets servers 1-4 (gear 0 has 4 eligible); with 1 and
 * 2 overloaded, gear 0 has only 3 and 4, so the pool widens to gear 1: 3, 4, 5, 6, 8, 9. Its cold replica on 7 may
 * migrate (0 stays in gear 0) to servers 10-14; the replica on 0 may not leave.
 *
 * <p>Immutable and thread-safe; O(servers on) per pool.
 */
public final class GearedEafr {
  private final GearedLayout layout;
  private final double overloadThreshold;
  private final StorageReserve reserve;
  /** The servers whose replicas of a file count for {@link #mayRemove}, and how many it must keep there. */
  private final ActiveSet keptOn;
  private final int kept;

  /** @param overloadThreshold tau_c in (0, 1] */
  public GearedEafr(GearedLayout layout, double overloadThreshold, StorageReserve reserve) {
    this(layout, overloadThreshold, reserve, ReadFloor.off(), 1);
  }

  /**
   * With a read floor: a replica may leave only while the file keeps {@code floor.replicasKept(replicas)} live
   * replicas on the floor gear's servers without it (r with the floor; one in gear 0 without).
   *
   * @param replicas the layout's r
   */
  public GearedEafr(GearedLayout layout, double overloadThreshold, StorageReserve reserve, ReadFloor floor,
      int replicas) {
    this.layout = Objects.requireNonNull(layout, "layout");
    this.keptOn = layout.serversOn(floor.gear(layout));
    this.kept = floor.replicasKept(replicas);
    if (!(overloadThreshold > 0 && overloadThreshold <= 1)) {
      throw new IllegalArgumentException("overloadThreshold (tau_c) = " + overloadThreshold
          + " is not allowed: expected a number in (0, 1]");
    }
    this.overloadThreshold = overloadThreshold;
    this.reserve = Objects.requireNonNull(reserve, "reserve");
  }

  /** tau_c and tau_s from {@code settings}. */
  public static GearedEafr from(EafrSettings settings, GearedLayout layout) {
    return new GearedEafr(layout, settings.overloadThreshold(), new StorageReserve(settings.storageReserveBytes()));
  }

  /** tau_c and tau_s from {@code settings}, with a read floor for a layout of r = {@code replicas}. */
  public static GearedEafr from(EafrSettings settings, GearedLayout layout, ReadFloor floor, int replicas) {
    return new GearedEafr(layout, settings.overloadThreshold(), new StorageReserve(settings.storageReserveBytes()),
        floor, replicas);
  }

  public GearedLayout layout() {
    return layout;
  }

  /** The EAFR role of the server at {@code position} while gear {@code gear} runs (failures aside). */
  public ServerRole roleIn(int position, int gear) {
    GearedLayout.checkGear(layout, gear);
    int own = layout.gearOf(position);
    return own <= gear ? ServerRole.HOT : own == gear + 1 ? ServerRole.STANDBY : ServerRole.COLD;
  }

  /** {@code cluster} with every chain server's role for gear {@code gear}; failed servers and others unchanged. */
  public ClusterView roles(ClusterView cluster, int gear) {
    ExpansionChain chain = layout.chain();
    List<Server> servers = new ArrayList<>(cluster.size());
    for (Server server : cluster.servers()) {
      int position = chain.position(server.id());
      boolean keep = position < 0 || server.role() == ServerRole.FAILED;
      servers.add(keep ? server : server.withRole(roleIn(position, gear)));
    }
    return ClusterView.of(servers);
  }

  /** Where a hot file's extra replica may go in gear {@code gear}: the lowest gears' eligible servers (see above). */
  public List<Server> hotPool(ClusterView cluster, ReplicatedFile file, int gear, int want) {
    GearedLayout.checkGear(layout, gear);
    return lowestGearsWith(cluster, 0, gear, want, server -> !file.isOn(server.id())
        && !server.isOverloaded(overloadThreshold) && reserve.canHold(server, file.sizeBytes()));
  }

  /** Where a cold file's migrated replica may go in gear {@code gear}: the lowest gears above it with room. */
  public List<Server> coldPool(ClusterView cluster, ReplicatedFile file, int gear, int want) {
    GearedLayout.checkGear(layout, gear);
    return lowestGearsWith(cluster, gear + 1, layout.maximumGear(), want,
        server -> !file.isOn(server.id()) && reserve.canHold(server, file.sizeBytes()));
  }

  /**
   * Whether {@code file} keeps a live replica in gear 0 without the one on {@code serverId}; with a read floor,
   * whether it keeps r live replicas on the floor's servers without it.
   */
  public boolean mayRemove(ClusterView cluster, ReplicatedFile file, String serverId) {
    int left = 0;
    for (String holder : file.replicaServers()) {
      if (!holder.equals(serverId) && keptOn.contains(holder)
          && cluster.find(holder).map(s -> s.role() != ServerRole.FAILED).orElse(false)) {
        left++;
      }
    }
    return left >= kept;
  }

  /**
   * The eligible servers of gears {@code from}..j for the smallest j &lt;= {@code to} that has at least {@code want}
   * of them (all of from..to when none has), in chain order.
   */
  private List<Server> lowestGearsWith(ClusterView cluster, int from, int to, int want, Predicate<Server> eligible) {
    ExpansionChain chain = layout.chain();
    List<Server> pool = new ArrayList<>();
    if (from > to) {
      return pool;
    }
    int[] perGear = new int[to - from + 1];
    ActiveSet candidates = layout.serversOn(to);
    for (int p = candidates.next(0); p >= 0; p = candidates.next(p + 1)) {
      int gear = layout.gearOf(p);
      Server server = cluster.find(chain.id(p)).orElse(null);
      if (gear >= from && server != null && server.role() != ServerRole.FAILED && eligible.test(server)) {
        perGear[gear - from]++;
      }
    }
    int limit = to;
    for (int gear = from, count = 0; gear <= to; gear++) {
      count += perGear[gear - from];
      if (count >= want) {
        limit = gear;
        break;
      }
    }
    for (int p = candidates.next(0); p >= 0; p = candidates.next(p + 1)) {
      int gear = layout.gearOf(p);
      Server server = cluster.find(chain.id(p)).orElse(null);
      if (gear >= from && gear <= limit && server != null && server.role() != ServerRole.FAILED
          && eligible.test(server)) {
        pool.add(server);
      }
    }
    return pool;
  }
}
