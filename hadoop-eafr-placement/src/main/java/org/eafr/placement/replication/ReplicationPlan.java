package org.eafr.placement.replication;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The planner's answer for one interval: at most one action per file, the standby servers that the planned migrations
 * fill past the storage reserve (Eq. 8: they turn cold once the migrations land), and how many files ended in each
 * {@link PlanOutcome}. Immutable.
 */
public final class ReplicationPlan {
  private final List<ReplicaAction> actions;
  private final List<String> standbysTurningCold;
  private final Map<PlanOutcome, Integer> outcomes;

  ReplicationPlan(List<ReplicaAction> actions, List<String> standbysTurningCold, Map<PlanOutcome, Integer> outcomes) {
    this.actions = Collections.unmodifiableList(new ArrayList<>(actions));
    this.standbysTurningCold = Collections.unmodifiableList(new ArrayList<>(standbysTurningCold));
    EnumMap<PlanOutcome, Integer> counts = new EnumMap<>(PlanOutcome.class);
    for (PlanOutcome outcome : PlanOutcome.values()) {
      counts.put(outcome, outcomes.getOrDefault(outcome, 0));
    }
    this.outcomes = Collections.unmodifiableMap(counts);
  }

  public List<ReplicaAction> actions() {
    return actions;
  }

  /** Standby servers that Eq. 8 turns cold after this plan's migrations, in the order they filled up. */
  public List<String> standbysTurningCold() {
    return standbysTurningCold;
  }

  /** Files per outcome; every outcome is present. */
  public Map<PlanOutcome, Integer> outcomes() {
    return outcomes;
  }

  public int count(PlanOutcome outcome) {
    return outcomes.get(outcome);
  }

  @Override
  public String toString() {
    return "ReplicationPlan" + actions + " turning cold " + standbysTurningCold + " " + outcomes;
  }
}
