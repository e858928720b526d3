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

  /** An empty plan: no action, no server turning cold, no file. */
  public static ReplicationPlan empty() {
    return new ReplicationPlan(List.of(), List.of(), Map.of());
  }

  /**
   * A plan of {@code actions} with a planner's {@code outcomes} and no server turning cold: what a planner built on
   * this one (EAFR on gears) decided to do now.
   */
  public static ReplicationPlan of(List<ReplicaAction> actions, Map<PlanOutcome, Integer> outcomes) {
    return new ReplicationPlan(actions, List.of(), outcomes);
  }

  /**
   * This plan and then {@code next}, as one: for a caller that plans a large set of files in batches, each batch with
   * the cluster as the earlier batches left it. Actions and servers in order, outcome counts summed.
   */
  public ReplicationPlan followedBy(ReplicationPlan next) {
    List<ReplicaAction> allActions = new ArrayList<>(actions);
    allActions.addAll(next.actions);
    List<String> allTurningCold = new ArrayList<>(standbysTurningCold);
    for (String server : next.standbysTurningCold) {
      if (!allTurningCold.contains(server)) {
        allTurningCold.add(server);
      }
    }
    Map<PlanOutcome, Integer> counts = new EnumMap<>(outcomes);
    next.outcomes.forEach((outcome, count) -> counts.merge(outcome, count, Integer::sum));
    return new ReplicationPlan(allActions, allTurningCold, counts);
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
