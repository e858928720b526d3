package org.eafr.placement.power;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.gear.AvailabilityCheck;

/**
 * The one decision every power-off of a DataNode host passes right before its command is sent (whoever asked: a gear
 * shift, a retry, a shift resumed after a restart or failover, an operator): may this NameNode switch the host off
 * now without leaving a block with no live replica? It extends Rabbit's availability invariant (Sec. 3.5: every
 * block keeps a replica on an active node) from a gear's servers to one host, and refuses unless all of:
 * <ol>
 *   <li>this NameNode is the active one (a standby's view may be stale, and two NameNodes must not drive one BMC);</li>
 *   <li>the NameNode checks every block pool the host can serve (with federation each NameNode sees only its own
 *       pool, so a host that may serve another pool is refused: that pool cannot be checked here);</li>
 *   <li>at least one DataNode of this NameNode runs on the host, and each is <em>verified</em> in maintenance
 *       ({@link Member#verified()}): IN_MAINTENANCE and its block list is one the NameNode keeps whole, i.e. alive
 *       with a block report since it registered, or dead but seen alive in maintenance before it died (HDFS keeps the
 *       blocks of a node that dies in maintenance; it drops those of a node that died first, then put into
 *       maintenance without any check, so nothing could tell what it held);</li>
 *   <li>every block those DataNodes hold (complete ones, and those being written with a pipeline node on the host)
 *       has a replica on a DataNode that stays on: alive, in service, and not on the host
 *       ({@link AvailabilityCheck}).</li>
 * </ol>
 *
 * <p>Pure and stateless: the caller gathers the facts (the NameNode adapter reads them from HDFS in short
 * read-locked batches, a host's blocks at a time).
 *
 * <p>Worked example: host h runs d1, IN_MAINTENANCE, alive and reported, holding b1 on {d1, d2} and b2 on {d1, d3};
 * d2 is alive and in service, d3 is IN_MAINTENANCE on another host. b1 keeps d2; b2 keeps nothing (d3 is not in
 * service), so the power-off of h is refused with "refusing to power off h: block b2 would have no live replica on a
 * server that stays on: its replicas are on [d1, d3], none of which stays on". With d3 in service it is allowed.
 */
public final class PowerOffGuard {
  /** The admin state HDFS shows a DataNode in once its maintenance check has passed. */
  public static final String IN_MAINTENANCE = "IN_MAINTENANCE";

  private PowerOffGuard() {
  }

  /**
   * Refuses a setting of {@code dfs.namenode.maintenance.replication.min} below 1: with 0 HDFS puts a DataNode
   * IN_MAINTENANCE at once, keeping no replica of its blocks elsewhere.
   *
   * @throws IllegalArgumentException naming {@code key}, the value and what is allowed
   */
  public static void requireMaintenanceMinimum(String key, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(key + " = " + value + " is not allowed with EAFR power control: it must be"
          + " at least 1, so that HDFS keeps a live replica of each block of a DataNode in maintenance elsewhere"
          + " (the HDFS default is 1)");
    }
  }

  /**
   * The refusal before any block is read (conditions 1 to 3), or empty when the blocks are to be checked next.
   *
   * @param host the host as the power inventory names it
   * @param haState this NameNode's HA state, e.g. ACTIVE or STANDBY
   * @param uncheckedPools block pools (nameservices) the host may serve that this NameNode cannot check; empty
   *     without federation
   * @param members the DataNodes of this NameNode on the host
   */
  public static Optional<String> refusal(String host, String haState, Set<String> uncheckedPools,
      List<Member> members) {
    String refused = "refusing to power off " + host + ": ";
    if (!"ACTIVE".equals(haState)) {
      return Optional.of(refused + "this NameNode is " + haState + ", not active; only the active NameNode powers"
          + " hosts off");
    }
    if (!uncheckedPools.isEmpty()) {
      return Optional.of(refused + "its DataNodes may also serve the block pools of " + new java.util.TreeSet<>(
          uncheckedPools) + " (federation), which this NameNode cannot check; a host serving several nameservices"
          + " is not powered off");
    }
    if (members.isEmpty()) {
      return Optional.of(refused + "no DataNode of this NameNode runs there, so HDFS cannot show it IN_MAINTENANCE");
    }
    for (Member member : members) {
      Optional<String> why = member.unverified();
      if (why.isPresent()) {
        return Optional.of(refused + why.get());
      }
    }
    return Optional.empty();
  }

  /**
   * The refusal for the first of {@code blocks} (held by DataNodes of the host) with no replica on a DataNode that
   * {@code staysOn} accepts; empty when every block keeps one.
   */
  public static Optional<String> blockRefusal(String host, Iterable<ReplicatedFile> blocks,
      Predicate<String> staysOn) {
    return AvailabilityCheck.firstUnavailable(blocks, staysOn)
        .map(gap -> "refusing to power off " + host + ": " + gap.message());
  }

  /**
   * Which DataNodes stay on while {@code host} is off: alive and in service ({@code liveInService}) and not one of
   * the host's own ({@code onHost}).
   */
  public static Predicate<String> staysOn(Set<String> onHost, Predicate<String> liveInService) {
    return id -> !onHost.contains(id) && liveInService.test(id);
  }

  /** One DataNode of the host as the NameNode shows it. */
  public static final class Member {
    private final String name;
    private final String adminState;
    private final boolean alive;
    private final boolean reported;
    private final boolean seenAliveInMaintenance;

    /**
     * @param name how messages name it
     * @param adminState HDFS's admin state, e.g. NORMAL, ENTERING_MAINTENANCE, IN_MAINTENANCE
     * @param alive whether it heartbeats
     * @param reported whether it sent a block report since it registered
     * @param seenAliveInMaintenance whether this NameNode saw it alive (and reported) in maintenance, with no state
     *     out of maintenance since
     */
    public Member(String name, String adminState, boolean alive, boolean reported, boolean seenAliveInMaintenance) {
      this.name = Objects.requireNonNull(name, "name");
      this.adminState = Objects.requireNonNull(adminState, "adminState");
      this.alive = alive;
      this.reported = reported;
      this.seenAliveInMaintenance = seenAliveInMaintenance;
    }

    /** IN_MAINTENANCE with a block list the NameNode keeps whole (see the class comment). */
    public boolean verified() {
      return unverified().isEmpty();
    }

    Optional<String> unverified() {
      if (!IN_MAINTENANCE.equals(adminState)) {
        return Optional.of("HDFS shows DataNode " + name + " " + adminState + (alive ? "" : " (dead)")
            + ", not IN_MAINTENANCE; put it into maintenance (dfs.hosts entry with adminState IN_MAINTENANCE, then"
            + " hdfs dfsadmin -refreshNodes) and wait until HDFS shows it IN_MAINTENANCE");
      }
      if (alive && !reported) {
        return Optional.of("DataNode " + name + " is IN_MAINTENANCE but has sent no block report since it"
            + " registered, so what it holds is not known yet; ask again once it has reported");
      }
      if (!alive && !seenAliveInMaintenance) {
        return Optional.of("DataNode " + name + " is IN_MAINTENANCE but dead, and this NameNode never saw it alive"
            + " in maintenance: it may have died first (HDFS then drops its blocks from the block map and puts it"
            + " IN_MAINTENANCE with no check), so nothing shows what it held; start its DataNode so that it reports"
            + " its blocks and HDFS checks them, or switch the host off by hand if you know it holds nothing needed");
      }
      return Optional.empty();
    }

    @Override
    public String toString() {
      return name + " " + adminState + (alive ? "" : " (dead)");
    }
  }
}
