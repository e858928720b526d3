package org.eafr.placement.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.eafr.placement.destination.TestServers.GB;
import static org.eafr.placement.destination.TestServers.RESERVE;
import static org.eafr.placement.destination.TestServers.withFree;

import java.util.List;
import java.util.Set;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.junit.jupiter.api.Test;

class CandidateFilterTest {
  private final CandidateFilter filter = new CandidateFilter(RESERVE);

  @Test
  void excludedServersAndServersWithoutRoom_areDropped_restKeepPoolOrder() {
    Server holder = withFree("holder", 50 * GB);
    Server belowReserve = withFree("belowReserve", 9 * GB); // under the 10 GB reserve: takes no more replicas
    Server roomy = withFree("roomy", 80 * GB);
    Server alsoRoomy = withFree("alsoRoomy", 40 * GB);
    PlacementRequest request = new PlacementRequest("f", GB, "src", Set.of("holder"));

    assertThat(filter.candidates(request, List.of(roomy, holder, belowReserve, alsoRoomy)))
        .containsExactly(roomy, alsoRoomy);
  }

  @Test
  void serverAboveTheReserveButSmallerThanTheFile_isDropped() {
    Server small = withFree("small", 20 * GB);
    Server large = withFree("large", 60 * GB);
    PlacementRequest request = new PlacementRequest("f", 30 * GB, "src", Set.of());

    assertThat(filter.candidates(request, List.of(small, large))).containsExactly(large);
  }

  @Test
  void roles_areTheCallersBusiness() {
    Server standby = withFree("standby", 50 * GB).withRole(ServerRole.STANDBY);
    Server cold = withFree("cold", 50 * GB).withRole(ServerRole.COLD);
    PlacementRequest request = new PlacementRequest("f", GB, null, Set.of());

    assertThat(filter.candidates(request, List.of(standby, cold))).containsExactly(standby, cold);
  }

  @Test
  void candidates_areUnmodifiable() {
    PlacementRequest request = new PlacementRequest("f", GB, null, Set.of());
    List<Server> candidates = filter.candidates(request, List.of(withFree("a", 50 * GB)));

    assertThatThrownBy(() -> candidates.remove(0)).isInstanceOf(UnsupportedOperationException.class);
  }
}
