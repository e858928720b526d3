package org.eafr.placement.replication;

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
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

class ReplicationPlannerTest {
  private static final long GB = 1_000_000_000L;

  /** Picks the first eligible pool member: makes the planner's own choices visible. */
  private static final DestinationPolicy FIRST_FIT = (request, pool) -> pool.stream()
      .filter(s -> !request.excludes(s.id()))
      .filter(s -> new StorageReserve(10 * GB).canHold(s, request.sizeBytes()))
      .findFirst();

  private final ReplicationPlanner planner = new ReplicationPlanner(2, 1, 0.5, 0.8, new StorageReserve(10 * GB),
      FIRST_FIT);

  private static Server server(String id, ServerRole role, int reads, int capacity) {
    return Server.builder(id).rack("/r1").role(role).concurrentReads(reads).serviceCapacity(capacity)
        .storageCapacity(250 * GB).storageUsed(100 * GB).build();
  }

  /** The cluster of the Javadoc's worked example. */
  private static ClusterView workedExampleCluster() {
    return ClusterView.of(List.of(
        server("H1", ServerRole.HOT, 13, 15),
        server("H2", ServerRole.HOT, 17, 20),
        server("H3", ServerRole.HOT, 6, 15),
        server("H4", ServerRole.HOT, 5, 10),
        server("H5", ServerRole.HOT, 0, 10),
        server("S1", ServerRole.STANDBY, 0, 10),
        server("S2", ServerRole.STANDBY, 0, 10)));
  }

  private static ClassifiedFile file(String id, FileTemperature temperature, String... servers) {
    return new ClassifiedFile(ReplicatedFile.of(id, GB, servers), temperature);
  }

  private ReplicationPlan plan(ClusterView cluster, ClassifiedFile... files) {
    return planner.plan(List.of(files), cluster);
  }

  @Test
  void workedExample_addsDeletesAndMigratesAsTheJavadocSays() {
    ReplicationPlan plan = plan(workedExampleCluster(),
        file("f", FileTemperature.HOT, "H1", "H2"),
        file("g", FileTemperature.COLD, "H1", "H3", "S1"),
        file("k", FileTemperature.COLD, "H3", "H4"));

    assertThat(plan.actions()).containsExactly(
        ReplicaAction.add("f", GB, "H2", "H3"),
        ReplicaAction.delete("g", GB, "H1"),
        ReplicaAction.migrate("k", GB, "H4", "S1"));
    assertThat(plan.count(PlanOutcome.ADDED)).isEqualTo(1);
    assertThat(plan.count(PlanOutcome.DELETED)).isEqualTo(1);
    assertThat(plan.count(PlanOutcome.MIGRATED)).isEqualTo(1);
  }

  @Test
  void hotFile_gainsNoReplicaWhenAtMostGammaSOfItsServersAreOverloaded() {
    // H1 is overloaded (0.867), H3 is not (0.4): 1 overloaded is not > 2 * 0.5 (Eq. 6).
    ReplicationPlan plan = plan(workedExampleCluster(), file("f", FileTemperature.HOT, "H1", "H3"));

    assertThat(plan.actions()).isEmpty();
    assertThat(plan.count(PlanOutcome.HOT_NOT_OVERLOADED)).isEqualTo(1);
  }

  @Test
  void hotFile_whoseOnlyAwakeReplicaIsOverloaded_gainsAReplica_theSleepingOneDoesNotCount() {
    // The Javadoc's file m: H1 overloaded (13 of 15), C1 asleep. Literal Eq. 6 (1 of 2 > 1?) would add nothing;
    // counting the serving replicas, 1 of 1 > 0.5.
    ClusterView cluster = ClusterView.of(List.of(server("H1", ServerRole.HOT, 13, 15),
        server("C1", ServerRole.COLD, 0, 15), server("H3", ServerRole.HOT, 0, 15)));

    ReplicationPlan plan = plan(cluster, file("m", FileTemperature.HOT, "H1", "C1"));

    assertThat(plan.actions()).containsExactly(ReplicaAction.add("m", GB, "H1", "H3"));
    assertThat(plan.count(PlanOutcome.ADDED)).isEqualTo(1);
  }

  @Test
  void hotFile_onlyOnSleepingServers_hasNoAwakeSource() {
    ClusterView cluster = ClusterView.of(List.of(server("C1", ServerRole.COLD, 0, 15),
        server("C2", ServerRole.COLD, 0, 15), server("H3", ServerRole.HOT, 0, 15)));

    ReplicationPlan plan = plan(cluster, file("m", FileTemperature.HOT, "C1", "C2"));

    assertThat(plan.actions()).isEmpty();
    assertThat(plan.count(PlanOutcome.NO_AWAKE_SOURCE)).isEqualTo(1);
  }

  @Test
  void hotFile_atExactlyTauC_isNotOverloaded() {
    ClusterView cluster = ClusterView.of(List.of(server("H1", ServerRole.HOT, 8, 10),
        server("H2", ServerRole.HOT, 9, 10), server("H3", ServerRole.HOT, 0, 10)));

    // H1 at exactly 0.8 is not beyond tau_c: only H2 is overloaded, and 1 is not > 1.
    assertThat(plan(cluster, file("f", FileTemperature.HOT, "H1", "H2")).actions()).isEmpty();
  }

  @Test
  void hotFile_withNoHotServerWithRoom_reportsNoDestination() {
    ClusterView cluster = ClusterView.of(List.of(server("H1", ServerRole.HOT, 13, 15),
        server("H2", ServerRole.HOT, 17, 20),
        server("H3", ServerRole.HOT, 0, 10).withStorageUsed(245 * GB)));

    ReplicationPlan plan = plan(cluster, file("f", FileTemperature.HOT, "H1", "H2"));

    assertThat(plan.actions()).isEmpty();
    assertThat(plan.count(PlanOutcome.NO_HOT_DESTINATION)).isEqualTo(1);
  }

  @Test
  void coldFileAboveR_keepsEpsHotReplicas_byDeletingTheStandbyOne() {
    // Only one hot replica (= eps): the replica to delete must be the standby's even though H1 has less phi.
    ReplicationPlan plan = plan(workedExampleCluster(), file("g", FileTemperature.COLD, "H1", "S1", "S2"));

    assertThat(plan.actions()).containsExactly(ReplicaAction.delete("g", GB, "S1"));
  }

  @Test
  void coldFileAboveR_neverDeletesFromASleepingServer() {
    ClusterView cluster = ClusterView.of(List.of(server("H1", ServerRole.HOT, 0, 10),
        server("C1", ServerRole.COLD, 0, 1), server("C2", ServerRole.COLD, 0, 1)));

    ReplicationPlan plan = plan(cluster, file("g", FileTemperature.COLD, "H1", "C1", "C2"));

    assertThat(plan.actions()).isEmpty();
    assertThat(plan.count(PlanOutcome.NO_REMOVABLE_REPLICA)).isEqualTo(1);
  }

  @Test
  void coldFileAtR_withEpsHotReplicas_staysPut() {
    ReplicationPlan plan = plan(workedExampleCluster(), file("k", FileTemperature.COLD, "H3", "S1"));

    assertThat(plan.actions()).isEmpty();
    assertThat(plan.count(PlanOutcome.AT_MINIMUM)).isEqualTo(1);
  }

  @Test
  void underReplicatedFile_isLeftToRecovery_andFailedReplicasDoNotCount() {
    ClusterView cluster = ClusterView.of(List.of(server("H1", ServerRole.HOT, 0, 10),
        server("H2", ServerRole.HOT, 0, 10), server("F1", ServerRole.FAILED, 0, 10)));

    ReplicationPlan plan = plan(cluster, file("g", FileTemperature.COLD, "H1", "F1", "gone"));

    assertThat(plan.actions()).isEmpty();
    assertThat(plan.count(PlanOutcome.UNDER_REPLICATED)).isEqualTo(1);
  }

  @Test
  void normalFile_isLeftAlone() {
    ReplicationPlan plan = plan(workedExampleCluster(), file("n", FileTemperature.NORMAL, "H1", "H2", "H3"));

    assertThat(plan.actions()).isEmpty();
    assertThat(plan.count(PlanOutcome.NORMAL)).isEqualTo(1);
  }

  @Test
  void migrations_fillAStandbyServer_untilEq8TurnsItCold_thenUseTheNext() {
    // S1 has 25 GB free. k1 (10 GB) leaves 15 GB >= tau_s 10 GB; k2 (10 GB) is accepted at 15 GB free and leaves
    // 5 GB < tau_s, so Eq. 8 turns S1 cold and k3 goes to S2.
    Server s1 = server("S1", ServerRole.STANDBY, 0, 10).withStorageUsed(225 * GB);
    ClusterView cluster = ClusterView.of(List.of(server("H1", ServerRole.HOT, 0, 10),
        server("H2", ServerRole.HOT, 1, 10), s1, server("S2", ServerRole.STANDBY, 0, 10)));
    List<ClassifiedFile> files = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      files.add(new ClassifiedFile(ReplicatedFile.of("k" + i, 10 * GB, "H1", "H2"), FileTemperature.COLD));
    }

    ReplicationPlan plan = planner.plan(files, cluster);

    assertThat(plan.actions()).extracting(ReplicaAction::target).containsExactly("S1", "S1", "S2");
    assertThat(plan.actions()).extracting(ReplicaAction::source).containsOnly("H2");
    assertThat(plan.standbysTurningCold()).containsExactly("S1");
  }

  @Test
  void aDestinationPolicyThatReturnsAHolder_isCaughtNotObeyed() {
    DestinationPolicy broken = (request, pool) -> Optional.of(pool.get(0));
    ReplicationPlanner withBrokenPolicy = new ReplicationPlanner(2, 1, 0.5, 0.8, new StorageReserve(0), broken);

    assertThatThrownBy(() -> withBrokenPolicy.plan(List.of(file("f", FileTemperature.HOT, "H1", "H2")),
        workedExampleCluster()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("chose H1");
  }

  @Test
  void settings_areTakenFromEafrSettings_andBadValuesAreRefused() {
    ReplicationPlanner fromDefaults = ReplicationPlanner.from(EafrSettings.defaults(), FIRST_FIT);
    assertThat(fromDefaults.plan(List.of(file("f", FileTemperature.HOT, "H1", "H2")), workedExampleCluster())
        .actions()).containsExactly(ReplicaAction.add("f", GB, "H2", "H3"));

    assertThatThrownBy(() -> new ReplicationPlanner(2, 2, 0.5, 0.8, new StorageReserve(0), FIRST_FIT))
        .hasMessage("minHotReplicas (eps) = 2 is not allowed: expected 0 <= eps < r = 2");
    assertThatThrownBy(() -> new ReplicationPlanner(2, 1, 1.0, 0.8, new StorageReserve(0), FIRST_FIT))
        .hasMessage("overloadedFraction (gamma_s) = 1.0 is not allowed: expected a number in (0, 1)");
  }
}
