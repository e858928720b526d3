package org.eafr.placement.gear.shift;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.eafr.placement.gear.UnavailableBlock;

/**
 * The availability floor of a gear shift (Rabbit, Amur et al., Sec. 3.5: no gear may leave a block without a live
 * replica), one walk for the simulator and the NameNode alike. Only a complete block with a replica on a running
 * DataNode that does not stay on can lose its last live replica by the shift, so the check walks the block lists of
 * those DataNodes ({@link ReplicaWalks#firstUnheldOn}), never the namespace: its cost grows with the blocks on the
 * DataNodes that change state. A block whose replicas are all on DataNodes not running (asleep or failed) has no live
 * replica before the shift either: waking for it is {@link WakeSteps}' work, not a reason to refuse or cancel a gear.
 * A block being written is judged by its pipeline, and only when no complete block is found: the check before
 * power-off cancels a gear-down for a complete block and waits for one being written.
 *
 * <p>Worked example ({@code ShiftFloorTest}): blocks b1 on s0, s4 and b2 on s4, s5; with s4 and s5 changing and only
 * s0 kept, the check walks s4 (running), finds b1 held on s0 and b2 held nowhere kept: b2 is the gap. With s5 not
 * running it is still the gap (s4 runs and holds it).
 */
public final class ShiftFloor {
  private ShiftFloor() {
  }

  /** What a check found: the first complete block's gap, and, when there is none, a block being written's. */
  public static final class Gaps {
    private final Optional<UnavailableBlock> complete;
    private final Optional<UnavailableBlock> beingWritten;

    Gaps(Optional<UnavailableBlock> complete, Optional<UnavailableBlock> beingWritten) {
      this.complete = complete;
      this.beingWritten = beingWritten;
    }

    public Optional<UnavailableBlock> complete() {
      return complete;
    }

    public Optional<UnavailableBlock> beingWritten() {
      return beingWritten;
    }
  }

  /**
   * The first complete block with a replica on a running DataNode of {@code changing} and none on a DataNode
   * {@code kept} accepts (asked once per DataNode); else the first block being written with no DataNode it accepts.
   */
  public static Gaps check(ReplicaWalks walks, Iterable<String> changing, Predicate<String> kept) {
    Predicate<String> memo = memoized(kept);
    Optional<UnavailableBlock> complete = firstComplete(walks, changing, memo);
    return new Gaps(complete, complete.isPresent() ? Optional.empty() : walks.firstBeingWrittenUnheld(memo));
  }

  /** The complete blocks only: the gear controller's floor, which a write under way never refuses. */
  public static Optional<UnavailableBlock> firstComplete(ReplicaWalks walks, Iterable<String> changing,
      Predicate<String> kept) {
    Predicate<String> memo = memoized(kept);
    for (String id : changing) {
      if (memo.test(id) || !walks.running(id)) {
        continue;
      }
      Optional<UnavailableBlock> gap = walks.firstUnheldOn(id, memo);
      if (gap.isPresent()) {
        return gap;
      }
    }
    return Optional.empty();
  }

  /** {@code kept}, asking about each DataNode once (a walk asks for every replica of every block). */
  private static Predicate<String> memoized(Predicate<String> kept) {
    if (kept instanceof Memo) {
      return kept;
    }
    return new Memo(kept);
  }

  private static final class Memo implements Predicate<String> {
    private final Predicate<String> kept;
    private final Map<String, Boolean> answers = new HashMap<>();

    Memo(Predicate<String> kept) {
      this.kept = kept;
    }

    @Override
    public boolean test(String id) {
      return answers.computeIfAbsent(id, kept::test);
    }
  }
}
