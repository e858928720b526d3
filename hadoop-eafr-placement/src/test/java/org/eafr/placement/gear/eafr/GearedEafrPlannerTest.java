package org.eafr.placement.gear.eafr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.destination.DestinationPolicy;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.replication.ClassifiedFile;
import org.eafr.placement.replication.PlanOutcome;
import org.eafr.placement.replication.ReplicaAction;
import org.junit.jupiter.api.Test;

class GearedEafrPlannerTest {
  private static final long GB = 1L << 30;
  private static final StorageReserve RESERVE = new StorageReserve(10 * GB);
  /** The first eligible server of the pool, so the example's choices are exact. */
  static final DestinationPolicy FIRST_ELIGIBLE = (request, pool) -> pool.stream()
      .filter(s -> !request.excludes(s.id()) && RESERVE.canHold(s, request.sizeBytes())).findFirst();

  private final List<Server> servers = new ArrayList<>();
  private final GearedEafr gears;

  GearedEafrPlannerTest() {
    int[] load = {9, 0, 6, 0, 9, 0, 1, 9, 5, 7};
    for (int i = 0; i < 20; i++) {
      servers.add(Server.builder("s" + i).serviceCapacity(10).concurrentReads(i < load.length ? load[i] : 0)
          .storageCapacity(100 * GB).build());
    }
    // p = 5, gear groups of 5, r = 2: gears of 5, 10, 15 and 20 servers.
    gears = new GearedEafr(new EqualWorkLayout(ExpansionChain.of(servers), 5, 5, 2), 0.8, RESERVE);
  }

  private GearedEafrPlanner planner() {
    return new GearedEafrPlanner(gears, 2, 1, 0.5, 0.8, RESERVE, FIRST_ELIGIBLE, 3);
  }

  private static ClassifiedFile file(String id, FileTemperature temperature, String... holders) {
    return new ClassifiedFile(ReplicatedFile.of(id, GB, holders), temperature);
  }

  @Test
  void workedExample() {
    GearedEafrPlan plan = planner().plan(List.of(
        file("h", FileTemperature.HOT, "s0", "s7"),
        file("k", FileTemperature.HOT, "s4", "s12"),
        file("c", FileTemperature.COLD, "s3", "s8"),
        file("d", FileTemperature.COLD, "s2", "s6"),
        file("e", FileTemperature.COLD, "s1", "s5", "s9")), ClusterView.of(servers), 1);

    assertThat(plan.now()).containsExactly(ReplicaAction.add("h", GB, "s0", "s1"),
        ReplicaAction.add("k", GB, "s4", "s1"), ReplicaAction.delete("e", GB, "s9"));
    assertThat(plan.owed()).containsExactly(new BlockMove("c", 8, 10, true), new BlockMove("d", 6, 10, true));
    assertThat(plan.keptForGear0()).isZero();
    assertThat(plan.outcomes()).containsEntry(PlanOutcome.ADDED, 2).containsEntry(PlanOutcome.MIGRATED, 2)
        .containsEntry(PlanOutcome.DELETED, 1);
  }

  @Test
  void aMigrationWithNoReplicaThatMayLeave_isDropped() {
    // The gear-0 replica failed: neither hot replica may leave (no other live gear-0 replica would stay).
    ClusterView cluster = ClusterView.of(servers).with(servers.get(0).withRole(ServerRole.FAILED));
    GearedEafrPlan plan = new GearedEafrPlanner(gears, 2, 1, 0.5, 0.8, RESERVE, FIRST_ELIGIBLE, 3)
        .plan(List.of(file("x", FileTemperature.COLD, "s0", "s6", "s8")), cluster, 1);

    assertThat(plan.owed()).isEmpty();
    assertThat(plan.keptForGear0()).isEqualTo(1);
  }

  @Test
  void hotExtra_widensToTheRunningGearOnly() {
    ClusterView cluster = ClusterView.of(servers);
    for (int i = 1; i < 5; i++) {
      cluster = cluster.with(servers.get(i).withConcurrentReads(10)); // gear 0 is overloaded but for s0
    }
    GearedEafrPlan inGear1 = planner().plan(List.of(file("h", FileTemperature.HOT, "s0", "s7")), cluster, 1);
    GearedEafrPlan inGear0 = planner().plan(List.of(file("h", FileTemperature.HOT, "s0", "s7")), cluster, 0);

    assertThat(inGear1.now()).containsExactly(ReplicaAction.add("h", GB, "s0", "s5"));
    assertThat(inGear0.now()).isEmpty(); // s7 is not on in gear 0: one awake replica, but no room in gear 0
    assertThat(inGear0.outcomes()).containsEntry(PlanOutcome.NO_HOT_DESTINATION, 1);
  }

  @Test
  void copiesOfOneInterval_countAsLoadOnTheirDestination() {
    // s1 (h = 8 of 10) is gear 0's only server not above tau_c = 0.8. Without charging, h's and k's extras both went
    // to s1; charged, s1 is at h = 9 after h's, and k's extra goes to gear 1 (s5, the first eligible).
    ClusterView cluster = ClusterView.of(servers).with(servers.get(1).withConcurrentReads(8))
        .with(servers.get(2).withConcurrentReads(10)).with(servers.get(3).withConcurrentReads(10));
    GearedEafrPlan plan = planner().plan(List.of(file("h", FileTemperature.HOT, "s0", "s7"),
        file("k", FileTemperature.HOT, "s4", "s12")), cluster, 1);

    assertThat(plan.now()).containsExactly(ReplicaAction.add("h", GB, "s0", "s1"),
        ReplicaAction.add("k", GB, "s4", "s5"));
  }

  @Test
  void coldReplicas_haveNoDestinationWhenTheGearAboveIsFull() {
    ClusterView cluster = ClusterView.of(servers);
    for (int i = 10; i < 15; i++) {
      cluster = cluster.with(servers.get(i).withStorageUsed(95 * GB));
    }
    GearedEafrPlan plan = planner().plan(List.of(file("c", FileTemperature.COLD, "s3", "s8")), cluster, 1);

    assertThat(plan.owed()).isEmpty();
    assertThat(plan.outcomes()).containsEntry(PlanOutcome.NO_STANDBY_DESTINATION, 1);
  }

  @Test
  void badSettings_areRefusedWhenBuilt() {
    assertThatThrownBy(() -> new GearedEafrPlanner(gears, 2, 2, 0.5, 0.8, RESERVE, FIRST_ELIGIBLE, 3))
        .hasMessageContaining("eps");
    assertThatThrownBy(() -> new GearedEafrPlanner(gears, 2, 1, 0.5, 0.8, RESERVE, FIRST_ELIGIBLE, 0))
        .hasMessageContaining("poolSize = 0");
  }

  @Test
  void aDestinationPolicyThatFindsNothing_addsNothing() {
    DestinationPolicy none = (request, pool) -> Optional.empty();
    GearedEafrPlan plan = new GearedEafrPlanner(gears, 2, 1, 0.5, 0.8, RESERVE, none, 3)
        .plan(List.of(file("h", FileTemperature.HOT, "s0", "s7")), ClusterView.of(servers), 1);

    assertThat(plan.now()).isEmpty();
  }
}
