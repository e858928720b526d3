package org.eafr.namenode.gear;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The gear state a NameNode persists (as an xattr of the state directory, so the edit log carries it to the standby):
 * the expansion chain (server id and rack, in chain order), the gear in force, the target gear, the phase of the shift
 * under way, the DataNodes in maintenance because their gear sleeps, the chain's size when it was fixed (the N the
 * layout's automatic defaults come from, kept when DataNodes are appended) and the DataNodes of the chain that HDFS
 * decommissioned (out of the layout: never waited for, powered or counted), and the sleeping DataNodes the gear-down
 * under way added (the only ones its cancel takes out of maintenance: one asleep since an earlier gear-down has its
 * host off and stays asleep). Immutable; JSON on disk, each newer field optional so that older state reads alike.
 */
public final class GearState {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** No chain fixed yet: placement is not geared and no gear can be chosen. */
  public static final GearState UNSET = new GearState(List.of(), -1, -1, GearPhase.STEADY, Set.of());

  private final List<ChainEntry> chain;
  private final int gear;
  private final int target;
  private final GearPhase phase;
  private final Set<String> sleeping;
  private final Set<String> waking;
  private final int sizedFor;
  private final Set<String> retired;
  private final Set<String> joining;

  public GearState(List<ChainEntry> chain, int gear, int target, GearPhase phase, Set<String> sleeping) {
    this(chain, gear, target, phase, sleeping, Set.of());
  }

  /**
   * @param waking sleeping DataNodes woken out of turn (a failure, or a block with no live replica: {@link
   *     WakeDetector}), to be powered on, registered and taken out of maintenance as a gear-up does
   */
  public GearState(List<ChainEntry> chain, int gear, int target, GearPhase phase, Set<String> sleeping,
      Set<String> waking) {
    this(chain, gear, target, phase, sleeping, waking, chain.size(), Set.of(), Set.of());
  }

  private GearState(List<ChainEntry> chain, int gear, int target, GearPhase phase, Set<String> sleeping,
      Set<String> waking, int sizedFor, Set<String> retired, Set<String> joining) {
    this.sizedFor = sizedFor;
    this.retired = Collections.unmodifiableSet(new TreeSet<>(retired));
    this.chain = List.copyOf(chain);
    this.gear = gear;
    this.target = target;
    this.phase = phase;
    this.sleeping = Collections.unmodifiableSet(new TreeSet<>(sleeping));
    this.waking = Collections.unmodifiableSet(new TreeSet<>(waking));
    this.joining = Collections.unmodifiableSet(retained(joining, sleeping));
  }

  public boolean hasChain() {
    return !chain.isEmpty();
  }

  public List<ChainEntry> chain() {
    return chain;
  }

  /** The gear in force (the last one reached); -1 before the chain is fixed. */
  public int gear() {
    return gear;
  }

  /** The gear a shift under way is heading for; equal to {@link #gear()} when steady. */
  public int target() {
    return target;
  }

  public GearPhase phase() {
    return phase;
  }

  /** DataNode ids (host:transfer port) kept in maintenance because their gear sleeps. */
  public Set<String> sleeping() {
    return sleeping;
  }

  /** Sleeping DataNodes being woken out of turn (a subset of {@link #sleeping()} until they are woken). */
  public Set<String> waking() {
    return waking;
  }

  public GearState withPhase(GearPhase next) {
    return new GearState(chain, gear, target, next, sleeping, waking, sizedFor, retired, joining);
  }

  /**
   * A shift toward {@code newTarget} in phase {@code next} with {@code newSleeping} asleep; those not asleep before
   * are added to {@link #joining()}.
   */
  public GearState shifting(int newTarget, GearPhase next, Set<String> newSleeping) {
    Set<String> added = new TreeSet<>(newSleeping);
    added.removeAll(sleeping);
    added.addAll(joining);
    return new GearState(chain, gear, newTarget, next, newSleeping, retained(waking, newSleeping), sizedFor, retired,
        added);
  }

  public GearState withSleeping(Set<String> newSleeping) {
    return new GearState(chain, gear, target, phase, newSleeping, retained(waking, newSleeping), sizedFor, retired,
        joining);
  }

  /** {@code more} sleeping DataNodes are to be woken out of turn as well. */
  public GearState withWaking(Set<String> more) {
    Set<String> next = new TreeSet<>(waking);
    next.addAll(more);
    return new GearState(chain, gear, target, phase, sleeping, retained(next, sleeping), sizedFor, retired, joining);
  }

  /** The DataNodes being woken are on, registered and reported: they sleep no more. */
  public GearState woken() {
    Set<String> stillSleeping = new TreeSet<>(sleeping);
    stillSleeping.removeAll(waking);
    return new GearState(chain, gear, target, phase, stillSleeping, Set.of(), sizedFor, retired, joining);
  }

  /** The target reached: steady in it (the DataNodes the gear-down added are asleep like the others now). */
  public GearState reached() {
    return new GearState(chain, target, target, GearPhase.STEADY, sleeping, waking, sizedFor, retired, Set.of());
  }

  /**
   * The gear-down under way given up: steady in the gear in force; the DataNodes it added ({@link #joining()}) and
   * the {@code running} ones (on, whatever the state says: a state persisted before {@code joining} was kept knows
   * no DataNode added) sleep no more; every other one asleep before it stays asleep.
   */
  public GearState gearDownCancelled(Set<String> running) {
    Set<String> stillSleeping = new TreeSet<>(sleeping);
    stillSleeping.removeAll(joining);
    stillSleeping.removeAll(running);
    return new GearState(chain, gear, gear, GearPhase.STEADY, stillSleeping, retained(waking, stillSleeping), sizedFor,
        retired, Set.of());
  }

  private static Set<String> retained(Set<String> waking, Set<String> sleeping) {
    Set<String> kept = new TreeSet<>(waking);
    kept.retainAll(sleeping);
    return kept;
  }

  public byte[] toBytes() {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode servers = root.putArray("chain");
    for (ChainEntry entry : chain) {
      ObjectNode server = servers.addObject().put("id", entry.id()).put("rack", entry.rack());
      if (!entry.host().isEmpty()) {
        server.put("host", entry.host());
      }
    }
    root.put("gear", gear).put("target", target).put("phase", phase.name());
    ArrayNode asleep = root.putArray("sleeping");
    sleeping.forEach(asleep::add);
    root.put("sizedFor", sizedFor);
    if (!retired.isEmpty()) {
      ArrayNode out = root.putArray("retired");
      retired.forEach(out::add);
    }
    if (!waking.isEmpty()) {
      ArrayNode woken = root.putArray("waking");
      waking.forEach(woken::add);
    }
    if (!joining.isEmpty()) {
      ArrayNode added = root.putArray("joining");
      joining.forEach(added::add);
    }
    return root.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Parses what {@link #toBytes()} wrote; a damaged value throws naming what is wrong. */
  public static GearState fromBytes(byte[] bytes) throws IOException {
    JsonNode root = JSON.readTree(bytes);
    List<ChainEntry> chain = new ArrayList<>();
    for (JsonNode server : root.path("chain")) {
      chain.add(new ChainEntry(server.path("id").asText(), server.path("rack").asText(),
          server.path("host").asText("")));
    }
    Set<String> sleeping = new TreeSet<>();
    root.path("sleeping").forEach(id -> sleeping.add(id.asText()));
    Set<String> waking = new TreeSet<>();
    root.path("waking").forEach(id -> waking.add(id.asText()));
    Set<String> retired = new TreeSet<>();
    root.path("retired").forEach(id -> retired.add(id.asText()));
    Set<String> joining = new TreeSet<>(); // absent from state written before it was kept: a cancel wakes nothing
    root.path("joining").forEach(id -> joining.add(id.asText()));
    try {
      return new GearState(chain, root.path("gear").asInt(-1), root.path("target").asInt(-1),
          GearPhase.valueOf(root.path("phase").asText("STEADY")), sleeping, waking,
          root.path("sizedFor").asInt(chain.size()), retired, joining);
    } catch (IllegalArgumentException e) {
      throw new IOException("gear state " + root + " is damaged: " + e.getMessage(), e);
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof GearState)) {
      return false;
    }
    GearState s = (GearState) o;
    return chain.equals(s.chain) && gear == s.gear && target == s.target && phase == s.phase
        && sleeping.equals(s.sleeping) && waking.equals(s.waking) && sizedFor == s.sizedFor
        && retired.equals(s.retired) && joining.equals(s.joining);
  }

  @Override
  public int hashCode() {
    return chain.hashCode() * 31 + gear * 7 + target;
  }

  @Override
  public String toString() {
    return "gear " + gear + (target != gear ? " -> " + target : "") + " " + phase + ", " + chain.size()
        + " servers in the chain, " + sleeping.size() + " sleeping" + (waking.isEmpty() ? "" : ", " + waking.size()
        + " waking") + (joining.isEmpty() ? "" : ", " + joining.size() + " added by the gear-down")
        + (retired.isEmpty() ? "" : ", " + retired.size() + " decommissioned");
  }

  /** The same state with {@code chain} (the same servers, in the same order, their host names learnt). */
  public GearState withChain(List<ChainEntry> chain) {
    return new GearState(chain, gear, target, phase, sleeping, waking, sizedFor, retired, joining);
  }

  /**
   * The chain extended by {@code appended} (DataNodes that registered after it was fixed), in gear {@code newGear}:
   * every server keeps its position, so every block's homes stay where they were.
   */
  public GearState extended(List<ChainEntry> appended, int newGear) {
    List<ChainEntry> longer = new ArrayList<>(chain);
    longer.addAll(appended);
    return new GearState(longer, newGear, newGear, phase, sleeping, waking, sizedFor, retired, joining);
  }

  /** The same state with {@code ids} out of the layout (decommissioned), no longer sleeping or waking. */
  public GearState withRetired(Set<String> ids) {
    Set<String> stillSleeping = new TreeSet<>(sleeping);
    stillSleeping.removeAll(ids);
    return new GearState(chain, gear, target, phase, stillSleeping, retained(waking, stillSleeping), sizedFor, ids,
        joining);
  }

  /** The chain's size when it was fixed: the N the layout's automatic defaults are computed from. */
  public int sizedFor() {
    return sizedFor;
  }

  /** Sleeping DataNodes the gear-down under way added (empty outside a gear-down). */
  public Set<String> joining() {
    return joining;
  }

  /** DataNodes of the chain HDFS decommissioned: out of the layout until they serve again. */
  public Set<String> retired() {
    return retired;
  }

  /**
   * A shift ended where it stands ({@code hdfs eafr gear cancel}): steady in {@code reachedGear}, with
   * {@code stillSleeping} (verified off) asleep and nothing waking.
   */
  public GearState cancelled(int reachedGear, Set<String> stillSleeping) {
    return new GearState(chain, reachedGear, reachedGear, GearPhase.STEADY, stillSleeping, Set.of(), sizedFor,
        retired, Set.of());
  }

  /**
   * One server of the expansion chain as persisted: its id, rack and the host name it registered with (a sleeping
   * server may not be registered with a NameNode just started, which then knows it only by this entry; "" when not
   * yet learnt, as in a state persisted before host names were).
   */
  public static final class ChainEntry {
    private final String id;
    private final String rack;
    private final String host;

    public ChainEntry(String id, String rack) {
      this(id, rack, "");
    }

    public ChainEntry(String id, String rack, String host) {
      this.id = id;
      this.rack = rack;
      this.host = host;
    }

    public String id() {
      return id;
    }

    public String rack() {
      return rack;
    }

    public String host() {
      return host;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ChainEntry && ((ChainEntry) o).id.equals(id) && ((ChainEntry) o).rack.equals(rack)
          && ((ChainEntry) o).host.equals(host);
    }

    @Override
    public int hashCode() {
      return id.hashCode() * 31 + rack.hashCode();
    }
  }
}
