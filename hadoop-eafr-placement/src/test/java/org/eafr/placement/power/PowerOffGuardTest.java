package org.eafr.placement.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.power.PowerOffGuard.Member;
import org.junit.jupiter.api.Test;

class PowerOffGuardTest {
  private static final Member D1 = new Member("d1", "IN_MAINTENANCE", true, true, true);
  private static final List<ReplicatedFile> BLOCKS =
      List.of(ReplicatedFile.of("b1", 1, "d1", "d2"), ReplicatedFile.of("b2", 1, "d1", "d3"));

  @Test
  void workedExample_b2KeepsNoReplicaInService_isRefusedNamingIt() {
    Predicate<String> inService = "d2"::equals; // d3 is in maintenance on another host

    assertThat(PowerOffGuard.refusal("h", "ACTIVE", Set.of(), List.of(D1))).isEmpty();
    assertThat(PowerOffGuard.blockRefusal("h", BLOCKS, PowerOffGuard.staysOn(Set.of("d1"), inService)))
        .contains("refusing to power off h: block b2 would have no live replica on a server that stays on: its"
            + " replicas are on [d1, d3], none of which stays on");
  }

  @Test
  void workedExample_withD3InService_isAllowed() {
    Predicate<String> inService = id -> id.equals("d2") || id.equals("d3");

    assertThat(PowerOffGuard.blockRefusal("h", BLOCKS, PowerOffGuard.staysOn(Set.of("d1"), inService))).isEmpty();
  }

  @Test
  void aReplicaOnAnotherDataNodeOfTheSameHost_doesNotCount() {
    Predicate<String> everyoneAlive = id -> true;

    assertThat(PowerOffGuard.blockRefusal("h", List.of(ReplicatedFile.of("b", 1, "d1", "d1b")),
        PowerOffGuard.staysOn(Set.of("d1", "d1b"), everyoneAlive))).isPresent();
  }

  @Test
  void standby_isRefusedBeforeAnythingElse() {
    assertThat(PowerOffGuard.refusal("h", "STANDBY", Set.of(), List.of(D1)))
        .contains("refusing to power off h: this NameNode is STANDBY, not active; only the active NameNode powers"
            + " hosts off");
  }

  @Test
  void federation_otherBlockPools_areRefused() {
    assertThat(PowerOffGuard.refusal("h", "ACTIVE", Set.of("ns2"), List.of(D1)).orElseThrow())
        .contains("[ns2] (federation), which this NameNode cannot check");
  }

  @Test
  void noDataNode_isRefused() {
    assertThat(PowerOffGuard.refusal("h", "ACTIVE", Set.of(), List.of()).orElseThrow())
        .contains("no DataNode of this NameNode runs there");
  }

  @Test
  void everyDataNodeOfTheHost_mustBeVerified() {
    Member entering = new Member("d2", "ENTERING_MAINTENANCE", true, true, false);
    Member deadFirst = new Member("d3", "IN_MAINTENANCE", false, false, false);
    Member diedInMaintenance = new Member("d4", "IN_MAINTENANCE", false, true, true);
    Member unreported = new Member("d5", "IN_MAINTENANCE", true, false, false);

    assertThat(PowerOffGuard.refusal("h", "ACTIVE", Set.of(), List.of(D1, entering)).orElseThrow())
        .contains("HDFS shows DataNode d2 ENTERING_MAINTENANCE, not IN_MAINTENANCE");
    assertThat(PowerOffGuard.refusal("h", "ACTIVE", Set.of(), List.of(D1, deadFirst)).orElseThrow())
        .contains("DataNode d3 is IN_MAINTENANCE but dead, and this NameNode never saw it alive in maintenance");
    assertThat(PowerOffGuard.refusal("h", "ACTIVE", Set.of(), List.of(D1, unreported)).orElseThrow())
        .contains("DataNode d5 is IN_MAINTENANCE but has sent no block report");
    assertThat(PowerOffGuard.refusal("h", "ACTIVE", Set.of(), List.of(D1, diedInMaintenance))).isEmpty();
    assertThat(diedInMaintenance.verified()).isTrue();
    assertThat(deadFirst.verified()).isFalse();
  }

  @Test
  void maintenanceMinimumBelowOne_isRefusedNamingTheKey() {
    assertThatThrownBy(() -> PowerOffGuard.requireMaintenanceMinimum("dfs.namenode.maintenance.replication.min", 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("dfs.namenode.maintenance.replication.min = 0 is not allowed")
        .hasMessageContaining("at least 1");
    PowerOffGuard.requireMaintenanceMinimum("k", 1);
  }
}
