package org.eafr.placement.gear.shift;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eafr.placement.power.PowerOffGuard;

/**
 * A power controller behind the {@link PowerOffGuard}, for one that runs none itself (the simulator's): each power-off
 * is checked against what {@code cluster} shows at that moment, and a refused one never reaches the controller; its
 * ticket answers {@link Reply#refused} with the guard's reason at once. Refusals take tickets below zero, so they never
 * meet the controller's own.
 */
final class GuardedPower implements PowerPort {
  private final PowerPort power;
  private final ShiftCluster cluster;
  private final Map<Long, Reply> refusals = new HashMap<>();
  private long nextRefusal = -1;

  private GuardedPower(PowerPort power, ShiftCluster cluster) {
    this.power = power;
    this.cluster = cluster;
  }

  /** {@code power} itself when it runs the guard, else behind it. */
  static PowerPort of(PowerPort power, ShiftCluster cluster) {
    return power.guardsPowerOff() ? power : new GuardedPower(power, cluster);
  }

  @Override
  public long send(String host, Power wanted) {
    Optional<String> refusal = wanted == Power.OFF ? refusal(host) : Optional.empty();
    if (refusal.isEmpty()) {
      return power.send(host, wanted);
    }
    long ticket = nextRefusal--;
    refusals.put(ticket, Reply.refused(refusal.get()));
    return ticket;
  }

  @Override
  public Reply poll(long ticket) {
    if (ticket >= 0) {
      return power.poll(ticket);
    }
    Reply refused = refusals.remove(ticket); // polled once: the shift then reads the host and sends anew
    return refused == null ? Reply.failed("unknown ticket " + ticket) : refused;
  }

  @Override
  public Optional<Power> read(String host) {
    return power.read(host);
  }

  @Override
  public boolean controls(String host) {
    return power.controls(host);
  }

  @Override
  public Optional<String> heldBack(String host) {
    return power.heldBack(host);
  }

  @Override
  public boolean guardsPowerOff() {
    return true;
  }

  /** The guard's refusal of {@code host}'s power-off now: IN_MAINTENANCE and trusted, then its blocks. */
  private Optional<String> refusal(String host) {
    DataNodeView node = cluster.dataNode(host);
    List<PowerOffGuard.Member> members = node.registered() ? List.of(node.member(host)) : List.of();
    Optional<String> refusal = PowerOffGuard.refusal(host, "ACTIVE", Set.of(), members);
    return refusal.isPresent() ? refusal : PowerOffGuard.blockRefusal(host, cluster.blocksOn(host),
        PowerOffGuard.staysOn(Set.of(host), other -> cluster.dataNode(other).liveInService()));
  }
}
