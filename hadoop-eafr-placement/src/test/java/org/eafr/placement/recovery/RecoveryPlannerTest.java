package org.eafr.placement.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.destination.FinishTimes;
import org.eafr.placement.destination.TransferSpeeds;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

class RecoveryPlannerTest {
  private static final long RESERVE = 10;

  private final RecoveryPlanner planner = new RecoveryPlanner(new StorageReserve(RESERVE));
  private final ClusterView view = ClusterView.of(List.of(
      server("F", ServerRole.FAILED, 10, 0, 100),
      server("H1", ServerRole.HOT, 10, 5, 100),
      server("H2", ServerRole.HOT, 10, 5, 100),
      server("H3", ServerRole.HOT, 10, 5, 100),
      server("S1", ServerRole.STANDBY, 10, 0, 100),
      server("S2", ServerRole.STANDBY, 10, 7, 100),
      server("C1", ServerRole.COLD, 8, 0, 100),
      server("C2", ServerRole.COLD, 12, 0, 100)));

  @Test
  void javadocExample_destinationsGoRoundTheHotPoolAndSourcesByCapacity() {
    List<LostReplica> lost = List.of(
        hot(ReplicatedFile.of("f1", 10, "F", "S2", "S1")),
        hot(ReplicatedFile.of("f2", 10, "F", "S2")),
        hot(ReplicatedFile.of("f3", 10, "F", "C1")),
        hot(ReplicatedFile.of("f4", 10, "F", "C1", "S2")),
        hot(ReplicatedFile.of("f5", 10, "F", "C1", "C2")));

    RecoveryPlan plan = planner.plan("F", lost, view);

    assertThat(plan.assignments()).containsExactly(
        new RecoveryAssignment("f1", "S1", "H1", false),
        new RecoveryAssignment("f2", "S2", "H2", false),
        new RecoveryAssignment("f3", "C1", "H3", true),
        new RecoveryAssignment("f4", "S2", "H1", false),
        new RecoveryAssignment("f5", "C2", "H2", true));
    assertThat(plan.unrecoverable()).isEmpty();
  }

  @Test
  void fileAlreadyOnTheCursorsServer_skipsToTheNextAndTheCursorMovesPastIt() {
    List<LostReplica> lost = List.of(
        hot(ReplicatedFile.of("f1", 10, "F", "H1")),
        hot(ReplicatedFile.of("f2", 10, "F", "S1")),
        hot(ReplicatedFile.of("f3", 10, "F", "S1")));

    RecoveryPlan plan = planner.plan("F", lost, view);

    assertThat(plan.assignments()).containsExactly(
        new RecoveryAssignment("f1", "H1", "H2", false),
        new RecoveryAssignment("f2", "S1", "H3", false),
        new RecoveryAssignment("f3", "S1", "H1", false));
  }

  @Test
  void storageTakenEarlierInThePlan_countsAgainstTheReserve() {
    ClusterView tight = ClusterView.of(List.of(
        server("F", ServerRole.FAILED, 10, 0, 100),
        server("H1", ServerRole.HOT, 10, 0, 19),
        server("S1", ServerRole.STANDBY, 10, 0, 100)));

    RecoveryPlan plan = planner.plan("F", List.of(
        hot(ReplicatedFile.of("f1", 10, "F", "S1")),
        hot(ReplicatedFile.of("f2", 10, "F", "S1"))), tight);

    assertThat(plan.assignments()).containsExactly(new RecoveryAssignment("f1", "S1", "H1", false));
    assertThat(plan.unrecoverable()).containsExactly(
        new UnrecoverableFile("f2", RecoveryFailure.NO_DESTINATION_WITH_ROOM));
    assertThat(tight.server("H1").storageUsed()).isEqualTo(0);
  }

  @Test
  void serverBelowTheReserve_isSkipped() {
    ClusterView oneFull = view.with(server("H1", ServerRole.HOT, 10, 5, 9));

    RecoveryPlan plan = planner.plan("F", List.of(hot(ReplicatedFile.of("f1", 10, "F", "S1"))), oneFull);

    assertThat(plan.assignments()).containsExactly(new RecoveryAssignment("f1", "S1", "H2", false));
  }

  @Test
  void coldFiles_goRoundTheStandbyPoolAndNormalFilesRoundTheHotPool() {
    List<LostReplica> lost = List.of(
        LostReplica.of(ReplicatedFile.of("c1", 10, "F", "C1"), FileTemperature.COLD),
        LostReplica.of(ReplicatedFile.of("n1", 10, "F", "C1"), FileTemperature.NORMAL),
        LostReplica.of(ReplicatedFile.of("c2", 10, "F", "C1"), FileTemperature.COLD),
        LostReplica.of(ReplicatedFile.of("n2", 10, "F", "C1"), FileTemperature.NORMAL),
        LostReplica.of(ReplicatedFile.of("c3", 10, "F", "C1"), FileTemperature.COLD));

    RecoveryPlan plan = planner.plan("F", lost, view);

    assertThat(plan.assignments()).extracting(RecoveryAssignment::destinationId)
        .containsExactly("S1", "H1", "S2", "H2", "S1");
  }

  @Test
  void fileWithNoOtherLiveReplica_isReportedLostAndTakesNoDestinationTurn() {
    RecoveryPlan plan = planner.plan("F", List.of(
        hot(ReplicatedFile.of("gone", 10, "F")),
        hot(ReplicatedFile.of("f1", 10, "F", "S1"))), view);

    assertThat(plan.unrecoverable()).containsExactly(new UnrecoverableFile("gone", RecoveryFailure.NO_LIVE_REPLICA));
    assertThat(plan.assignments()).containsExactly(new RecoveryAssignment("f1", "S1", "H1", false));
  }

  @Test
  void emptyPool_reportsNoDestination() {
    ClusterView noStandby = ClusterView.of(List.of(
        server("F", ServerRole.FAILED, 10, 0, 100),
        server("H1", ServerRole.HOT, 10, 0, 100)));

    RecoveryPlan plan = planner.plan("F", List.of(
        LostReplica.of(ReplicatedFile.of("c1", 10, "F", "H1"), FileTemperature.COLD)), noStandby);

    assertThat(plan.unrecoverable()).containsExactly(
        new UnrecoverableFile("c1", RecoveryFailure.NO_DESTINATION_WITH_ROOM));
  }

  @Test
  void coldFile_goesRoundTheHotPool_whenNoStandbyServerHasRoom() {
    ClusterView standbysFull = view.with(server("S1", ServerRole.STANDBY, 10, 0, 9))
        .with(server("S2", ServerRole.STANDBY, 10, 7, 9));

    RecoveryPlan plan = planner.plan("F", List.of(
        LostReplica.of(ReplicatedFile.of("c1", 10, "F", "C1"), FileTemperature.COLD)), standbysFull);

    assertThat(plan.assignments()).containsExactly(new RecoveryAssignment("c1", "C1", "H1", true));
  }

  @Test
  void cursorCarriesOverToTheNextPlanAndToSingleBlockCalls() {
    planner.plan("F", List.of(hot(ReplicatedFile.of("f1", 10, "F", "S1"))), view);

    RecoveryPlan second = planner.plan("F", List.of(hot(ReplicatedFile.of("f2", 10, "F", "S1"))), view);

    assertThat(second.assignments()).extracting(RecoveryAssignment::destinationId).containsExactly("H2");
    assertThat(planner.nextDestination(ReplicatedFile.of("f3", 10, "S1"), FileTemperature.HOT, view))
        .map(Server::id).contains("H3");
    assertThat(planner.nextDestination(ReplicatedFile.of("f4", 10, "S1"), FileTemperature.NORMAL, view))
        .map(Server::id).contains("H1");
  }

  @Test
  void javadocExample_withFinishTimes_theRoundRobinSkipsTheSlowLinkUntilTheFastOnesQueue() {
    Map<String, Long> queued = new HashMap<>();
    TransferSpeeds speeds = (source, destination) -> destination.equals("H3") ? 2.5 : 10.0;
    RecoveryPlanner finishing = new RecoveryPlanner(new StorageReserve(RESERVE),
        new FinishTimes(1.5, speeds, destination -> queued.getOrDefault(destination, 0L)));
    List<String> chosen = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      String id = finishing.nextDestination(ReplicatedFile.of("f" + i, 10, "S1"), FileTemperature.HOT, view)
          .orElseThrow().id();
      queued.merge(id, 10L, Long::sum);
      chosen.add(id);
    }

    assertThat(chosen).containsExactly("H1", "H2", "H1", "H2", "H3");
  }

  @Test
  void singleBlockCall_skipsHoldersAndFullServersAndGivesUpAfterOneCycle() {
    ReplicatedFile onAllHot = ReplicatedFile.of("f", 10, "H1", "H2", "H3");

    assertThat(planner.nextDestination(onAllHot, FileTemperature.HOT, view)).isEmpty();
    assertThat(planner.nextDestination(ReplicatedFile.of("g", 10, "H1"), FileTemperature.HOT, view))
        .map(Server::id).contains("H2");
    assertThat(planner.nextDestination(ReplicatedFile.of("big", 101, "S1"), FileTemperature.HOT, view)).isEmpty();
  }

  @Test
  void failedServerNotYetMarkedFailed_isNeverSourceOrDestination() {
    ClusterView stale = view.with(server("F", ServerRole.HOT, 100, 0, 1000));
    List<LostReplica> lost = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      lost.add(hot(ReplicatedFile.of("f" + i, 10, "F", "S1")));
    }

    RecoveryPlan plan = planner.plan("F", lost, stale);

    assertThat(plan.assignments()).hasSize(8).allSatisfy(a -> {
      assertThat(a.sourceId()).isEqualTo("S1");
      assertThat(a.destinationId()).isNotEqualTo("F");
    });
  }

  @Test
  void concurrentSingleBlockCalls_spreadExactlyEvenly() throws Exception {
    int threads = 8;
    int callsPerThread = 200;
    Map<String, Integer> counts = new ConcurrentHashMap<>();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < callsPerThread; i++) {
            Server chosen = planner.nextDestination(ReplicatedFile.of("f", 1, "S1"), FileTemperature.HOT, view)
                .orElseThrow();
            counts.merge(chosen.id(), 1, Integer::sum);
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> future : done) {
        future.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    // 1600 choices over H1, H2, H3: an atomic cursor gives exactly 534, 533, 533.
    assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of("H1", 534, "H2", 533, "H3", 533));
  }

  @Test
  void fromSettings_keepsTheConfiguredReserve() {
    EafrSettings settings = EafrSettings.builder().set(EafrSettings.STORAGE_RESERVE_BYTES, 50L).build();
    RecoveryPlanner fromSettings = RecoveryPlanner.from(settings);

    ClusterView belowReserve = view.with(server("H1", ServerRole.HOT, 10, 5, 49))
        .with(server("H2", ServerRole.HOT, 10, 5, 49)).with(server("H3", ServerRole.HOT, 10, 5, 49));

    assertThat(fromSettings.nextDestination(ReplicatedFile.of("f", 1, "S1"), FileTemperature.HOT, view))
        .isPresent();
    assertThat(fromSettings.nextDestination(ReplicatedFile.of("f", 1, "S1"), FileTemperature.HOT, belowReserve))
        .isEmpty();
  }

  @Test
  void fileNotOnTheFailedServer_isRejectedNamingIt() {
    assertThatThrownBy(() -> planner.plan("F", List.of(hot(ReplicatedFile.of("f1", 10, "S1"))), view))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("lost replica f1(10B on [S1]) is not allowed: expected the failed server F among its replica"
            + " servers");
  }

  @Test
  void sameFileTwice_isRejected() {
    ReplicatedFile file = ReplicatedFile.of("f1", 10, "F", "S1");

    assertThatThrownBy(() -> planner.plan("F", List.of(hot(file), hot(file)), view))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("file f1 is not allowed twice in the lost replicas of F: expected each file once");
  }

  @Test
  void plan_isUnmodifiable() {
    RecoveryPlan plan = planner.plan("F", List.of(hot(ReplicatedFile.of("f1", 10, "F", "S1"))), view);

    assertThatThrownBy(() -> plan.assignments().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> plan.unrecoverable().clear()).isInstanceOf(UnsupportedOperationException.class);
  }

  private static LostReplica hot(ReplicatedFile file) {
    return LostReplica.of(file, FileTemperature.HOT);
  }

  private static Server server(String id, ServerRole role, int serviceCapacity, int concurrentReads,
      long storageCapacity) {
    return Server.builder(id).role(role).serviceCapacity(serviceCapacity).concurrentReads(concurrentReads)
        .storageCapacity(storageCapacity).build();
  }
}
