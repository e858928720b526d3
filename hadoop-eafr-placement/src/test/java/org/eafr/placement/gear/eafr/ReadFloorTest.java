package org.eafr.placement.gear.eafr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.layout.EqualWorkShares;
import org.junit.jupiter.api.Test;

class ReadFloorTest {
  private static final long GB = 1L << 30;

  private static List<Server> servers(int n) {
    List<Server> servers = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      servers.add(Server.builder("s" + i).serviceCapacity(15).storageCapacity(500 * GB).build());
    }
    return servers;
  }

  private static ExpansionChain chain(int n) {
    return ExpansionChain.of(servers(n));
  }

  @Test
  void workedExample_gearsSetup() {
    ExpansionChain chain = chain(300);
    ReadFloor floor = ReadFloor.of(0.2, 300, 40, 1, 3);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 40, 1, 3, floor.spread(300));

    assertThat(floor.servers()).isEqualTo(60);
    assertThat(floor.gear(layout)).isEqualTo(20);
    assertThat(layout.serversOn(20).size()).isEqualTo(60);
    assertThat(floor.replicasKept(3)).isEqualTo(3);
    assertThat(ReadFloor.burstMeanMillis(1000, 1, 15, 5.0)).isCloseTo(169.175, within(1e-9));
    assertThat(ReadFloor.burstMeanMillis(1000, 3, 15, 5.0)).isCloseTo(58.075, within(1e-9));
    assertThat(ReadFloor.awakeReplicas(60, 40)).isCloseTo(1.4055, within(5e-5));
    assertThat(floor.idleEnergyShare(300, 93.7, 10.0)).isCloseTo(0.2854, within(5e-5));
  }

  @Test
  void burstMean_countsEveryRoundExactly() {
    // 7 reads over 1 replica of 3 slots: rounds of 3, 3, 1 wait 0, 1 and 2 services: (0*3 + 1*3 + 2*1) / 7 = 5/7.
    assertThat(ReadFloor.burstMeanMillis(7, 1, 3, 7.0)).isEqualTo(12.0);
    // One round: no wait.
    assertThat(ReadFloor.burstMeanMillis(45, 3, 15, 5.0)).isEqualTo(5.0);
  }

  @Test
  void everyBlockOfTheLayout_hasItsReplicasOnTheFloor() {
    ExpansionChain chain = chain(300);
    ReadFloor floor = ReadFloor.of(0.5, 300, 40, 1, 3);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 40, 1, 3, floor.spread(300));
    ActiveSet on = layout.serversOn(floor.gear(layout));

    for (int b = 0; b < 5_000; b++) {
      BlockPlacement placement = layout.place(BlockRequest.of("b" + b, 3), ActiveSet.all(chain));
      for (int i = 0; i < placement.size(); i++) {
        assertThat(on.contains(placement.holder(i))).as("block %d replica %d", b, i).isTrue();
      }
    }
    // Equal work within the floor: each server i of it still holds at least B / i of the blocks (scale above 1).
    assertThat(layout.shares().scale()).isGreaterThan(1.0);
  }

  @Test
  void roundsUpToWholeGearGroups_andKeepsAGroupPerNonPrimary() {
    assertThat(ReadFloor.of(0.5, 100, 10, 4, 3).servers()).isEqualTo(50);
    assertThat(ReadFloor.of(0.51, 100, 10, 4, 3).servers()).isEqualTo(54);
    // r - 1 = 2 groups (18 servers) would give the first group 1.125 of each block: 3 groups, 22 servers
    assertThat(ReadFloor.of(0.01, 100, 10, 4, 3).servers()).isEqualTo(22);
    assertThat(ReadFloor.of(1.0, 100, 10, 4, 3).servers()).isEqualTo(100);
  }

  @Test
  void theSmallestFloor_isOneTheLayoutBuildsOn() {
    // The demo's 9 DataNodes, p = 3, g = 1, r = 3: p + (r - 1) g = 5 servers would need 1.111 of each block on the
    // first group; the floor is 6, and the equal-work layout spreads over it.
    ReadFloor floor = ReadFloor.of(0.5, 9, 3, 1, 3);
    assertThat(floor.servers()).isEqualTo(6);
    assertThat(EqualWorkShares.fewestGroups(3, 1, 3)).isEqualTo(3);
    assertThatThrownBy(() -> new EqualWorkLayout(chain(9), 3, 1, 3, 5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("too few");
    assertThat(new EqualWorkLayout(chain(9), 3, 1, 3, floor.spread(9)).primaries()).isEqualTo(3);
  }

  @Test
  void off_isTheLayoutAsBefore() {
    ExpansionChain chain = chain(20);
    ReadFloor off = ReadFloor.of(0, 20, 5, 5, 2);

    assertThat(off).isSameAs(ReadFloor.off());
    assertThat(off.isOn()).isFalse();
    assertThat(off.spread(20)).isEqualTo(20);
    assertThat(off.gear(new EqualWorkLayout(chain, 5, 5, 2))).isZero();
    assertThat(off.replicasKept(2)).isEqualTo(1);
    assertThatThrownBy(() -> ReadFloor.of(1.5, 20, 5, 5, 2)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void withTheFloor_aReplicaLeavesOnlyWhileTheFileKeepsRThere() {
    List<Server> servers = servers(20);
    ExpansionChain chain = ExpansionChain.of(servers);
    // p = 5, gear groups of 5, r = 2, floor of 10: gear 1 (s0..s9) keeps both replicas of every block.
    ReadFloor floor = ReadFloor.of(0.5, 20, 5, 5, 2);
    EqualWorkLayout layout = new EqualWorkLayout(chain, 5, 5, 2, floor.spread(20));
    GearedEafr eafr = new GearedEafr(layout, 0.8, new StorageReserve(10 * GB), floor, 2);
    ClusterView cluster = ClusterView.of(servers);

    assertThat(floor.gear(layout)).isEqualTo(1);
    assertThat(eafr.mayRemove(cluster, ReplicatedFile.of("f", GB, "s0", "s7"), "s7")).isFalse();
    assertThat(eafr.mayRemove(cluster, ReplicatedFile.of("f", GB, "s0", "s7", "s3"), "s7")).isTrue();
    assertThat(eafr.mayRemove(cluster, ReplicatedFile.of("f", GB, "s0", "s7", "s12"), "s12")).isTrue();
    assertThat(eafr.mayRemove(cluster, ReplicatedFile.of("f", GB, "s0", "s12"), "s12")).isFalse();
  }
}
