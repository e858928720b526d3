package org.eafr.sim.policy;

import java.util.List;
import org.eafr.placement.replication.ReplicaAction;

/**
 * What a policy decided at the end of an interval: replica actions (the core's {@link ReplicaAction}) and the standby
 * servers that turn cold once their incoming copies land (EAFR Eq. 8).
 */
public record IntervalDecision(List<ReplicaAction> actions, List<String> standbysTurningCold) {
  public static final IntervalDecision NONE = new IntervalDecision(List.of(), List.of());

  public IntervalDecision {
    actions = List.copyOf(actions);
    standbysTurningCold = List.copyOf(standbysTurningCold);
  }
}
