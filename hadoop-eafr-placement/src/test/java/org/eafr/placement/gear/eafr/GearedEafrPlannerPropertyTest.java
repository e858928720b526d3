package org.eafr.placement.gear.eafr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockMove;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.popularity.FileTemperature;
import org.eafr.placement.replication.ClassifiedFile;
import org.eafr.placement.replication.ReplicaAction;

class GearedEafrPlannerPropertyTest {
  private static final long GB = 1L << 30;

  /**
   * Equal-work files with random extras, random loads, storage, failures and temperatures, planned for a random gear
   * over several intervals, every action applied (owed migrations as if their targets woke): no file ever loses its
   * last live gear-0 replica, so every gear keeps every file available; extras land at or below the running gear on
   * servers not holding the file, owed migrations go to the gear above, and removals take replicas the file holds.
   */
  @Property(tries = 1000, seed = "8")
  void plansOnGears_neverLeaveAFileWithoutALiveGear0Replica(@ForAll @IntRange(min = 1, max = 3) int groupsOfPrimaries,
      @ForAll @IntRange(min = 1, max = 3) int groupSize, @ForAll @IntRange(min = 2, max = 3) int replicas,
      @ForAll long seed) {
    Random random = new Random(seed);
    int primaries = groupsOfPrimaries * groupSize; // p is a multiple of g
    int count = primaries * 8 + random.nextInt(10);
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      servers.add(Server.builder("s" + i).rack("r" + (i % 3)).serviceCapacity(10)
          .storageCapacity((20 + random.nextInt(40)) * GB).build());
    }
    ExpansionChain chain = ExpansionChain.of(servers);
    EqualWorkLayout layout = new EqualWorkLayout(chain, primaries, groupSize, replicas);
    StorageReserve reserve = new StorageReserve(GB);
    GearedEafr gears = new GearedEafr(layout, 0.8, reserve);
    GearedEafrPlanner planner = new GearedEafrPlanner(gears, replicas, random.nextInt(replicas), 0.5, 0.8, reserve,
        GearedEafrPlannerTest.FIRST_ELIGIBLE, 1 + random.nextInt(4));
    Map<String, List<String>> holders = new HashMap<>();
    for (int f = 0; f < 30; f++) {
      List<String> ids = new ArrayList<>(layout.place(BlockRequest.of("f" + f, replicas), ActiveSet.all(chain))
          .holderIds());
      if (random.nextBoolean()) {
        String extra = chain.id(random.nextInt(count));
        if (!ids.contains(extra)) {
          ids.add(extra);
        }
      }
      holders.put("f" + f, ids);
    }
    ClusterView cluster = ClusterView.of(servers);
    for (int i = 0; i < count; i++) {
      if (random.nextInt(10) == 0) {
        cluster = cluster.with(cluster.server("s" + i).withRole(ServerRole.FAILED));
      }
    }

    for (int interval = 0; interval < 4; interval++) {
      int gear = random.nextInt(layout.maximumGear() + 1);
      for (int i = 0; i < count; i++) {
        cluster = cluster.with(cluster.server("s" + i).withConcurrentReads(random.nextInt(12)));
      }
      List<ClassifiedFile> files = new ArrayList<>();
      Map<String, Boolean> hadGear0 = new HashMap<>();
      for (Map.Entry<String, List<String>> file : holders.entrySet()) {
        ReplicatedFile replicated = new ReplicatedFile(file.getKey(), GB, file.getValue());
        hadGear0.put(file.getKey(), liveInGear0(cluster, layout, file.getValue()));
        files.add(new ClassifiedFile(replicated, FileTemperature.values()[random.nextInt(3)]));
      }

      GearedEafrPlan plan = planner.plan(files, cluster, gear);

      for (ReplicaAction action : plan.now()) {
        List<String> ids = holders.get(action.fileId());
        if (action.kind() == ReplicaAction.Kind.ADD) {
          assertThat(ids).doesNotContain(action.target());
          assertThat(layout.gearOf(chain.position(action.target()))).isLessThanOrEqualTo(gear);
          ids.add(action.target());
        } else {
          assertThat(action.kind()).isEqualTo(ReplicaAction.Kind.DELETE);
          assertThat(ids.remove(action.source())).isTrue();
        }
      }
      for (BlockMove move : plan.owed()) {
        List<String> ids = holders.get(move.blockId());
        assertThat(layout.gearOf(move.to())).isEqualTo(gear + 1);
        assertThat(ids.remove(chain.id(move.from()))).isTrue();
        ids.add(chain.id(move.to()));
      }
      for (Map.Entry<String, List<String>> file : holders.entrySet()) {
        if (hadGear0.get(file.getKey())) {
          assertThat(liveInGear0(cluster, layout, file.getValue())).as("%s in gear %d: %s", file.getKey(), gear,
              plan).isTrue();
        }
      }
    }
  }

  private static boolean liveInGear0(ClusterView cluster, EqualWorkLayout layout, List<String> ids) {
    ActiveSet gear0 = layout.serversOn(0);
    return ids.stream().anyMatch(id -> gear0.contains(id) && cluster.server(id).role() != ServerRole.FAILED);
  }
}
