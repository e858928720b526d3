package org.eafr.placement.gear.eafr;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.eafr.placement.cluster.Server;

/**
 * EAFR on gears' reader choice: EAFR's Alg. 3 (same rack, then the shortest queue) with each holder's queue counted in
 * rounds of its own read slots (the project's refinement; no paper has it).
 *
 * <p>Alg. 3 compares queue lengths h. Under a job's fan-out (hundreds of reads of one file at once) that sends as many
 * reads to a holder of c = 10 slots as to one of c = 20, and the first needs twice the rounds of service to drain: the
 * burst's last reads wait there. A read sent to a holder with h reads in flight and c slots waits for
 * <pre>  w = floor(h / c)                                                              rounds of service</pre>
 * before a slot frees. The holder chosen is the one with the least w; among equal w, one on the reader's rack (Alg. 3:
 * an intra-rack read is faster); then the least (h + 1) / c, the share of its slots the read fills; then the given
 * order. At light load (h &lt; c everywhere, w = 0) this is Alg. 3 with the queue compared as a share of the slots.
 * Only holders that serve reads are candidates.
 *
 * <p>Worked example: the reader is on /r1; holders A (/r1, h = 12, c = 10), B (/r2, h = 14, c = 20), C (/r2, h = 3,
 * c = 5). w = 1, 0, 0: B and C tie on rounds and rack, and B fills 15/20 = 0.75 of its slots against C's 4/5 = 0.8,
 * so B. Alg. 3 picks A (same rack), where the read waits a round. A burst of 30 reads over X (c = 10) and Y (c = 20),
 * both idle, sent one at a time: X gets 10 and Y 20, so every read starts at once; Alg. 3 splits them 15 and 15 and
 * five wait a round on X.
 *
 * <p>O(r) for r holders; stateless and thread-safe.
 */
public final class RoundsReader {

  /** The holder to read from, or empty when no holder serves reads. */
  public Optional<Server> select(String readerRack, List<Server> holders) {
    Server best = null;
    for (Server holder : Objects.requireNonNull(holders, "holders")) {
      if (holder.role().servesReads() && (best == null || better(readerRack, holder, best))) {
        best = holder;
      }
    }
    return Optional.ofNullable(best);
  }

  /** w = floor(h / c): the rounds of service a read sent to {@code holder} waits before a slot frees. */
  public static int waitRounds(Server holder) {
    return waitRounds(holder.concurrentReads(), Math.max(1, holder.serviceCapacity()));
  }

  /**
   * The same choice over holders given by index (the NameNode's reader ordering builds no {@code Server} per replica):
   * the index among the {@code holders.count()} of the holder to read from; -1 when there is none. Every holder given
   * serves reads. O(count), each holder's w computed once (this runs for every block a NameNode lists).
   */
  public int firstIndex(Holders holders) {
    int best = -1;
    int bestRounds = 0;
    boolean bestLocal = false;
    int bestQueue = 0;
    int bestSlots = 1;
    for (int i = 0; i < holders.count(); i++) {
      int slots = Math.max(1, holders.slots(i));
      int queue = holders.queue(i);
      int rounds = waitRounds(queue, slots);
      boolean local = holders.onReaderRack(i);
      if (best < 0 || better(rounds, local, queue, slots, bestRounds, bestLocal, bestQueue, bestSlots)) {
        best = i;
        bestRounds = rounds;
        bestLocal = local;
        bestQueue = queue;
        bestSlots = slots;
      }
    }
    return best;
  }

  /**
   * Holders by index 0 .. count() - 1: whether each is on the reader's rack, its reads in flight h and its read slots
   * c, no object per holder.
   */
  public interface Holders {
    int count();

    boolean onReaderRack(int i);

    int queue(int i);

    int slots(int i);
  }

  /** Strictly better only, so the first of equals wins. */
  private static boolean better(String readerRack, Server a, Server b) {
    int slotsA = Math.max(1, a.serviceCapacity());
    int slotsB = Math.max(1, b.serviceCapacity());
    return better(waitRounds(a.concurrentReads(), slotsA), a.rack().equals(readerRack), a.concurrentReads(), slotsA,
        waitRounds(b.concurrentReads(), slotsB), b.rack().equals(readerRack), b.concurrentReads(), slotsB);
  }

  /**
   * Whether holder A (wait {@code roundsA}, on the reader's rack or not, h = {@code queueA}, c = {@code slotsA} >= 1)
   * is strictly better than holder B.
   */
  private static boolean better(int roundsA, boolean localA, int queueA, int slotsA, int roundsB, boolean localB,
      int queueB, int slotsB) {
    if (roundsA != roundsB) {
      return roundsA < roundsB;
    }
    if (localA != localB) {
      return localA;
    }
    return fillsLess(queueA, slotsA, queueB, slotsB);
  }

  /**
   * (hA + 1) / cA &lt; (hB + 1) / cB, compared as doubles. With cA = cB (every holder of the NameNode's ordering has
   * eafr.server.service-capacity slots) that is hA &lt; hB: dividing distinct ints below 2^31 by one c >= 1 leaves
   * distinct doubles in the same order, so no division is needed.
   */
  private static boolean fillsLess(int queueA, int slotsA, int queueB, int slotsB) {
    if (slotsA == slotsB) {
      return queueA < queueB;
    }
    return (queueA + 1.0) / slotsA < (queueB + 1.0) / slotsB;
  }

  /** w = floor(h / c) for c >= 1, with no division at light load (0 <= h &lt; c: w = 0). */
  private static int waitRounds(int queue, int slots) {
    return queue >= 0 && queue < slots ? 0 : queue / slots;
  }
}
