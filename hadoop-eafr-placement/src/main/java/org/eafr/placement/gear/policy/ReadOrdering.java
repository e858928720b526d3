package org.eafr.placement.gear.policy;

import java.util.Arrays;
import java.util.Objects;
import org.eafr.placement.gear.ReadBalancer;
import org.eafr.placement.gear.eafr.RoundsReader;

/**
 * Which replica a geared policy's read goes to. Either the layout's read balancer chooses ({@link Balanced}: Rabbit's
 * hit-ratio balancer, Sec. 3.2; SpringFS's read offloading, Sec. 3), or EAFR on gears reads in rounds of each holder's
 * slots ({@link Rounds}: {@link RoundsReader}, EAFR Alg. 3 refined), its balancer then only measuring the layout's
 * power proportionality. {@link #first} is O(replicas) and thread-safe, for the NameNode's getBlockLocations.
 */
public interface ReadOrdering {
  /** The layout's balancer: it serves reads ({@link Balanced}) or measures them ({@link Rounds}). */
  ReadBalancer balancer();

  /** The index among the candidates of the replica to list first; -1 when none of them should serve. */
  int first(ReadCandidates candidates);

  /**
   * Whether {@link #first} reads the candidates' chain positions; when it does not, the NameNode's reader ordering
   * gives it none ({@link ReadCandidates#ordered} with no positions) and looks up no replica in the chain.
   */
  default boolean readsPositions() {
    return true;
  }

  /** Reads go where the balancer chooses among the candidates that are on and in the chain; the choice is counted. */
  final class Balanced implements ReadOrdering {
    private final ReadBalancer balancer;

    public Balanced(ReadBalancer balancer) {
      this.balancer = Objects.requireNonNull(balancer, "balancer");
    }

    @Override
    public ReadBalancer balancer() {
      return balancer;
    }

    @Override
    public int first(ReadCandidates candidates) {
      int chosen = balancer.choose(inChain(candidates), candidates.on);
      for (int i = 0; chosen >= 0 && i < candidates.count; i++) {
        if (candidates.position(i) == chosen) {
          return i;
        }
      }
      return -1;
    }

    private static int[] inChain(ReadCandidates candidates) {
      int kept = 0;
      int[] positions = new int[candidates.count];
      for (int i = 0; i < candidates.count; i++) {
        int position = candidates.position(i);
        if (position >= 0) {
          positions[kept++] = position;
        }
      }
      return kept == positions.length ? positions : Arrays.copyOf(positions, kept);
    }
  }

  /** Reads go by rounds of each holder's slots, then the reader's rack ({@link RoundsReader#firstIndex}). */
  final class Rounds implements ReadOrdering {
    private final ReadBalancer balancer;
    private final RoundsReader reader;

    public Rounds(ReadBalancer balancer, RoundsReader reader) {
      this.balancer = Objects.requireNonNull(balancer, "balancer");
      this.reader = Objects.requireNonNull(reader, "reader");
    }

    @Override
    public ReadBalancer balancer() {
      return balancer;
    }

    /** The rounds reader, which the simulator also asks with its servers. */
    public RoundsReader reader() {
      return reader;
    }

    @Override
    public int first(ReadCandidates candidates) {
      return reader.firstIndex(candidates);
    }

    /** Rounds compare queues, slots and racks only. */
    @Override
    public boolean readsPositions() {
      return false;
    }
  }
}
