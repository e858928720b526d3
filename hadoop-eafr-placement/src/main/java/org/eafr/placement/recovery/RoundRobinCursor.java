package org.eafr.placement.recovery;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.eafr.placement.cluster.Server;

/**
 * The round-robin counter of EAFR Alg. 4 (lines 9-17) over one destination pool. A choice starts at the cursor, skips
 * servers that do not fit, and moves the cursor just past the server chosen, so the next file starts at the next
 * server. The search stops after one full cycle (the paper loops forever when no server has room) and then leaves the
 * cursor where it was.
 *
 * <p>The position is taken modulo the pool's size at each call, so the pool may grow or shrink between calls.
 * Thread-safe without locks: a choice commits only if no other thread moved the cursor meanwhile, else it is redone.
 */
final class RoundRobinCursor {
  private final AtomicLong position = new AtomicLong();

  /** The first server from the cursor on that {@code fits}, or empty when none does; {@code fits} must be pure. */
  Optional<Server> next(List<Server> pool, Predicate<Server> fits) {
    long start;
    int offset;
    do {
      start = position.get();
      offset = firstFit(pool, start, fits);
      if (offset < 0) {
        return Optional.empty();
      }
    } while (!position.compareAndSet(start, start + offset + 1));
    return Optional.of(pool.get(index(start + offset, pool.size())));
  }

  private static int firstFit(List<Server> pool, long start, Predicate<Server> fits) {
    for (int offset = 0; offset < pool.size(); offset++) {
      if (fits.test(pool.get(index(start + offset, pool.size())))) {
        return offset;
      }
    }
    return -1;
  }

  private static int index(long position, int poolSize) {
    return (int) Math.floorMod(position, (long) poolSize);
  }
}
