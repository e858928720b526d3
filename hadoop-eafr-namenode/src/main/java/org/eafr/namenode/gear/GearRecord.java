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
import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.gear.shift.ShiftState;

/**
 * What a NameNode persists for its gears (as an xattr of the state directory, so the edit log carries it to the
 * standby): the core's {@link ShiftState} (gear in force, target gear, phase, sleeping, waking and joining DataNodes)
 * and the facts only a NameNode keeps beside it: the expansion chain (server id, rack and host name, in chain order),
 * the chain's size when it was fixed (the N the layout's automatic defaults come from, kept when DataNodes are
 * appended), the DataNodes of the chain HDFS decommissioned (out of the layout: never waited for, powered or
 * counted) and the p the layout was grown to ({@code hdfs eafr relayout grow}; 0 while eafr.gear.primaries sizes it).
 * Immutable; JSON on disk, each newer field optional so that older records read alike.
 */
public final class GearRecord {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** No chain fixed yet: placement is not geared and no gear can be chosen. */
  public static final GearRecord UNSET = new GearRecord(List.of(), 0, Set.of(), null, 0);

  private final List<ChainEntry> chain;
  private final int sizedFor;
  private final Set<String> retired;
  /** The primaries the layout was grown to; 0 while eafr.gear.primaries (or its automatic p) sizes it. */
  private final int primaries;
  /** The shift's state; null only before the chain is fixed ({@link #UNSET}, or a record persisted with gear -1). */
  private final ShiftState shift;

  /** A record of {@code chain}, fixed with its size, nothing decommissioned, in {@code shift}. */
  public GearRecord(List<ChainEntry> chain, ShiftState shift) {
    this(chain, chain.size(), Set.of(), Objects.requireNonNull(shift, "shift"), 0);
  }

  private GearRecord(List<ChainEntry> chain, int sizedFor, Set<String> retired, ShiftState shift, int primaries) {
    this.chain = List.copyOf(chain);
    this.sizedFor = sizedFor;
    this.retired = Collections.unmodifiableSet(new TreeSet<>(retired));
    this.shift = shift;
    this.primaries = primaries;
  }

  public boolean hasChain() {
    return !chain.isEmpty();
  }

  public List<ChainEntry> chain() {
    return chain;
  }

  /** The core's shift state; IllegalStateException before the chain is fixed (no gear exists then). */
  public ShiftState shift() {
    if (shift == null) {
      throw new IllegalStateException("no expansion chain yet: no gear is in force");
    }
    return shift;
  }

  /** The same record in {@code next} (chain, size and decommissioned DataNodes kept). */
  public GearRecord withShift(ShiftState next) {
    return new GearRecord(chain, sizedFor, retired, Objects.requireNonNull(next, "next"), primaries);
  }

  /** The gear in force (the last one reached); -1 before the chain is fixed. */
  public int gear() {
    return shift == null ? -1 : shift.gear();
  }

  /** The gear a shift under way is heading for; equal to {@link #gear()} when steady. */
  public int target() {
    return shift == null ? -1 : shift.target();
  }

  public ShiftPhase phase() {
    return shift == null ? ShiftPhase.STEADY : shift.phase();
  }

  /** DataNode ids (host:transfer port) kept in maintenance because their gear sleeps. */
  public SortedSet<String> sleeping() {
    return shift == null ? Collections.emptySortedSet() : shift.sleeping();
  }

  /** Sleeping DataNodes being woken out of turn (a subset of {@link #sleeping()}). */
  public SortedSet<String> waking() {
    return shift == null ? Collections.emptySortedSet() : shift.waking();
  }

  /** Sleeping DataNodes the gear-down under way added (empty outside a gear-down). */
  public SortedSet<String> joining() {
    return shift == null ? Collections.emptySortedSet() : shift.joining();
  }

  /**
   * The gear-down under way given up ({@link ShiftState#cancelled(Set)}): the {@code running} DataNodes (on, whatever
   * the record says: one persisted before {@code joining} was kept knows no DataNode added) sleep no more either.
   */
  public GearRecord gearDownCancelled(Set<String> running) {
    return withShift(shift().cancelled(running));
  }

  public byte[] toBytes() {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode servers = root.putArray("chain");
    for (ChainEntry entry : chain) {
      ObjectNode server = servers.addObject().put("id", entry.id()).put("rack", entry.rack());
      if (!entry.host().isEmpty()) {
        server.put("host", entry.host());
      }
      if (entry.capacityBytes() > 0) {
        server.put("capacity", entry.capacityBytes());
      }
    }
    root.put("gear", gear()).put("target", target()).put("phase", phase().name());
    ArrayNode asleep = root.putArray("sleeping");
    sleeping().forEach(asleep::add);
    root.put("sizedFor", sizedFor);
    putUnlessEmpty(root, "retired", retired);
    if (primaries > 0) {
      root.put("primaries", primaries);
    }
    putUnlessEmpty(root, "waking", waking());
    putUnlessEmpty(root, "joining", joining());
    return root.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void putUnlessEmpty(ObjectNode root, String field, Set<String> ids) {
    if (!ids.isEmpty()) {
      ids.forEach(root.putArray(field)::add);
    }
  }

  /** Parses what {@link #toBytes()} wrote (and what older NameNodes wrote); a damaged value throws naming it. */
  public static GearRecord fromBytes(byte[] bytes) throws IOException {
    JsonNode root = JSON.readTree(bytes);
    List<ChainEntry> chain = new ArrayList<>();
    for (JsonNode server : root.path("chain")) {
      chain.add(new ChainEntry(server.path("id").asText(), server.path("rack").asText(),
          server.path("host").asText(""), server.path("capacity").asLong(0)));
    }
    int gear = root.path("gear").asInt(-1);
    try {
      ShiftState shift = gear < 0 ? null : new ShiftState(gear, root.path("target").asInt(-1),
          ShiftPhase.valueOf(root.path("phase").asText("STEADY")), ids(root, "sleeping"), ids(root, "waking"),
          ids(root, "joining")); // joining is absent from records written before it was kept: a cancel wakes none
      return new GearRecord(chain, root.path("sizedFor").asInt(chain.size()), ids(root, "retired"), shift,
          root.path("primaries").asInt(0));
    } catch (IllegalArgumentException e) {
      throw new IOException("gear state " + root + " is damaged: " + e.getMessage(), e);
    }
  }

  private static Set<String> ids(JsonNode root, String field) {
    Set<String> ids = new TreeSet<>();
    root.path(field).forEach(id -> ids.add(id.asText()));
    return ids;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof GearRecord)) {
      return false;
    }
    GearRecord r = (GearRecord) o;
    return chain.equals(r.chain) && sizedFor == r.sizedFor && retired.equals(r.retired)
        && Objects.equals(shift, r.shift) && primaries == r.primaries;
  }

  @Override
  public int hashCode() {
    return chain.hashCode() * 31 + Objects.hashCode(shift);
  }

  @Override
  public String toString() {
    return (shift == null ? "no gear" : shift.toString()) + ", " + chain.size() + " servers in the chain"
        + (joining().isEmpty() ? "" : ", " + joining().size() + " added by the gear-down")
        + (retired.isEmpty() ? "" : ", " + retired.size() + " decommissioned")
        + (primaries == 0 ? "" : ", layout grown to p = " + primaries);
  }

  /** The same record with {@code chain} (the same servers, in the same order, their host names learnt). */
  public GearRecord withChain(List<ChainEntry> chain) {
    return new GearRecord(chain, sizedFor, retired, shift, primaries);
  }

  /**
   * The chain extended by {@code appended} (DataNodes that registered after it was fixed), in gear {@code newGear}:
   * every server keeps its position, so every block's homes stay where they were.
   */
  public GearRecord extended(List<ChainEntry> appended, int newGear) {
    List<ChainEntry> longer = new ArrayList<>(chain);
    longer.addAll(appended);
    ShiftState s = shift();
    return new GearRecord(longer, sizedFor, retired, new ShiftState(newGear, newGear, s.phase(), s.sleeping(),
        s.waking(), s.joining()), primaries);
  }

  /** The same record with {@code ids} out of the layout (decommissioned), no longer sleeping or waking. */
  public GearRecord withRetired(Set<String> ids) {
    ShiftState s = shift();
    Set<String> stillSleeping = new TreeSet<>(s.sleeping());
    stillSleeping.removeAll(ids);
    return new GearRecord(chain, sizedFor, ids, new ShiftState(s.gear(), s.target(), s.phase(), stillSleeping,
        s.waking(), s.joining()), primaries);
  }

  /** The chain's size when it was fixed: the N the layout's automatic defaults are computed from. */
  public int sizedFor() {
    return sizedFor;
  }

  /** The p the layout was grown to; 0 while the settings size it (eafr.gear.primaries, or its automatic p). */
  public int primaries() {
    return primaries;
  }

  /**
   * The same record with the layout grown to {@code p} primaries (every server keeps its chain position; the
   * layout's homes and gears are those of p, and relayout carries the blocks there). Put in force at the top gear.
   */
  public GearRecord withPrimaries(int p) {
    return new GearRecord(chain, sizedFor, retired, shift, p);
  }

  /** DataNodes of the chain HDFS decommissioned: out of the layout until they serve again. */
  public Set<String> retired() {
    return retired;
  }

  /**
   * One server of the expansion chain as persisted: its id, rack, the host name it registered with (a sleeping
   * server may not be registered with a NameNode just started, which then knows it only by this entry; "" when not
   * yet learnt, as in a record persisted before host names were) and its storage capacity in bytes when the chain was
   * fixed (0 when unknown, as in a record persisted before capacities were), so a layout that deals primaries by
   * capacity builds the same on every NameNode and after every restart.
   */
  public static final class ChainEntry {
    private final String id;
    private final String rack;
    private final String host;
    private final long capacityBytes;

    public ChainEntry(String id, String rack) {
      this(id, rack, "");
    }

    public ChainEntry(String id, String rack, String host) {
      this(id, rack, host, 0);
    }

    public ChainEntry(String id, String rack, String host, long capacityBytes) {
      this.id = id;
      this.rack = rack;
      this.host = host;
      this.capacityBytes = Math.max(0, capacityBytes);
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

    public long capacityBytes() {
      return capacityBytes;
    }

    /** The same server with the host name {@code name}. */
    public ChainEntry withHost(String name) {
      return new ChainEntry(id, rack, name, capacityBytes);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ChainEntry && ((ChainEntry) o).id.equals(id) && ((ChainEntry) o).rack.equals(rack)
          && ((ChainEntry) o).host.equals(host) && ((ChainEntry) o).capacityBytes == capacityBytes;
    }

    @Override
    public int hashCode() {
      return id.hashCode() * 31 + rack.hashCode();
    }
  }
}
