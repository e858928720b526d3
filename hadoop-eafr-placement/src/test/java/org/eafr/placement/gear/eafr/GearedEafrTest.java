package org.eafr.placement.gear.eafr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.junit.jupiter.api.Test;

class GearedEafrTest {
  private static final long GB = 1L << 30;

  private final List<Server> servers = new ArrayList<>();
  private final ExpansionChain chain;
  private final GearedEafr eafr;

  GearedEafrTest() {
    for (int i = 0; i < 20; i++) {
      servers.add(Server.builder("s" + i).serviceCapacity(10).storageCapacity(100 * GB).build());
    }
    chain = ExpansionChain.of(servers);
    // p = 5, gear groups of 5, r = 2: gears of 5, 10, 15 and 20 servers.
    eafr = new GearedEafr(new EqualWorkLayout(chain, 5, 5, 2), 0.8, new StorageReserve(10 * GB));
  }

  private static List<String> ids(List<Server> pool) {
    return pool.stream().map(Server::id).collect(Collectors.toList());
  }

  @Test
  void workedExample_rolesInGear1() {
    ClusterView roles = eafr.roles(ClusterView.of(servers), 1);

    assertThat(roles.withRole(ServerRole.HOT)).hasSize(10);
    assertThat(ids(roles.withRole(ServerRole.STANDBY))).containsExactly("s10", "s11", "s12", "s13", "s14");
    assertThat(roles.withRole(ServerRole.COLD)).hasSize(5);
  }

  @Test
  void workedExample_hotExtrasInTheLowestGear_widenWhenOverloaded() {
    ReplicatedFile file = ReplicatedFile.of("f", GB, "s0", "s7");

    assertThat(ids(eafr.hotPool(ClusterView.of(servers), file, 1, 3))).containsExactly("s1", "s2", "s3", "s4");

    ClusterView busy = ClusterView.of(servers).with(servers.get(1).withConcurrentReads(9))
        .with(servers.get(2).withConcurrentReads(10));
    assertThat(ids(eafr.hotPool(busy, file, 1, 3))).containsExactly("s3", "s4", "s5", "s6", "s8", "s9");
  }

  @Test
  void workedExample_coldReplicaGoesToTheGearAbove_andTheGear0CopyStays() {
    ReplicatedFile file = ReplicatedFile.of("f", GB, "s0", "s7");
    ClusterView cluster = ClusterView.of(servers);

    assertThat(ids(eafr.coldPool(cluster, file, 1, 2))).containsExactly("s10", "s11", "s12", "s13", "s14");
    assertThat(eafr.mayRemove(cluster, file, "s7")).isTrue();
    assertThat(eafr.mayRemove(cluster, file, "s0")).isFalse();
  }

  @Test
  void fullStandbyGear_sendsColdReplicasOneGearHigher() {
    ClusterView cluster = ClusterView.of(servers);
    for (int i = 10; i < 15; i++) {
      cluster = cluster.with(servers.get(i).withStorageUsed(95 * GB));
    }

    assertThat(ids(eafr.coldPool(cluster, ReplicatedFile.of("f", GB, "s0"), 1, 1)))
        .containsExactly("s15", "s16", "s17", "s18", "s19");
    assertThat(eafr.coldPool(cluster, ReplicatedFile.of("f", GB, "s0"), 3, 1)).isEmpty();
  }

  @Test
  void aFailedGear0Copy_doesNotCount() {
    ClusterView cluster = ClusterView.of(servers).with(servers.get(0).withRole(ServerRole.FAILED));
    ReplicatedFile file = ReplicatedFile.of("f", GB, "s0", "s1", "s7");

    assertThat(eafr.mayRemove(cluster, file, "s1")).isFalse();
    assertThat(eafr.mayRemove(cluster, file, "s7")).isTrue();
    assertThat(eafr.roles(cluster, 1).server("s0").role()).isEqualTo(ServerRole.FAILED);
  }
}
