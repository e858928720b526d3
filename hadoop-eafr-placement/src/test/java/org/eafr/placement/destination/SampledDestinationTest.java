package org.eafr.placement.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eafr.placement.destination.TestServers.GB;
import static org.eafr.placement.destination.TestServers.RESERVE;
import static org.eafr.placement.destination.TestServers.withFree;
import static org.eafr.placement.destination.TestServers.withPhi;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.eafr.placement.cluster.Server;
import org.junit.jupiter.api.Test;

class SampledDestinationTest {
  private static final Server A = withPhi("A", 1);
  private static final Server B = withPhi("B", 2);
  private static final Server C = withPhi("C", 3);
  private static final Server D = withPhi("D", 4);
  private static final Server E = withPhi("E", 5);

  @Test
  void workedExample_theRuleSeesOnlyTheDrawnCandidates() {
    List<List<Server>> seen = new ArrayList<>();
    DestinationPolicy rule = (request, pool) -> {
      seen.add(pool);
      return pool.stream().findFirst();
    };
    SampledDestination sampled = new SampledDestination(rule,
        new CandidateSample(2, ScriptedRandom.intDraws(1, 3, 0)), RESERVE);

    Optional<Server> chosen = sampled.choose(new PlacementRequest("f", GB, null, Set.of("B")), List.of(A, B, C, D, E));

    assertThat(seen).containsExactly(List.of(A, D));
    assertThat(chosen).contains(A);
  }

  @Test
  void sampleOfAll_isTheRuleItself() {
    DestinationSelector selector = new DestinationSelector(0.0, RESERVE, (s, d) -> 1.0, new Random(5));
    DestinationSelector same = new DestinationSelector(0.0, RESERVE, (s, d) -> 1.0, new Random(5));
    SampledDestination sampled = new SampledDestination(selector, new CandidateSample(CandidateSample.ALL,
        new Random(9)), RESERVE);
    PlacementRequest request = new PlacementRequest("f", GB, null, Set.of());
    List<Server> pool = List.of(A, B, C, D, E);

    for (int i = 0; i < 100; i++) {
      assertThat(sampled.choose(request, pool)).isEqualTo(same.choose(request, pool));
    }
  }

  @Test
  void chooseIndex_drawsOnlyWhatTheCallerAllows_andReturnsThePoolIndex() {
    Server[] pool = {A, B, C, D, E};
    List<List<Server>> seen = new ArrayList<>();
    DestinationPolicy lastOne = (request, candidates) -> {
      seen.add(candidates);
      return candidates.isEmpty() ? Optional.empty() : Optional.of(candidates.get(candidates.size() - 1));
    };
    SampledDestination sampled = new SampledDestination(lastOne, new CandidateSample(2, new Random(4)), RESERVE);

    // Only C, D and E are allowed (say, another rack) and D holds the file: the sample is C and E.
    int chosen = sampled.chooseIndex(new PlacementRequest("f", GB, null, Set.of("D")), pool.length, i -> pool[i],
        i -> i >= 2);

    assertThat(seen).first().isEqualTo(List.of(C, E));
    assertThat(chosen).isEqualTo(4);
    assertThat(sampled.chooseIndex(new PlacementRequest("f", GB, null, Set.of()), pool.length, i -> pool[i],
        i -> false)).isEqualTo(-1);
  }

  @Test
  void aRuleChoosingOutsideItsCandidates_isAnError() {
    SampledDestination broken = new SampledDestination((request, candidates) -> Optional.of(E),
        new CandidateSample(1, new Random(1)), RESERVE);
    Server[] pool = {A, B};

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> broken.chooseIndex(
        new PlacementRequest("f", GB, null, Set.of()), pool.length, i -> pool[i], i -> true))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("not among its candidates");
  }

  @Test
  void fullServersAreNeverDrawn_soASmallSampleStillFindsTheOneWithRoom() {
    List<Server> pool = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      pool.add(withFree("full" + i, GB));
    }
    pool.add(C);
    SampledDestination sampled = new SampledDestination((request, candidates) -> candidates.stream().findFirst(),
        new CandidateSample(3, new Random(3)), RESERVE);

    assertThat(sampled.choose(new PlacementRequest("f", GB, null, Set.of()), pool)).contains(C);
  }
}
