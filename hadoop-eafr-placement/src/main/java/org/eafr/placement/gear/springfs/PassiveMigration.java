package org.eafr.placement.gear.springfs;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.StoredBlocks;
import org.eafr.placement.settings.EafrSettings;

/**
 * SpringFS's passive migration (Xu et al., Sec. 3): when servers are re-integrated, the blocks written elsewhere while
 * they slept are not all moved back at once. Each resizing interval migrates 1/T of the work still owed, so every
 * migration finishes within T intervals (T = 10 in SpringFS), and extra servers are kept on to carry it. Work owed to
 * a server that already holds its equal-work share (future writes filled it) is dropped: that is how passive migration
 * moves less data than aggressive migration.
 *
 * <p>Worked example (T = 10, one server migrates 20 blocks per interval): 95 blocks owed, none to a full server: this
 * interval moves ceil(95 / 10) = 10 blocks and needs ceil(10 / 20) = 1 extra server.
 *
 * <p>Immutable and stateless: each interval's plan comes from what is owed then.
 */
public final class PassiveMigration {
  private final int thresholdIntervals;
  private final double blocksPerServerInterval;

  /**
   * @param thresholdIntervals T, at least 1 (1 is aggressive migration: all of it in one interval)
   * @param blocksPerServerInterval the blocks one server can migrate in one interval, above 0
   */
  public PassiveMigration(int thresholdIntervals, double blocksPerServerInterval) {
    if (thresholdIntervals < 1 || !(blocksPerServerInterval > 0)) {
      throw new IllegalArgumentException("T = " + thresholdIntervals + " and " + blocksPerServerInterval
          + " blocks per server and interval are not allowed: expected T >= 1 and a rate above 0");
    }
    this.thresholdIntervals = thresholdIntervals;
    this.blocksPerServerInterval = blocksPerServerInterval;
  }

  /** Passive migration with T from {@code settings} (eafr.gear.migration-threshold). */
  public static PassiveMigration from(EafrSettings settings, double blocksPerServerInterval) {
    return new PassiveMigration(settings.get(EafrSettings.GEAR_MIGRATION_THRESHOLD), blocksPerServerInterval);
  }

  /** One interval's migration: which moves to make now, and the servers to keep on beyond the load's to make them. */
  public Plan plan(List<BlockMove> owed, ServerFullness full) {
    List<BlockMove> needed = new ArrayList<>();
    int dropped = 0;
    for (BlockMove move : owed) {
      if (full.holdsItsShare(move.to())) {
        dropped++;
      } else {
        needed.add(move);
      }
    }
    int now = (int) Math.ceil((double) needed.size() / thresholdIntervals);
    int extra = (int) Math.ceil(now / blocksPerServerInterval);
    return new Plan(needed.subList(0, now), dropped, extra);
  }

  /** Whether a re-integrated server already holds its equal-work share (so nothing more is owed to it). */
  public interface ServerFullness {
    boolean holdsItsShare(int position);
  }

  /**
   * Fullness from the blocks each server stores: server i holds its share when it stores at least share_i B blocks
   * (b_i = B / i, Rabbit Sec. 3.1.3), counting every block it stores, offloaded ones included (SpringFS Sec. 3:
   * "higher numbered servers receive more writes than their equal-work share"). Nothing is full before anything is
   * counted (B = 0).
   *
   * <p>Worked example: B = 1,000 blocks, a server whose share is 1/20 holds its share at 50 blocks, not at 49.
   */
  public static ServerFullness fromCounts(GearedLayout layout, StoredBlocks stored) {
    return position -> {
      long total = stored.blocks();
      return total > 0 && stored.held(position) >= layout.share(position) * total;
    };
  }

  /** One interval's passive migration. Immutable. */
  public static final class Plan {
    private final List<BlockMove> moves;
    private final int dropped;
    private final int extraServers;

    Plan(List<BlockMove> moves, int dropped, int extraServers) {
      this.moves = List.copyOf(moves);
      this.dropped = dropped;
      this.extraServers = extraServers;
    }

    /** The moves to make in this interval. */
    public List<BlockMove> moves() {
      return moves;
    }

    /** Owed moves no longer needed: their destination already holds its share. */
    public int dropped() {
      return dropped;
    }

    /** Servers to keep on beyond the load's, to carry this interval's migration. */
    public int extraServers() {
      return extraServers;
    }
  }
}
