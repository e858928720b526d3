package org.eafr.placement.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplicationPlanTest {
  private static final long GB = 1_000_000_000L;

  @Test
  void followedBy_appendsActionsAndServers_andSumsOutcomes() {
    ReplicationPlan first = new ReplicationPlan(List.of(ReplicaAction.add("f", GB, "H2", "H3")), List.of("S1"),
        Map.of(PlanOutcome.ADDED, 1, PlanOutcome.AT_MINIMUM, 4));
    ReplicationPlan second = new ReplicationPlan(List.of(ReplicaAction.migrate("k", GB, "H4", "S2")),
        List.of("S1", "S2"), Map.of(PlanOutcome.MIGRATED, 1, PlanOutcome.AT_MINIMUM, 2));

    ReplicationPlan both = first.followedBy(second);

    assertThat(both.actions()).containsExactly(ReplicaAction.add("f", GB, "H2", "H3"),
        ReplicaAction.migrate("k", GB, "H4", "S2"));
    assertThat(both.standbysTurningCold()).containsExactly("S1", "S2");
    assertThat(both.count(PlanOutcome.ADDED)).isEqualTo(1);
    assertThat(both.count(PlanOutcome.MIGRATED)).isEqualTo(1);
    assertThat(both.count(PlanOutcome.AT_MINIMUM)).isEqualTo(6);
    assertThat(both.count(PlanOutcome.DELETED)).isZero();
  }

  @Test
  void emptyPlan_isTheIdentity() {
    ReplicationPlan plan = new ReplicationPlan(List.of(ReplicaAction.delete("g", GB, "H1")), List.of(),
        Map.of(PlanOutcome.DELETED, 1));

    assertThat(ReplicationPlan.empty().followedBy(plan).toString()).isEqualTo(plan.toString());
    assertThat(plan.followedBy(ReplicationPlan.empty()).toString()).isEqualTo(plan.toString());
  }
}
