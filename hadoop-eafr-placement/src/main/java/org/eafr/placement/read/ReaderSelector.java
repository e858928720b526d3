package org.eafr.placement.read;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;

/**
 * Network-aware data node selection for a reader (EAFR, Lin and Shen, Sec. 3.5, Alg. 3).
 *
 * <p>Only holders that serve reads (hot and standby, {@link ServerRole#servesReads()}) are candidates; cold and failed
 * holders never appear. The reader prefers a holder on its own rack (intra-rack links are faster) and, within that,
 * the shortest read queue h ({@link Server#concurrentReads()}); with no serving holder on its rack it takes the
 * shortest queue anywhere. The full order a NameNode sends to a client is: same-rack holders by queue, then the rest by
 * queue; ties go to HOT before STANDBY (a standby server is busy absorbing cold replicas), then to the given order. A
 * null reader rack (a client outside the cluster) has no same-rack holders.
 *
 * <p>Worked example: the reader is on /r1; holders A (COLD, /r1, h = 0), B (HOT, /r2, h = 1), C (STANDBY, /r1, h = 3),
 * D (HOT, /r1, h = 3), E (FAILED, /r1, h = 0). A and E are dropped; C and D tie on rack and queue and D wins as HOT.
 * Order: D, C, B; select: D. A reader on /r3 (or with no rack) gets B, D, C and selects B.
 *
 * <p>{@link #select} is O(r) and {@link #order} O(r log r) for r holders. Stateless and thread-safe.
 */
public final class ReaderSelector {

  /** The preferred serving holder (the first of {@link #order}), or empty when no holder serves reads. */
  public Optional<Server> select(String readerRack, List<Server> holders) {
    Comparator<Server> preference = preference(readerRack);
    Server best = null;
    for (Server holder : Objects.requireNonNull(holders, "holders")) {
      // Strictly better only, so the first of equals wins, as in the stable sort of order().
      if (holder.role().servesReads() && (best == null || preference.compare(holder, best) < 0)) {
        best = holder;
      }
    }
    return Optional.ofNullable(best);
  }

  /** Every serving holder, most preferred first; unmodifiable. Cold and failed holders are left out. */
  public List<Server> order(String readerRack, List<Server> holders) {
    List<Server> serving = new ArrayList<>();
    for (Server holder : Objects.requireNonNull(holders, "holders")) {
      if (holder.role().servesReads()) {
        serving.add(holder);
      }
    }
    serving.sort(preference(readerRack));
    return Collections.unmodifiableList(serving);
  }

  private static Comparator<Server> preference(String readerRack) {
    return Comparator.<Server>comparingInt(server -> server.rack().equals(readerRack) ? 0 : 1)
        .thenComparingInt(Server::concurrentReads)
        .thenComparingInt(server -> server.role() == ServerRole.HOT ? 0 : 1);
  }
}
