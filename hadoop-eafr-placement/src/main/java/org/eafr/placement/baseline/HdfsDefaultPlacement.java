package org.eafr.placement.baseline;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;

/**
 * Stock HDFS replica placement (the HDFS baseline of EAFR Sec. 4; HDFS's default block placement policy): the first
 * replica on the writer's node when the writer is a server with room, else on a random server; the second on a random
 * server on another rack; the third on another server on the second's rack; further replicas on random servers.
 *
 * <p>Only servers with room for the file ({@link StorageReserve#canHold}, Eq. 8) are candidates; the caller passes the
 * live servers. When the preferred rack has no candidate, the rule falls back as HDFS does: the third replica tries the
 * first replica's rack before any rack; the second takes any rack. So three replicas span exactly two racks unless
 * only one rack has room, or neither of the first two replicas' racks has another server with room (then three). When
 * there are fewer candidates than replicas, fewer servers are returned. A server is never chosen twice. Picks are uniform over candidates in the given order, so a
 * seeded {@link Random} gives the same placement every time.
 *
 * <p>Worked example: servers a1, a2 on rack /a and b1, b2 on rack /b, writer a2, 3 replicas: a2 (the writer), then
 * b1 or b2 (the only other rack), then the other server of /b. Rack /a and /b both hold a replica, /b two of them.
 */
public final class HdfsDefaultPlacement {
  private final StorageReserve reserve;
  private final Random random;

  public HdfsDefaultPlacement(StorageReserve reserve, Random random) {
    this.reserve = Objects.requireNonNull(reserve, "reserve");
    this.random = Objects.requireNonNull(random, "random");
  }

  /**
   * Chooses up to {@code replicas} distinct servers for a new file, in replica order.
   *
   * @param writerId the id of the writing client's node, or null when the writer is not a server
   * @param replicas how many replicas to place, at least 1
   * @param sizeBytes the file's size, at least 0
   * @param servers the live servers, with distinct ids
   */
  public List<Server> choose(String writerId, int replicas, long sizeBytes, List<Server> servers) {
    checkRequest(replicas, sizeBytes, servers);
    List<Server> candidates = withRoom(servers, sizeBytes);
    List<Server> chosen = new ArrayList<>();
    while (chosen.size() < replicas && chosen.size() < candidates.size()) {
      chosen.add(next(writerId, chosen, candidates));
    }
    return Collections.unmodifiableList(chosen);
  }

  private Server next(String writerId, List<Server> chosen, List<Server> candidates) {
    List<Server> rest = notChosen(candidates, chosen);
    switch (chosen.size()) {
      case 0:
        return pickPreferring(rest, List.of(s -> s.id().equals(writerId)));
      case 1:
        return pickPreferring(rest, List.of(onOtherRackThan(chosen.get(0))));
      case 2:
        return pickPreferring(rest, List.of(onRackOf(chosen.get(1)), onRackOf(chosen.get(0))));
      default:
        return pick(rest);
    }
  }

  /** A random server matching the first preference that any server matches; any server when none does. */
  private Server pickPreferring(List<Server> rest, List<Predicate<Server>> preferences) {
    for (Predicate<Server> preference : preferences) {
      List<Server> preferred = new ArrayList<>();
      for (Server server : rest) {
        if (preference.test(server)) {
          preferred.add(server);
        }
      }
      if (!preferred.isEmpty()) {
        return pick(preferred);
      }
    }
    return pick(rest);
  }

  private Server pick(List<Server> servers) {
    return servers.get(random.nextInt(servers.size()));
  }

  private static Predicate<Server> onRackOf(Server other) {
    return s -> s.rack().equals(other.rack());
  }

  private static Predicate<Server> onOtherRackThan(Server other) {
    return s -> !s.rack().equals(other.rack());
  }

  private List<Server> withRoom(List<Server> servers, long sizeBytes) {
    List<Server> candidates = new ArrayList<>();
    for (Server server : servers) {
      if (reserve.canHold(server, sizeBytes)) {
        candidates.add(server);
      }
    }
    return candidates;
  }

  private static List<Server> notChosen(List<Server> candidates, List<Server> chosen) {
    List<Server> rest = new ArrayList<>(candidates);
    rest.removeAll(chosen);
    return rest;
  }

  private static void checkRequest(int replicas, long sizeBytes, List<Server> servers) {
    if (replicas < 1) {
      throw new IllegalArgumentException("replicas " + replicas + " is not allowed: expected at least 1");
    }
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("sizeBytes " + sizeBytes + " is not allowed: expected at least 0");
    }
    Set<String> ids = new HashSet<>();
    for (Server server : servers) {
      if (!ids.add(server.id())) {
        throw new IllegalArgumentException("servers " + servers + " are not allowed: server id " + server.id()
            + " appears twice; expected distinct ids");
      }
    }
  }
}
