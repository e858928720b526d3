package org.eafr.placement.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eafr.placement.destination.TestServers.GB;
import static org.eafr.placement.destination.TestServers.RESERVE;
import static org.eafr.placement.destination.TestServers.withFree;
import static org.eafr.placement.destination.TestServers.withReads;

import java.util.List;
import java.util.Set;
import org.eafr.placement.cluster.Server;
import org.junit.jupiter.api.Test;

class LeastLoadedDestinationTest {
  private static final PlacementRequest REQUEST = new PlacementRequest("f", GB, "S", Set.of());
  private final LeastLoadedDestination policy = new LeastLoadedDestination(RESERVE);

  @Test
  void workedExample_fewestConcurrentReadsWins_tiesToPoolOrder() {
    Server a = withReads("A", 4);
    Server b = withReads("B", 2);
    Server c = withReads("C", 2);

    assertThat(policy.choose(REQUEST, List.of(a, b, c))).contains(b);
  }

  @Test
  void idleHolderOrFullServer_isSkippedForTheLeastLoadedCandidate() {
    Server idleHolder = withReads("holder", 0);
    Server idleButFull = withFree("full", 9 * GB); // 0 reads, but under the 10 GB reserve
    Server busy = withReads("busy", 7);
    Server lighter = withReads("lighter", 3);
    PlacementRequest request = new PlacementRequest("f", GB, "S", Set.of("holder"));

    assertThat(policy.choose(request, List.of(idleHolder, idleButFull, busy, lighter))).contains(lighter);
  }

  @Test
  void noCandidate_choosesNothing() {
    assertThat(policy.choose(REQUEST, List.of())).isEmpty();
    assertThat(policy.choose(new PlacementRequest("f", GB, "S", Set.of("A")), List.of(withReads("A", 0))))
        .isEmpty();
  }
}
