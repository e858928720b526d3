package org.eafr.placement.gear.eafr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.layout.EqualWorkShares;

class GearedEafrPropertyTest {

  /**
   * Files placed by the equal-work layout, then random EAFR actions in random gears: extra replicas from the hot pool,
   * migrations to the cold pool and deletions, each removal guarded by mayRemove. Every file keeps a replica in gear 0,
   * so every gear keeps it available; extras land at or below the running gear, migrations above it.
   */
  @Property(tries = 1000, seed = "97")
  void eafrActionsOnGears_neverLeaveAFileWithoutAGear0Replica(@ForAll @IntRange(min = 1, max = 6) int primaries,
      @ForAll @IntRange(min = 2, max = 3) int replicas, @ForAll long seed) {
    Random random = new Random(seed);
    List<Server> servers = GearServers.servers(EqualWorkShares.exactSpread(primaries, replicas), 2);
    ExpansionChain chain = ExpansionChain.of(servers);
    EqualWorkLayout layout = new EqualWorkLayout(chain, primaries, 1, replicas);
    GearedEafr eafr = new GearedEafr(layout, 0.8, new StorageReserve(0));
    ClusterView cluster = ClusterView.of(servers);
    List<ReplicatedFile> files = new ArrayList<>();
    for (int f = 0; f < 20; f++) {
      files.add(new ReplicatedFile("f" + f, 0,
          layout.place(BlockRequest.of("f" + f, replicas), ActiveSet.all(chain)).holderIds()));
    }

    for (int step = 0; step < 60; step++) {
      int gear = random.nextInt(layout.maximumGear() + 1);
      int index = random.nextInt(files.size());
      ReplicatedFile file = files.get(index);
      List<String> holders = new ArrayList<>(file.replicaServers());
      int action = random.nextInt(3);
      if (action == 0) {
        List<Server> pool = eafr.hotPool(cluster, file, gear, 4);
        if (!pool.isEmpty()) {
          Server target = pool.get(random.nextInt(pool.size()));
          assertThat(layout.gearOf(chain.position(target.id()))).isLessThanOrEqualTo(gear);
          holders.add(target.id());
        }
      } else {
        String victim = holders.get(random.nextInt(holders.size()));
        if (eafr.mayRemove(cluster, file, victim)) {
          holders.remove(victim);
          if (action == 1) {
            List<Server> pool = eafr.coldPool(cluster, file, gear, 1);
            if (!pool.isEmpty()) {
              Server target = pool.get(0);
              assertThat(layout.gearOf(chain.position(target.id()))).isGreaterThan(gear);
              holders.add(target.id());
            }
          }
        }
      }
      files.set(index, new ReplicatedFile(file.id(), 0, holders));
      for (ReplicatedFile each : files) {
        assertThat(each.replicaServers().stream().anyMatch(layout.serversOn(0)::contains)).as("%s", each).isTrue();
      }
    }
  }
}
