package org.eafr.placement.gear;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eafr.placement.cluster.Server;

/**
 * The expansion chain of Rabbit (Amur et al., Sec. 3.1.1): the ordered list of servers in which a geared layout turns
 * them on (and, reversed, off). Every geared class names a server by its position in the chain (0-based here, where
 * the paper counts from 1), so a decision is array indexing, not a map lookup; {@link #position(String)} and
 * {@link #id(int)} translate to and from the cluster's server ids in O(1).
 *
 * <p>Immutable and safe to share between threads. Racks are interned to small integers so that rack diversity checks
 * compare ints.
 *
 * <p>Worked example: {@code rackInterleaved} of a1, a2, a3 (rack A) and b1 (rack B) is a1, b1, a2, a3: one server per
 * rack in turn, racks in the order they first appear, so the first positions (the primaries) span every rack.
 *
 * <p>Worked example of {@link #largestFirst}: a chain a1 (250 GB), b1 (750 GB), a2 (500 GB), b2 (750 GB) becomes b1,
 * b2, a2, a1: the largest servers first, so the primaries at its head hold the most bytes; b1 stays ahead of b2 (same
 * capacity, chain order), so a chain of equal disks is returned unchanged.
 */
public final class ExpansionChain {
  private final String[] ids;
  private final int[] racks;
  /** Each position's storage capacity in bytes (0 when the chain was built from servers without one). */
  private final long[] capacities;
  private final List<String> rackNames;
  private final Map<String, Integer> positions;

  private ExpansionChain(List<Server> ordered) {
    int n = ordered.size();
    this.ids = new String[n];
    this.racks = new int[n];
    this.capacities = new long[n];
    Map<String, Integer> rackIds = new LinkedHashMap<>();
    Map<String, Integer> byId = new HashMap<>(n * 2);
    for (int i = 0; i < n; i++) {
      Server server = ordered.get(i);
      ids[i] = server.id();
      racks[i] = rackIds.computeIfAbsent(server.rack(), r -> rackIds.size());
      capacities[i] = server.storageCapacity();
      if (byId.put(server.id(), i) != null) {
        throw new IllegalArgumentException("server id " + server.id() + " appears twice in the expansion chain");
      }
    }
    this.rackNames = Collections.unmodifiableList(new ArrayList<>(rackIds.keySet()));
    this.positions = Collections.unmodifiableMap(byId);
  }

  /** The chain in the given order. */
  public static ExpansionChain of(List<Server> servers) {
    return new ExpansionChain(servers);
  }

  /**
   * The chain that takes one server from each rack in turn (racks in order of first appearance, servers in the given
   * order within a rack), so that every prefix of the chain, and so every gear, spans as many racks as it can.
   */
  public static ExpansionChain rackInterleaved(List<Server> servers) {
    Map<String, List<Server>> byRack = new LinkedHashMap<>();
    for (Server server : servers) {
      byRack.computeIfAbsent(server.rack(), r -> new ArrayList<>()).add(server);
    }
    List<Server> ordered = new ArrayList<>(servers.size());
    for (int round = 0; ordered.size() < servers.size(); round++) {
      for (List<Server> rack : byRack.values()) {
        if (round < rack.size()) {
          ordered.add(rack.get(round));
        }
      }
    }
    return new ExpansionChain(ordered);
  }

  /**
   * This chain with the largest servers (by storage capacity) first, servers of equal capacity in this chain's order
   * (a stable sort), so that the primaries and the lowest gears hold the most bytes: the fewest servers that store one
   * copy, as the ideal keeps on. A chain of equal capacities is returned unchanged. O(N log N).
   */
  public ExpansionChain largestFirst() {
    List<Server> servers = new ArrayList<>(ids.length);
    for (int i = 0; i < ids.length; i++) {
      servers.add(Server.builder(ids[i]).rack(rackNames.get(racks[i])).storageCapacity(capacities[i]).build());
    }
    servers.sort((a, b) -> Long.compare(b.storageCapacity(), a.storageCapacity()));
    return new ExpansionChain(servers);
  }

  /** The storage capacity in bytes of the server at {@code position}; 0 when its server had none. */
  public long capacity(int position) {
    return capacities[checkPosition(position)];
  }

  /** N, the number of servers in the chain. */
  public int size() {
    return ids.length;
  }

  /** The id of the server at {@code position} (0-based). */
  public String id(int position) {
    return ids[checkPosition(position)];
  }

  /** The position of server {@code id}, or -1 when it is not in the chain. */
  public int position(String id) {
    Integer position = positions.get(id);
    return position == null ? -1 : position;
  }

  /** The position of server {@code id}; an unknown id throws naming it. */
  public int requirePosition(String id) {
    int position = position(id);
    if (position < 0) {
      throw new IllegalArgumentException("unknown server " + id + "; the expansion chain has " + ids.length
          + " servers");
    }
    return position;
  }

  /** The interned rack (0 .. rackCount() - 1) of the server at {@code position}. */
  public int rack(int position) {
    return racks[checkPosition(position)];
  }

  public String rackName(int position) {
    return rackNames.get(rack(position));
  }

  public int rackCount() {
    return rackNames.size();
  }

  /** The ids of {@code positions}, in that order. */
  public List<String> ids(int[] positions) {
    List<String> result = new ArrayList<>(positions.length);
    for (int position : positions) {
      result.add(id(position));
    }
    return Collections.unmodifiableList(result);
  }

  private int checkPosition(int position) {
    if (position < 0 || position >= ids.length) {
      throw new IndexOutOfBoundsException("chain position " + position + " is not allowed: expected 0.."
          + (ids.length - 1));
    }
    return position;
  }

  @Override
  public String toString() {
    return "ExpansionChain" + List.of(ids);
  }
}
