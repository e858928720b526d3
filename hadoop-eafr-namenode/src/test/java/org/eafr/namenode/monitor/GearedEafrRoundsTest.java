package org.eafr.namenode.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eafr.namenode.gear.GearRecord;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.gear.GearSettings;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.destination.DestinationPolicy;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.gear.shift.ShiftState;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.replication.ClassifiedFile;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.placement.replication.ReplicationPlan;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

/**
 * The replication rounds' adapter of EAFR on gears, on the worked examples of the core's {@code GearedEafrPlanner}
 * (20 servers s0..s19, p = 5, gear groups of 5, r = 2, eps = 1, tau_c = 0.8, gear 1 running; a destination policy that
 * takes the first eligible server) and {@code OwedMigrations} (one migration at a time per server), with the gear
 * state a NameNode holds: ADD h s0 -> s1, ADD k s4 -> s1 and DELETE e on s9 now; c (8 -> 10) and d (6 -> 10) owed to
 * gear 2, made once gear 2 runs, d after c since both go to s10.
 */
class GearedEafrRoundsTest {
  private static final long GB = 1L << 30;
  private static final StorageReserve RESERVE = new StorageReserve(10 * GB);
  private static final DestinationPolicy FIRST_ELIGIBLE = (request, pool) -> pool.stream()
      .filter(s -> !request.excludes(s.id()) && RESERVE.canHold(s, request.sizeBytes())).findFirst();
  private static final Map<String, String> KEYS = Map.of("eafr.layout", "eafr-geared", "eafr.gear.primaries", "5",
      "eafr.gear.group-size", "5", "eafr.gear.replicas", "2", "eafr.min-hot-replicas", "1",
      "eafr.overloaded-fraction", "0.5", "eafr.overload-threshold", "0.8", "eafr.storage-reserve.bytes",
      String.valueOf(10 * GB), "eafr.destination.sample-size", "3");

  private final GearRuntime gears = new GearRuntime(GearSettings.from(KEYS::get), EafrSettings.from(KEYS::get));
  private final GearedEafrRounds rounds = GearedEafrRounds.of(gears, EafrSettings.from(KEYS::get)).orElseThrow();
  private final List<GearRecord.ChainEntry> chain = new ArrayList<>();
  private final List<Server> servers = new ArrayList<>();

  GearedEafrRoundsTest() {
    int[] load = {9, 0, 6, 0, 9, 0, 1, 9, 5, 7};
    for (int i = 0; i < 20; i++) {
      servers.add(Server.builder("s" + i).serviceCapacity(10).concurrentReads(i < load.length ? load[i] : 0)
          .storageCapacity(100 * GB).build());
      chain.add(new GearRecord.ChainEntry("s" + i, "/r" + i % 3, "", 100 * GB));
    }
    gears.state(new GearRecord(chain, ShiftState.steady(1)));
  }

  private static List<ClassifiedFile> workedExample() {
    return List.of(file("h", FileTemperature.HOT, "s0", "s7"), file("k", FileTemperature.HOT, "s4", "s12"),
        file("c", FileTemperature.COLD, "s3", "s8"), file("d", FileTemperature.COLD, "s2", "s6"),
        file("e", FileTemperature.COLD, "s1", "s5", "s9"));
  }

  private static ClassifiedFile file(String id, FileTemperature temperature, String... holders) {
    return new ClassifiedFile(ReplicatedFile.of(id, GB, holders), temperature);
  }

  private ReplicationPlan plan(boolean owe) {
    return rounds.planner(FIRST_ELIGIBLE, owe).apply(workedExample(), ClusterView.of(servers));
  }

  @Test
  void inGearOne_addsAndDeletesNow_andOwesTheColdMigrationsToGearTwo() {
    ReplicationPlan plan = plan(true);

    assertThat(plan.actions()).containsExactly(ReplicaAction.add("h", GB, "s0", "s1"),
        ReplicaAction.add("k", GB, "s4", "s1"), ReplicaAction.delete("e", GB, "s9"));
    assertThat(rounds.owedCount()).isEqualTo(2);
    assertThat(rounds.pending("c")).isTrue();
    assertThat(rounds.pending("d")).isTrue();
    assertThat(rounds.pending("h")).isFalse();
    assertThat(rounds.due(id -> true)).as("s10 sleeps in gear 1").isEmpty();
  }

  @Test
  void onceGearTwoRuns_theOwedMigrationsAreMade_oneAtATimePerServer() {
    plan(true);
    gears.state(new GearRecord(chain, ShiftState.steady(2)));

    List<BlockMove> first = rounds.due(id -> true);
    assertThat(first).containsExactly(new BlockMove("c", 8, 10, true));
    assertThat(rounds.action(first.get(0), GB)).isEqualTo(ReplicaAction.migrate("c", GB, "s8", "s10"));
    assertThat(rounds.due(id -> true)).as("s10 receives c").isEmpty();

    rounds.ended("c");
    List<BlockMove> second = rounds.due(id -> true);
    assertThat(second).containsExactly(new BlockMove("d", 6, 10, true));
    rounds.notStarted(second.get(0), GB); // held by the round's budgets: owed again
    assertThat(rounds.owedCount()).isEqualTo(1);
    assertThat(rounds.due(id -> !id.equals("s10"))).as("s10 is not on").isEmpty();
    assertThat(rounds.due(id -> true)).containsExactly(new BlockMove("d", 6, 10, true));
    rounds.ended("d");
    assertThat(rounds.owedCount()).isZero();
    assertThat(rounds.pending("c")).isFalse();
    assertThat(rounds.pending("d")).isFalse();
  }

  @Test
  void duringAShift_nothingIsPlannedOrMade() {
    plan(true);
    gears.state(new GearRecord(chain, ShiftState.steady(1)).withShift(ShiftState.steady(1)
        .shifting(2, ShiftPhase.POWERING_ON, Set.of())));

    assertThat(plan(true).actions()).isEmpty();
    assertThat(rounds.due(id -> true)).isEmpty();
    assertThat(rounds.owedCount()).isEqualTo(2);
  }

  @Test
  void aPreview_owesNothing_andAForgottenFileOwesNothing() {
    assertThat(plan(false).actions()).hasSize(3);
    assertThat(rounds.owedCount()).isZero();

    plan(true);
    rounds.forget("c");
    assertThat(rounds.owedCount()).isEqualTo(1);
    assertThat(rounds.pending("c")).isFalse();
  }
}
