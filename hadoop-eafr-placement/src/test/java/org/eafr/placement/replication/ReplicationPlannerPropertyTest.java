package org.eafr.placement.replication;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.destination.DestinationPolicy;
import org.eafr.placement.destination.DestinationSelector;
import org.eafr.placement.destination.TransferSpeeds;
import org.eafr.placement.popularity.FileTemperature;

/** Invariants of Alg. 1 over random clusters, files and classes. Each case is built from one generated seed. */
class ReplicationPlannerPropertyTest {
  private static final long GB = 1_000_000_000L;
  private static final ServerRole[] ROLES = {ServerRole.HOT, ServerRole.HOT, ServerRole.HOT, ServerRole.STANDBY,
      ServerRole.STANDBY, ServerRole.COLD, ServerRole.FAILED};
  private static final FileTemperature[] TEMPERATURES = FileTemperature.values();

  @Property(tries = 1000, seed = "20261120")
  void planNeverBreaksRNorEpsNorTargetsAServerWithoutRoomOrWithTheFile(@ForAll long seed) {
    Random random = new Random(seed);
    int r = 1 + random.nextInt(3);
    int eps = random.nextInt(r);
    StorageReserve reserve = new StorageReserve(random.nextInt(20) * GB);
    ClusterView cluster = randomCluster(random);
    List<ClassifiedFile> files = randomFiles(random, cluster);
    ReplicationPlanner planner = new ReplicationPlanner(r, eps, 0.1 + 0.8 * random.nextDouble(),
        0.5 + 0.5 * random.nextDouble(), reserve, eafrSelector(reserve, random.nextDouble(), new Random(seed + 1)));

    ReplicationPlan plan = planner.plan(files, cluster);

    assertAtMostOneActionPerFile(plan);
    assertTargetsEligible(plan, files, cluster, reserve);
    assertFloorsKept(plan, files, cluster, r, eps);
  }

  private static void assertAtMostOneActionPerFile(ReplicationPlan plan) {
    Set<String> seen = new HashSet<>();
    for (ReplicaAction action : plan.actions()) {
      assertThat(seen.add(action.fileId())).as("second action for %s", action.fileId()).isTrue();
    }
  }

  private static void assertTargetsEligible(ReplicationPlan plan, List<ClassifiedFile> files, ClusterView cluster,
      StorageReserve reserve) {
    Map<String, ReplicatedFile> byId = files.stream().map(ClassifiedFile::file)
        .collect(Collectors.toMap(ReplicatedFile::id, f -> f));
    Map<String, Long> placed = new HashMap<>();
    for (ReplicaAction action : plan.actions()) {
      ReplicatedFile file = byId.get(action.fileId());
      assertThat(file.isOn(action.source())).as("%s source holds the file", action).isTrue();
      assertThat(cluster.server(action.source()).role().servesReads()).as("%s source is awake", action).isTrue();
      if (action.target() == null) {
        continue;
      }
      Server target = cluster.server(action.target());
      ServerRole expected = action.kind() == ReplicaAction.Kind.ADD ? ServerRole.HOT : ServerRole.STANDBY;
      assertThat(target.role()).as("%s target role", action).isEqualTo(expected);
      assertThat(file.isOn(target.id())).as("%s target already holds the file", action).isFalse();
      long already = placed.getOrDefault(target.id(), 0L);
      Server withEarlier = target.withStorageUsed(target.storageUsed() + already);
      assertThat(reserve.canHold(withEarlier, file.sizeBytes())).as("%s target has room", action).isTrue();
      placed.merge(target.id(), file.sizeBytes(), Long::sum);
    }
  }

  private static void assertFloorsKept(ReplicationPlan plan, List<ClassifiedFile> files, ClusterView cluster, int r,
      int eps) {
    Map<String, ReplicaAction> actionByFile = plan.actions().stream()
        .collect(Collectors.toMap(ReplicaAction::fileId, a -> a));
    for (ClassifiedFile classified : files) {
      ReplicatedFile file = classified.file();
      Set<String> before = new LinkedHashSet<>(file.replicaServers());
      Set<String> after = apply(actionByFile.get(file.id()), before);
      int liveBefore = count(before, cluster, role -> role.holdsLiveReplicas());
      int hotBefore = count(before, cluster, role -> role == ServerRole.HOT);
      assertThat(count(after, cluster, role -> role.holdsLiveReplicas())).as("live replicas of %s", file)
          .isGreaterThanOrEqualTo(Math.min(r, liveBefore));
      assertThat(count(after, cluster, role -> role == ServerRole.HOT)).as("hot replicas of %s", file)
          .isGreaterThanOrEqualTo(Math.min(eps, hotBefore));
    }
  }

  private static Set<String> apply(ReplicaAction action, Set<String> before) {
    Set<String> after = new LinkedHashSet<>(before);
    if (action == null) {
      return after;
    }
    if (action.kind() != ReplicaAction.Kind.ADD) {
      after.remove(action.source());
    }
    if (action.target() != null) {
      after.add(action.target());
    }
    return after;
  }

  private static int count(Set<String> servers, ClusterView cluster,
      java.util.function.Predicate<ServerRole> rolePredicate) {
    int n = 0;
    for (String id : servers) {
      Optional<Server> server = cluster.find(id);
      if (server.isPresent() && rolePredicate.test(server.get().role())) {
        n++;
      }
    }
    return n;
  }

  private static ClusterView randomCluster(Random random) {
    int size = 3 + random.nextInt(25);
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      int capacity = 1 + random.nextInt(30);
      long storage = (50 + random.nextInt(700)) * GB;
      servers.add(Server.builder("s" + i).rack("/r" + random.nextInt(4)).role(ROLES[random.nextInt(ROLES.length)])
          .serviceCapacity(capacity).concurrentReads(random.nextInt(2 * capacity))
          .storageCapacity(storage).storageUsed((long) (storage * random.nextDouble())).build());
    }
    return ClusterView.of(servers);
  }

  private static List<ClassifiedFile> randomFiles(Random random, ClusterView cluster) {
    List<Server> servers = new ArrayList<>(cluster.servers());
    List<ClassifiedFile> files = new ArrayList<>();
    int count = 1 + random.nextInt(60);
    for (int i = 0; i < count; i++) {
      java.util.Collections.shuffle(servers, random);
      int replicas = 1 + random.nextInt(Math.min(6, servers.size()));
      List<String> holders = new ArrayList<>();
      for (int j = 0; j < replicas; j++) {
        holders.add(servers.get(j).id());
      }
      long size = 1 + (long) (random.nextDouble() * 12 * GB);
      files.add(new ClassifiedFile(new ReplicatedFile("f" + i, size, holders),
          TEMPERATURES[random.nextInt(TEMPERATURES.length)]));
    }
    return files;
  }

  /** EAFR's own Eq. 10-12 selector, with a fixed pseudo-random speed per destination. */
  private static DestinationPolicy eafrSelector(StorageReserve reserve, double beta, Random random) {
    TransferSpeeds speeds = (source, destination) -> 1e6 * (1 + Math.floorMod(destination.hashCode() * 31, 97));
    return new DestinationSelector(beta, reserve, speeds, random);
  }
}
