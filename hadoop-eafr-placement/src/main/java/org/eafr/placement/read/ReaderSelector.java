package org.eafr.placement.read;

import java.util.ArrayList;
import java.util.Collections;
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
 * <p>{@link #select} is O(r) and {@link #order} O(r log r) for r holders ({@link #orderIndices}: the same
 * order over arrays, allocating nothing). Stateless and thread-safe.
 */
public final class ReaderSelector {

  /** The preferred serving holder (the first of {@link #order}), or empty when no holder serves reads. */
  public Optional<Server> select(String readerRack, List<Server> holders) {
    Server best = null;
    for (Server holder : Objects.requireNonNull(holders, "holders")) {
      // Strictly better only, so the first of equals wins, as in the stable sort of order().
      if (holder.role().servesReads() && (best == null || compare(readerRack, holder, best) < 0)) {
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
    serving.sort((a, b) -> compare(readerRack, a, b));
    return Collections.unmodifiableList(serving);
  }

  /**
   * {@link #order} over parallel arrays, for a caller that orders every block a NameNode hands out on its IPC threads
   * and so should build no {@link Server} or list per replica: writes the indices of the serving holders among the
   * first {@code count}, most preferred first, into {@code order} and returns how many there are. Same preference and
   * ties as {@link #order} (a stable insertion sort: O(r^2) for r holders, fewer steps than a sort's setup for a
   * block's few replicas).
   *
   * @param racks each holder's rack; {@code roles} its role; {@code queues} its read queue h
   */
  public int orderIndices(String readerRack, String[] racks, ServerRole[] roles, int[] queues, int count,
      int[] order) {
    boolean[] local = new boolean[count];
    for (int holder = 0; holder < count; holder++) {
      local[holder] = racks[holder].equals(readerRack);
    }
    return orderIndices(local, roles, queues, count, order);
  }

  /**
   * {@link #orderIndices(String, String[], ServerRole[], int[], int, int[])} with whether each holder is on the
   * reader's rack given by the caller ({@code local}), who can tell it without comparing rack names.
   */
  public int orderIndices(boolean[] local, ServerRole[] roles, int[] queues, int count, int[] order) {
    int serving = 0;
    for (int holder = 0; holder < count; holder++) {
      if (!roles[holder].servesReads()) {
        continue;
      }
      int at = serving;
      // Move every strictly worse holder one place back; an equal one stays ahead (stable).
      while (at > 0) {
        int ahead = order[at - 1];
        if (compare(local[ahead], queues[ahead], roles[ahead], local[holder], queues[holder], roles[holder]) <= 0) {
          break;
        }
        order[at] = ahead;
        at--;
      }
      order[at] = holder;
      serving++;
    }
    return serving;
  }

  private static int compare(String readerRack, Server a, Server b) {
    return compare(a.rack().equals(readerRack), a.concurrentReads(), a.role(), b.rack().equals(readerRack),
        b.concurrentReads(), b.role());
  }

  /** Same rack first, then the shorter queue, then HOT before STANDBY. */
  private static int compare(boolean localA, int queueA, ServerRole roleA, boolean localB, int queueB,
      ServerRole roleB) {
    if (localA != localB) {
      return localA ? -1 : 1;
    }
    if (queueA != queueB) {
      return Integer.compare(queueA, queueB);
    }
    return Integer.compare(roleA == ServerRole.HOT ? 0 : 1, roleB == ServerRole.HOT ? 0 : 1);
  }
}
