package org.eafr.placement.replication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.junit.jupiter.api.Test;

class ExcessReplicaSelectorTest {
  private final ExcessReplicaSelector selector = new ExcessReplicaSelector(1);

  private static Server server(String id, ServerRole role, int reads, int capacity) {
    return Server.builder(id).role(role).concurrentReads(reads).serviceCapacity(capacity).build();
  }

  private static final Server H1 = server("H1", ServerRole.HOT, 13, 15);
  private static final Server H2 = server("H2", ServerRole.HOT, 6, 15);
  private static final Server S1 = server("S1", ServerRole.STANDBY, 0, 10);

  @Test
  void workedExample_deletesTheLeastSparedReplica() {
    assertThat(selector.choose(List.of(H1, H2, S1), Set.of("H1", "H2", "S1"))).contains(H1);
  }

  @Test
  void workedExample_skipsSleepingAndNonDeletableReplicas() {
    Server coldH1 = H1.withRole(ServerRole.COLD);
    assertThat(selector.choose(List.of(coldH1, H2, S1), Set.of("H1", "S1"))).contains(S1);
  }

  @Test
  void workedExample_keepsEpsHotReplicas() {
    assertThat(selector.choose(List.of(H1, S1), Set.of("H1", "S1"))).contains(S1);
  }

  @Test
  void tiesGoToTheEarlierReplica() {
    Server h3 = server("H3", ServerRole.HOT, 13, 15);
    assertThat(selector.choose(List.of(h3, H1), Set.of("H1", "H3"))).contains(h3);
  }

  @Test
  void nothingDeletable_isEmpty() {
    assertThat(selector.choose(List.of(H1, S1), Set.of("H1"))).isEqualTo(Optional.empty());
    assertThat(selector.choose(List.of(server("F", ServerRole.FAILED, 0, 1)), Set.of("F"))).isEmpty();
  }

  @Test
  void negativeEps_isRefused() {
    assertThatThrownBy(() -> new ExcessReplicaSelector(-1)).hasMessageContaining("minHotReplicas (eps) = -1");
  }
}
