package org.eafr.placement.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.popularity.FileTemperature;

class RecoveryPlannerPropertyTest {
  private static final String FAILED = "F";
  private static final StorageReserve RESERVE = new StorageReserve(10);

  /**
   * Every pool server has room for everything and no file sits in its own pool, so nothing is skipped: over two plans
   * from the same planner, each pool's per-server counts differ by at most one.
   */
  @Property(tries = 1000, seed = "91")
  void roomEverywhere_spreadsEachPoolEvenlyAcrossFilesAndCalls(
      @ForAll @IntRange(min = 1, max = 6) int hotCount,
      @ForAll @IntRange(min = 1, max = 6) int standbyCount,
      @ForAll("holderPicks") List<FileShape> shapes,
      @ForAll @IntRange(min = 0, max = 40) int split) {
    List<Server> servers = new ArrayList<>();
    servers.add(server(FAILED, ServerRole.FAILED, 1_000_000));
    addNumbered(servers, "H", hotCount, ServerRole.HOT);
    addNumbered(servers, "S", standbyCount, ServerRole.STANDBY);
    addNumbered(servers, "C", 3, ServerRole.COLD);
    ClusterView view = ClusterView.of(servers);
    List<LostReplica> lost = outsideTheirPool(shapes, view);
    RecoveryPlanner planner = new RecoveryPlanner(RESERVE);
    int cut = Math.min(split, lost.size());

    List<RecoveryAssignment> assignments = new ArrayList<>(planner.plan(FAILED, lost.subList(0, cut), view)
        .assignments());
    assignments.addAll(planner.plan(FAILED, lost.subList(cut, lost.size()), view).assignments());

    assertThat(assignments).hasSize(lost.size());
    assertEvenOver(view.withRole(ServerRole.HOT), assignments);
    assertEvenOver(view.withRole(ServerRole.STANDBY), assignments);
  }

  /** Random holders, roles, capacities and storage: every assignment and every refusal is checked against Alg. 4. */
  @Property(tries = 1000, seed = "92")
  void anyCluster_sourcesHoldTheFileAndDestinationsFitTheirPool(@ForAll("scenarios") Scenario scenario,
      @ForAll @IntRange(min = 0, max = 12) int earlierSingleCalls) {
    RecoveryPlanner planner = new RecoveryPlanner(RESERVE);
    for (int i = 0; i < earlierSingleCalls; i++) {
      planner.nextDestination(ReplicatedFile.of("warm-up", 0), FileTemperature.values()[i % 3], scenario.view);
    }

    RecoveryPlan plan = planner.plan(FAILED, scenario.lost, scenario.view);

    Map<String, RecoveryAssignment> assigned = plan.assignments().stream()
        .collect(Collectors.toMap(RecoveryAssignment::fileId, a -> a));
    Map<String, RecoveryFailure> refused = plan.unrecoverable().stream()
        .collect(Collectors.toMap(UnrecoverableFile::fileId, UnrecoverableFile::reason));
    assertThat(assigned.size() + refused.size()).isEqualTo(scenario.lost.size());
    Map<String, Long> pending = new HashMap<>();
    for (LostReplica lost : scenario.lost) {
      String id = lost.file().id();
      assertThat(assigned.containsKey(id)).as("%s planned once", id).isNotEqualTo(refused.containsKey(id));
      if (assigned.containsKey(id)) {
        checkSource(lost.file(), assigned.get(id), scenario.view);
        checkDestination(lost, assigned.get(id), scenario.view, pending);
        pending.merge(assigned.get(id).destinationId(), lost.file().sizeBytes(), Long::sum);
      } else {
        checkRefusal(lost, refused.get(id), scenario.view, pending);
      }
    }
  }

  private static void checkSource(ReplicatedFile file, RecoveryAssignment assignment, ClusterView view) {
    Server source = view.server(assignment.sourceId());
    List<Server> serving = liveHolders(file, view).stream().filter(s -> s.role().servesReads())
        .collect(Collectors.toList());
    assertThat(file.isOn(source.id())).isTrue();
    assertThat(source.id()).isNotEqualTo(FAILED);
    assertThat(source.role()).isNotEqualTo(ServerRole.FAILED);
    assertThat(assignment.wakesColdSource()).isEqualTo(source.role() == ServerRole.COLD);
    assertThat(source.role() == ServerRole.COLD).isEqualTo(serving.isEmpty());
    List<Server> sameClass = serving.isEmpty() ? liveHolders(file, view) : serving;
    assertThat(source.remainingServiceCapacity())
        .isEqualTo(sameClass.stream().mapToInt(Server::remainingServiceCapacity).max().getAsInt());
  }

  private static void checkDestination(LostReplica lost, RecoveryAssignment assignment, ClusterView view,
      Map<String, Long> pending) {
    Server destination = view.server(assignment.destinationId());
    if (destination.role() != poolRole(lost.temperature())) {
      assertThat(lost.temperature()).as("only cold files leave their pool").isEqualTo(FileTemperature.COLD);
      assertThat(destination.role()).isEqualTo(ServerRole.HOT);
      assertThat(firstFit(ServerRole.STANDBY, lost, view, pending)).as("a standby server with room").isEmpty();
    }
    assertThat(destination.id()).isNotEqualTo(FAILED);
    assertThat(lost.file().isOn(destination.id())).isFalse();
    assertThat(RESERVE.canHold(destination.remainingStorage() - pending.getOrDefault(destination.id(), 0L),
        lost.file().sizeBytes()))
        .as("%s has room for %s after this plan's earlier copies", destination, lost.file()).isTrue();
  }

  private static void checkRefusal(LostReplica lost, RecoveryFailure reason, ClusterView view,
      Map<String, Long> pending) {
    if (liveHolders(lost.file(), view).isEmpty()) {
      assertThat(reason).isEqualTo(RecoveryFailure.NO_LIVE_REPLICA);
      return;
    }
    assertThat(reason).isEqualTo(RecoveryFailure.NO_DESTINATION_WITH_ROOM);
    assertThat(firstFit(poolRole(lost.temperature()), lost, view, pending)).as("a server with room for %s",
        lost.file()).isEmpty();
    assertThat(firstFit(ServerRole.HOT, lost, view, pending)).as("a hot server with room for %s", lost.file())
        .isEmpty();
  }

  private static Optional<Server> firstFit(ServerRole role, LostReplica lost, ClusterView view,
      Map<String, Long> pending) {
    return view.withRole(role).stream()
        .filter(s -> !s.id().equals(FAILED) && !lost.file().isOn(s.id()))
        .filter(s -> RESERVE.canHold(s.remainingStorage() - pending.getOrDefault(s.id(), 0L), lost.file().sizeBytes()))
        .findFirst();
  }

  private static List<Server> liveHolders(ReplicatedFile file, ClusterView view) {
    return file.replicaServers().stream().filter(id -> !id.equals(FAILED)).map(view::server)
        .filter(s -> s.role() != ServerRole.FAILED).collect(Collectors.toList());
  }

  private static ServerRole poolRole(FileTemperature temperature) {
    return temperature == FileTemperature.COLD ? ServerRole.STANDBY : ServerRole.HOT;
  }

  private static void assertEvenOver(List<Server> pool, List<RecoveryAssignment> assignments) {
    Map<String, Integer> counts = new HashMap<>();
    pool.forEach(s -> counts.put(s.id(), 0));
    assignments.stream().filter(a -> counts.containsKey(a.destinationId()))
        .forEach(a -> counts.merge(a.destinationId(), 1, Integer::sum));
    int max = counts.values().stream().mapToInt(Integer::intValue).max().getAsInt();
    int min = counts.values().stream().mapToInt(Integer::intValue).min().getAsInt();
    assertThat(max - min).as("copies per server %s", counts).isLessThanOrEqualTo(1);
  }

  /** Each file on F plus holders picked from the servers outside its own destination pool. */
  private static List<LostReplica> outsideTheirPool(List<FileShape> shapes, ClusterView view) {
    List<LostReplica> lost = new ArrayList<>();
    for (FileShape shape : shapes) {
      List<Server> outside = view.servers().stream()
          .filter(s -> s.role() != poolRole(shape.temperature) && s.role() != ServerRole.FAILED)
          .collect(Collectors.toList());
      lost.add(LostReplica.of(shape.file("f" + lost.size(), outside), shape.temperature));
    }
    return lost;
  }

  private static void addNumbered(List<Server> servers, String prefix, int count, ServerRole role) {
    for (int i = 1; i <= count; i++) {
      servers.add(server(prefix + i, role, 1_000_000));
    }
  }

  private static Server server(String id, ServerRole role, long storageCapacity) {
    return Server.builder(id).role(role).serviceCapacity(10).storageCapacity(storageCapacity).build();
  }

  @Provide
  Arbitrary<List<FileShape>> holderPicks() {
    return fileShapes(1).list().ofMaxSize(40);
  }

  @Provide
  Arbitrary<Scenario> scenarios() {
    Arbitrary<ServerRole> roles = Arbitraries.frequency(Tuple.of(4, ServerRole.HOT), Tuple.of(3, ServerRole.STANDBY),
        Tuple.of(2, ServerRole.COLD), Tuple.of(1, ServerRole.FAILED));
    Arbitrary<Server> shape = Combinators.combine(roles, Arbitraries.integers().between(1, 20),
        Arbitraries.integers().between(0, 25), Arbitraries.longs().between(0, 400), Arbitraries.doubles().between(0, 1))
        .as((role, capacity, reads, storage, usedShare) -> Server.builder("unnamed").role(role)
            .serviceCapacity(capacity).concurrentReads(reads).storageCapacity(storage)
            .storageUsed((long) (storage * usedShare)).build());
    return Combinators.combine(shape.list().ofMinSize(2).ofMaxSize(12), fileShapes(0).list().ofMaxSize(15),
        Arbitraries.of(true, false)).as(Scenario::new);
  }

  private static Arbitrary<FileShape> fileShapes(int minPicks) {
    return Combinators.combine(Arbitraries.longs().between(0, 40), Arbitraries.of(FileTemperature.class),
        Arbitraries.integers().between(0, 1000).list().ofMinSize(minPicks).ofMaxSize(4)).as(FileShape::new);
  }

  /** A generated file before its holders are known: size, temperature and picks into a list of candidates. */
  static final class FileShape {
    final long size;
    final FileTemperature temperature;
    final List<Integer> picks;

    FileShape(long size, FileTemperature temperature, List<Integer> picks) {
      this.size = size;
      this.temperature = temperature;
      this.picks = picks;
    }

    /** The file on F plus the picked candidates (each pick taken modulo the candidates, repeats dropped). */
    ReplicatedFile file(String id, List<Server> candidates) {
      Set<String> holders = new LinkedHashSet<>();
      holders.add(FAILED);
      for (int pick : picks) {
        if (!candidates.isEmpty()) {
          holders.add(candidates.get(pick % candidates.size()).id());
        }
      }
      return new ReplicatedFile(id, size, new ArrayList<>(holders));
    }

    @Override
    public String toString() {
      return size + "B " + temperature + " picks " + picks;
    }
  }

  /** A random cluster with a failed server F (sometimes still listed as HOT) and the files F held. */
  static final class Scenario {
    final ClusterView view;
    final List<LostReplica> lost;

    Scenario(List<Server> shapes, List<FileShape> fileShapes, boolean failedStillListedHot) {
      List<Server> servers = new ArrayList<>();
      servers.add(Server.builder(FAILED).role(failedStillListedHot ? ServerRole.HOT : ServerRole.FAILED)
          .serviceCapacity(50).storageCapacity(1000).build());
      for (Server shape : shapes) {
        servers.add(Server.builder("s" + servers.size()).role(shape.role()).serviceCapacity(shape.serviceCapacity())
            .concurrentReads(shape.concurrentReads()).storageCapacity(shape.storageCapacity())
            .storageUsed(shape.storageUsed()).build());
      }
      this.view = ClusterView.of(servers);
      List<Server> others = servers.subList(1, servers.size());
      List<LostReplica> files = new ArrayList<>();
      for (FileShape shape : fileShapes) {
        files.add(LostReplica.of(shape.file("f" + files.size(), others), shape.temperature));
      }
      this.lost = files;
    }

    @Override
    public String toString() {
      return view.servers() + " lost " + lost;
    }
  }
}
