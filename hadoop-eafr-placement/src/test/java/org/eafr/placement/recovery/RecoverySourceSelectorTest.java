package org.eafr.placement.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.eafr.placement.cluster.ClusterView;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.junit.jupiter.api.Test;

class RecoverySourceSelectorTest {
  private final RecoverySourceSelector selector = new RecoverySourceSelector();
  private final ClusterView view = ClusterView.of(List.of(
      server("F", ServerRole.FAILED, 10, 0),
      server("S1", ServerRole.STANDBY, 10, 0),
      server("S2", ServerRole.STANDBY, 10, 7),
      server("S3", ServerRole.STANDBY, 12, 2),
      server("H1", ServerRole.HOT, 20, 19),
      server("C1", ServerRole.COLD, 8, 0),
      server("C2", ServerRole.COLD, 12, 0),
      server("X", ServerRole.FAILED, 50, 0)));

  @Test
  void javadocExample_servingHolderWithMostSpareCapacity() {
    assertThat(selector.select(ReplicatedFile.of("f", 10, "F", "C2", "S2", "S1"), "F", view))
        .map(Server::id).contains("S1");
  }

  @Test
  void javadocExample_onlyColdHolders_theColdOneWithMostSpareCapacity() {
    assertThat(selector.select(ReplicatedFile.of("f", 10, "F", "C1", "C2"), "F", view))
        .map(Server::id).contains("C2");
  }

  @Test
  void javadocExample_onlyOnTheFailedServer_noSource() {
    assertThat(selector.select(ReplicatedFile.of("f", 10, "F"), "F", view)).isEmpty();
  }

  @Test
  void busyHotHolder_stillBeatsAnIdleColdHolder() {
    assertThat(selector.select(ReplicatedFile.of("f", 10, "F", "C2", "H1"), "F", view))
        .map(Server::id).contains("H1");
  }

  @Test
  void equalSpareCapacity_goesToTheEarlierHolder() {
    assertThat(selector.select(ReplicatedFile.of("f", 10, "F", "S3", "S1"), "F", view))
        .map(Server::id).contains("S3");
    assertThat(selector.select(ReplicatedFile.of("f", 10, "F", "S1", "S3"), "F", view))
        .map(Server::id).contains("S1");
  }

  @Test
  void otherFailedOrUnknownHolders_areNeverSources() {
    assertThat(selector.select(ReplicatedFile.of("f", 10, "F", "X", "gone"), "F", view)).isEmpty();
  }

  @Test
  void failedServerNotYetMarkedFailed_isStillNeverItsOwnSource() {
    ClusterView stale = view.with(server("F", ServerRole.HOT, 100, 0));

    assertThat(selector.select(ReplicatedFile.of("f", 10, "F", "S2"), "F", stale)).map(Server::id).contains("S2");
  }

  private static Server server(String id, ServerRole role, int serviceCapacity, int concurrentReads) {
    return Server.builder(id).role(role).serviceCapacity(serviceCapacity).concurrentReads(concurrentReads).build();
  }
}
