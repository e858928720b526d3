package org.eafr.placement.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eafr.placement.destination.TestServers.GB;
import static org.eafr.placement.destination.TestServers.RESERVE;
import static org.eafr.placement.destination.TestServers.withFree;
import static org.eafr.placement.destination.TestServers.withPhi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.eafr.placement.cluster.Server;
import org.junit.jupiter.api.Test;

class RandomDestinationTest {
  private static final Server A = withPhi("A", 1);
  private static final Server B = withPhi("B", 2);
  private static final Server C = withPhi("C", 3);
  private static final PlacementRequest REQUEST = new PlacementRequest("f", GB, "S", Set.of());

  @Test
  void workedExample_drawOfTwoAmongThree_choosesTheThird() {
    ScriptedRandom draw = ScriptedRandom.intDraw(2);

    assertThat(new RandomDestination(RESERVE, draw).choose(REQUEST, List.of(A, B, C))).contains(C);
    assertThat(draw.draws()).isEqualTo(1);
  }

  @Test
  void seededDecisions_areUniformAmongCandidatesOnly() {
    Server holder = withPhi("holder", 9);
    Server full = withFree("full", 5 * GB);
    PlacementRequest request = new PlacementRequest("f", GB, "S", Set.of("holder"));
    RandomDestination policy = new RandomDestination(RESERVE, new Random(99));

    Map<Server, Integer> counts = new LinkedHashMap<>();
    for (int i = 0; i < 9_000; i++) {
      counts.merge(policy.choose(request, List.of(A, holder, B, full, C)).orElseThrow(), 1, Integer::sum);
    }

    // Expected 3,000 each; each count below is within 3% of it. The holder and the full server never appear.
    assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of(A, 2_967, B, 3_081, C, 2_952));
  }

  @Test
  void noCandidate_choosesNothingWithoutADraw() {
    ScriptedRandom draw = ScriptedRandom.intDraw(0);
    RandomDestination policy = new RandomDestination(RESERVE, draw);

    assertThat(policy.choose(REQUEST, List.of())).isEmpty();
    assertThat(policy.choose(REQUEST, List.of(withFree("full", GB)))).isEmpty();
    assertThat(draw.draws()).isZero();
  }
}
