package org.eafr.placement.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class ServerTest {
  private static final long GB = 1_000_000_000L;

  @Test
  void workedExample_utilizationOverloadAndRemainingCapacity() {
    Server server = Server.builder("s1").serviceCapacity(15).concurrentReads(13).build();

    assertThat(server.utilization()).isCloseTo(13.0 / 15.0, within(1e-12));
    assertThat(server.isOverloaded(0.8)).isTrue();
    assertThat(server.remainingServiceCapacity()).isEqualTo(2);
  }

  @Test
  void exactlyAtTauC_isNotOverloaded_andQueuedReadsMakePhiNegative() {
    assertThat(Server.builder("s").serviceCapacity(10).concurrentReads(8).build().isOverloaded(0.8)).isFalse();
    assertThat(Server.builder("s").serviceCapacity(10).concurrentReads(14).build().remainingServiceCapacity())
        .isEqualTo(-4);
  }

  @Test
  void badServers_areRefusedNamingTheServer() {
    assertThatThrownBy(() -> Server.builder("s9").serviceCapacity(0).build())
        .hasMessage("server s9: service capacity 0 is not allowed: expected at least 1 concurrent read");
    assertThatThrownBy(() -> Server.builder("s9").concurrentReads(-1).build())
        .hasMessage("server s9: concurrent reads -1 is not allowed: expected at least 0");
  }

  @Test
  void onlyHotAndStandbyServersServeReads() {
    assertThat(ServerRole.HOT.servesReads()).isTrue();
    assertThat(ServerRole.STANDBY.servesReads()).isTrue();
    assertThat(ServerRole.COLD.servesReads()).isFalse();
    assertThat(ServerRole.FAILED.servesReads()).isFalse();
    assertThat(ServerRole.COLD.holdsLiveReplicas()).isTrue();
    assertThat(ServerRole.FAILED.holdsLiveReplicas()).isFalse();
  }

  @Test
  void storageReserve_workedExampleOfEq8() {
    StorageReserve reserve = new StorageReserve(10 * GB);
    Server standby = Server.builder("ss1").role(ServerRole.STANDBY).storageCapacity(250 * GB).build();

    assertThat(reserve.shouldTurnCold(standby.withStorageUsed(241 * GB))).isTrue();
    assertThat(reserve.canHold(standby.withStorageUsed(241 * GB), 1)).isFalse();
    Server at235 = standby.withStorageUsed(235 * GB);
    assertThat(reserve.shouldTurnCold(at235)).isFalse();
    assertThat(reserve.canHold(at235, 12 * GB)).isTrue();
    assertThat(reserve.shouldTurnCold(at235.withStorageUsed(247 * GB))).isTrue();
    assertThat(reserve.canHold(at235, 16 * GB)).isFalse();
    assertThat(reserve.shouldTurnCold(standby.withStorageUsed(240 * GB))).isFalse();
    assertThat(reserve.shouldTurnCold(standby.withRole(ServerRole.HOT).withStorageUsed(245 * GB))).isFalse();
  }

  @Test
  void clusterView_indexesByIdAndRole_inGivenOrder() {
    Server h1 = Server.builder("h1").build();
    Server s1 = Server.builder("s1").role(ServerRole.STANDBY).build();
    Server h2 = Server.builder("h2").build();
    ClusterView view = ClusterView.of(List.of(h1, s1, h2));

    assertThat(view.withRole(ServerRole.HOT)).containsExactly(h1, h2);
    assertThat(view.withRole(ServerRole.COLD)).isEmpty();
    assertThat(view.with(h2.withRole(ServerRole.COLD)).withRole(ServerRole.COLD)).extracting(Server::id)
        .containsExactly("h2");
    assertThatThrownBy(() -> view.server("x")).hasMessage("unknown server x; the cluster view has 3 servers");
    assertThatThrownBy(() -> ClusterView.of(List.of(h1, h1))).hasMessage("server id h1 appears twice in the cluster view");
  }
}
