package org.eafr.placement.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.eafr.placement.destination.TestServers.GB;
import static org.eafr.placement.destination.TestServers.MB;
import static org.eafr.placement.destination.TestServers.RESERVE;
import static org.eafr.placement.destination.TestServers.withPhi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

class DestinationSelectorTest {
  // The Javadoc example: speed order B, D, C, A; capacity (phi) order C, A, D, B.
  private static final Server A = withPhi("A", 5);
  private static final Server B = withPhi("B", 1);
  private static final Server C = withPhi("C", 8);
  private static final Server D = withPhi("D", 3);
  private static final List<Server> POOL = List.of(A, B, C, D);
  private static final Map<String, Double> SPEEDS =
      Map.of("A", 10.0 * MB, "B", 40.0 * MB, "C", 20.0 * MB, "D", 30.0 * MB);
  private static final TransferSpeeds MODEL = (source, destination) -> SPEEDS.get(destination);
  private static final PlacementRequest REQUEST = new PlacementRequest("f", GB, "S", Set.of());

  @Test
  void workedExample_probabilitiesAreEq11OfBothRanks() {
    DestinationSelector selector = new DestinationSelector(0.5, RESERVE, MODEL, new Random(1));

    double[] p = selector.probabilities(REQUEST, POOL);

    assertThat(p).hasSize(4);
    assertThat(p[0]).isCloseTo(0.18, within(1e-12)); // A: 0.5 * 0.12 + 0.5 * 0.24
    assertThat(p[1]).isCloseTo(0.30, within(1e-12)); // B: 0.5 * 0.48 + 0.5 * 0.12
    assertThat(p[2]).isCloseTo(0.32, within(1e-12)); // C: 0.5 * 0.16 + 0.5 * 0.48
    assertThat(p[3]).isCloseTo(0.20, within(1e-12)); // D: 0.5 * 0.24 + 0.5 * 0.16
  }

  @Test
  void workedExample_drawOfHalfFallsBetweenCumulative048And080_choosesC() {
    ScriptedRandom draw = ScriptedRandom.doubleDraw(0.5);
    DestinationSelector selector = new DestinationSelector(0.5, RESERVE, MODEL, draw);

    assertThat(selector.choose(REQUEST, POOL)).contains(C);
    assertThat(draw.draws()).isEqualTo(1);
  }

  @Test
  void drawOfZero_choosesTheFirstCandidate_andTheLargestDraw_choosesTheLast() {
    assertThat(new DestinationSelector(0.5, RESERVE, MODEL, ScriptedRandom.doubleDraw(0.0)).choose(REQUEST, POOL))
        .contains(A);
    assertThat(new DestinationSelector(0.5, RESERVE, MODEL, ScriptedRandom.doubleDraw(Math.nextDown(1.0)))
        .choose(REQUEST, POOL)).contains(D);
  }

  @Test
  void seededDecisions_followTheProbabilities() {
    DestinationSelector selector = new DestinationSelector(0.5, RESERVE, MODEL, new Random(20_240_611L));
    Map<Server, Integer> counts = countChoices(selector, 10_000);

    // Expected 10,000 * p: A 1,800, B 3,000, C 3,200, D 2,000; each count below is within 1.7% of it.
    assertThat(counts).containsExactlyInAnyOrderEntriesOf(Map.of(A, 1_812, B, 2_999, C, 3_223, D, 1_966));
  }

  @Test
  void speedWeightOne_ranksBySpeedOnly() {
    DestinationSelector selector = new DestinationSelector(1.0, RESERVE, MODEL, new Random(1));

    assertThat(selector.probabilities(REQUEST, POOL)).containsExactly(
        new double[] {3.0 / 25, 12.0 / 25, 4.0 / 25, 6.0 / 25}, within(1e-12)); // B, D, C, A
  }

  @Test
  void speedWeightZero_ranksByRemainingCapacityOnly() {
    DestinationSelector selector = new DestinationSelector(0.0, RESERVE, MODEL, new Random(1));

    assertThat(selector.probabilities(REQUEST, POOL)).containsExactly(
        new double[] {6.0 / 25, 3.0 / 25, 12.0 / 25, 4.0 / 25}, within(1e-12)); // C, A, D, B
  }

  @Test
  void equalSpeedsAndCapacities_areEquallyLikely() {
    List<Server> twins = List.of(withPhi("X", 4), withPhi("Y", 4), withPhi("Z", 4));
    DestinationSelector selector = new DestinationSelector(0.5, RESERVE, (s, d) -> 5.0 * MB, new Random(1));

    // m = 3: all three tie in both lists and share (6/11 + 3/11 + 2/11) / 3 = 1/3.
    assertThat(selector.probabilities(REQUEST, twins)).containsExactly(
        new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3}, within(1e-12));
  }

  @Test
  void negativeRemainingCapacity_ranksBelowZero() {
    List<Server> pool = List.of(withPhi("queued", -3), withPhi("idle", 0));
    DestinationSelector selector = new DestinationSelector(0.0, RESERVE, (s, d) -> 1.0, new Random(1));

    assertThat(selector.probabilities(REQUEST, pool)).containsExactly(new double[] {1.0 / 3, 2.0 / 3}, within(1e-12));
  }

  @Test
  void holdersOfTheFile_areNeverChosen() {
    PlacementRequest request = new PlacementRequest("f", GB, "A", Set.of("B", "C", "D"));
    DestinationSelector selector = new DestinationSelector(0.5, RESERVE, MODEL, new Random(3));

    assertThat(selector.probabilities(request, POOL)).containsExactly(1.0);
    assertThat(countChoices(selector, request, 100)).containsExactlyEntriesOf(Map.of(A, 100));
  }

  @Test
  void serversBelowTheStorageReserve_areNeverChosen() {
    Server nearlyFull = TestServers.withFree("nearlyFull", 9 * GB); // under the 10 GB reserve
    Server roomy = TestServers.withFree("roomy", 50 * GB);
    Server alsoRoomy = TestServers.withFree("alsoRoomy", 30 * GB);
    List<Server> pool = List.of(nearlyFull, roomy, alsoRoomy);
    DestinationSelector selector = new DestinationSelector(0.5, RESERVE, (s, d) -> 1.0, new Random(5));

    assertThat(countChoices(selector, REQUEST, pool, 1_000).keySet()).containsExactlyInAnyOrder(roomy, alsoRoomy);
  }

  @Test
  void emptyPoolOrNoCandidate_choosesNothingWithoutADraw() {
    ScriptedRandom draw = ScriptedRandom.doubleDraw(0.5);
    DestinationSelector selector = new DestinationSelector(0.5, RESERVE, MODEL, draw);
    PlacementRequest everyoneExcluded = new PlacementRequest("f", GB, "S", Set.of("A", "B", "C", "D"));

    assertThat(selector.choose(REQUEST, List.of())).isEmpty();
    assertThat(selector.choose(everyoneExcluded, POOL)).isEmpty();
    assertThat(selector.probabilities(REQUEST, List.of())).isEmpty();
    assertThat(draw.draws()).isZero();
  }

  @Test
  void singleCandidate_isChosenWithItsOneDraw() {
    ScriptedRandom draw = ScriptedRandom.doubleDraw(0.9);
    DestinationSelector selector = new DestinationSelector(0.5, RESERVE, MODEL, draw);

    assertThat(selector.choose(REQUEST, List.of(B))).contains(B);
    assertThat(draw.draws()).isEqualTo(1);
  }

  @Test
  void speedsComeFromTheRequestsSource() {
    TransferSpeeds fromSource = (source, destination) -> source.equals(destination.toLowerCase()) ? 0.0 : 9.0;
    PlacementRequest fromA = new PlacementRequest("f", GB, "a", Set.of());
    DestinationSelector selector = new DestinationSelector(1.0, RESERVE, fromSource, new Random(1));

    // A is the slowest from "a" (speed 0) and ranks last; B, C, D tie and share (12 + 6 + 4) / 25 / 3 = 22/75.
    assertThat(selector.probabilities(fromA, POOL)).containsExactly(
        new double[] {3.0 / 25, 22.0 / 75, 22.0 / 75, 22.0 / 75}, within(1e-12));
  }

  @Test
  void from_takesBetaAndReserveFromSettings() {
    EafrSettings settings = EafrSettings.builder().set(EafrSettings.SPEED_WEIGHT, 1.0)
        .set(EafrSettings.STORAGE_RESERVE_BYTES, 50 * GB).build();
    DestinationSelector selector = DestinationSelector.from(settings, MODEL, new Random(1));
    Server belowReserve = TestServers.withFree("belowReserve", 40 * GB);

    // Speed only (beta = 1), and the 40 GB server is no candidate under a 50 GB reserve.
    assertThat(selector.probabilities(REQUEST, List.of(A, B, belowReserve, C, D))).containsExactly(
        new double[] {3.0 / 25, 12.0 / 25, 4.0 / 25, 6.0 / 25}, within(1e-12));
  }

  @Test
  void speedWeightOutsideZeroToOne_isRejected() {
    assertThatThrownBy(() -> new DestinationSelector(1.5, RESERVE, MODEL, new Random(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("beta").hasMessageContaining("1.5")
        .hasMessageContaining("[0, 1]");
    assertThatThrownBy(() -> new DestinationSelector(Double.NaN, new StorageReserve(0), MODEL, new Random(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
  }

  @Test
  void negativeOrNaNSpeed_isRejectedNamingTheDestination() {
    DestinationSelector negative = new DestinationSelector(0.5, RESERVE, (s, d) -> -1.0, new Random(1));
    DestinationSelector nan = new DestinationSelector(0.5, RESERVE, (s, d) -> Double.NaN, new Random(1));

    assertThatThrownBy(() -> negative.choose(REQUEST, POOL)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1.0").hasMessageContaining("to A").hasMessageContaining(">= 0");
    assertThatThrownBy(() -> nan.choose(REQUEST, POOL)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NaN");
  }

  private static Map<Server, Integer> countChoices(DestinationSelector selector, int decisions) {
    return countChoices(selector, REQUEST, POOL, decisions);
  }

  private static Map<Server, Integer> countChoices(DestinationSelector selector, PlacementRequest request,
      int decisions) {
    return countChoices(selector, request, POOL, decisions);
  }

  private static Map<Server, Integer> countChoices(DestinationPolicy policy, PlacementRequest request,
      List<Server> pool, int decisions) {
    Map<Server, Integer> counts = new LinkedHashMap<>();
    for (int i = 0; i < decisions; i++) {
      Optional<Server> chosen = policy.choose(request, pool);
      counts.merge(chosen.orElseThrow(), 1, Integer::sum);
    }
    return counts;
  }
}
