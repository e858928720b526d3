package org.eafr.placement.gear.eafr;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.replication.PlanOutcome;
import org.eafr.placement.replication.ReplicaAction;

/**
 * What {@link GearedEafrPlanner} decided for one interval: the actions to make now (ADD on servers that are on, DELETE
 * of extras), the migrations owed to servers of the gear above (made when they wake), how many removals were dropped
 * because they would have taken a file's last live gear-0 replica, and the planner's outcome counts. Immutable.
 */
public final class GearedEafrPlan {
  private final List<ReplicaAction> now;
  private final List<BlockMove> owed;
  private final int keptForGear0;
  private final Map<PlanOutcome, Integer> outcomes;

  public GearedEafrPlan(List<ReplicaAction> now, List<BlockMove> owed, int keptForGear0,
      Map<PlanOutcome, Integer> outcomes) {
    this.now = List.copyOf(now);
    this.owed = List.copyOf(owed);
    this.keptForGear0 = keptForGear0;
    this.outcomes = outcomes.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(outcomes));
  }

  /** ADD and DELETE actions to make now. */
  public List<ReplicaAction> now() {
    return now;
  }

  /** Migrations to servers of the gear above the running one, to make once they are on (the copy is then dropped). */
  public List<BlockMove> owed() {
    return owed;
  }

  /** DELETEs and MIGRATEs dropped because their source held the file's last live replica in gear 0. */
  public int keptForGear0() {
    return keptForGear0;
  }

  public Map<PlanOutcome, Integer> outcomes() {
    return outcomes;
  }

  @Override
  public String toString() {
    return "GearedEafrPlan[now " + now + ", owed " + owed + ", kept for gear 0 " + keptForGear0 + "]";
  }
}
