package org.eafr.placement.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.eafr.placement.destination.TestServers.MB;
import static org.eafr.placement.destination.TestServers.RESERVE;
import static org.eafr.placement.destination.TestServers.withPhi;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.settings.EafrSettings;
import org.eafr.placement.settings.InvalidSettingException;
import org.junit.jupiter.api.Test;

/** {@link FinishTimes} and {@link DestinationSelector} ranking by expected finish time ({@code eafr.destination.finish-ratio}). */
class FinishRatioTest {
  // The Javadoc example: two 12.5 MB/s targets (A with 16 MB queued), two 3.125 MB/s ones, a 16 MB copy.
  private static final Server A = withPhi("A", 5);
  private static final Server B = withPhi("B", 1);
  private static final Server C = withPhi("C", 8);
  private static final Server D = withPhi("D", 3);
  private static final List<Server> POOL = List.of(A, B, C, D);
  private static final Map<String, Double> SPEEDS =
      Map.of("A", 12.5 * MB, "B", 12.5 * MB, "C", 3.125 * MB, "D", 3.125 * MB);
  private static final TransferSpeeds MODEL = (source, destination) -> SPEEDS.get(destination);
  private static final PlacementRequest COPY = new PlacementRequest("f", 16 * MB, "S", Set.of());

  @Test
  void workedExample_cutsTheSlowLinks_andRanksBySoonestFinish() {
    TransferBacklog queued = destination -> destination.equals("A") ? 16 * MB : 0;
    DestinationSelector selector = new DestinationSelector(1.0, RESERVE, MODEL, new FinishTimes(2.0, MODEL, queued),
        new Random(1));

    // A: 32 MB / 12.5 = 2.56 s, B: 1.28 s, C and D: 5.12 s > 2 x 1.28 s. m = 2: w = 2/3, 1/3; B first.
    assertThat(selector.candidates(COPY, POOL)).containsExactly(A, B);
    assertThat(selector.probabilities(COPY, POOL)).containsExactly(new double[] {1.0 / 3, 2.0 / 3}, within(1e-12));
  }

  @Test
  void ratioZero_ranksBySpeedAlone_whateverIsQueued() {
    TransferBacklog queued = destination -> destination.equals("A") ? 1_000 * MB : 0;
    DestinationSelector withBacklog = new DestinationSelector(1.0, RESERVE, MODEL, new FinishTimes(0, MODEL, queued),
        new Random(1));
    DestinationSelector plain = new DestinationSelector(1.0, RESERVE, MODEL, new Random(1));

    assertThat(withBacklog.candidates(COPY, POOL)).containsExactly(A, B, C, D);
    assertThat(withBacklog.probabilities(COPY, POOL)).containsExactly(plain.probabilities(COPY, POOL));
  }

  @Test
  void aBurstOfCopies_fillsTheFastLinksFirst() {
    // Twelve copies chosen one after another, each queued where it went (nothing finishes during the burst): the
    // slow pair enters the draw once a fast link holds one copy (2.56 s = r x 1.28 s) and ranks last: 2 of 12 copies
    // each instead of the 3 of an even spread.
    Map<String, Long> queue = new HashMap<>();
    DestinationSelector selector = new DestinationSelector(1.0, RESERVE, MODEL,
        new FinishTimes(2.0, MODEL, destination -> queue.getOrDefault(destination, 0L)), new Random(20_261_127L));
    Map<String, Integer> copies = new HashMap<>();
    for (int i = 0; i < 12; i++) {
      String chosen = selector.choose(COPY, POOL).orElseThrow().id();
      queue.merge(chosen, 16 * MB, Long::sum);
      copies.merge(chosen, 1, Integer::sum);
    }

    assertThat(copies).containsExactlyInAnyOrderEntriesOf(Map.of("A", 4, "B", 4, "C", 2, "D", 2));
  }

  @Test
  void nothingCanFinish_keepsEveryCandidate() {
    DestinationSelector selector = new DestinationSelector(1.0, RESERVE, (s, d) -> 0.0,
        new FinishTimes(2.0, (s, d) -> 0.0, TransferBacklog.NONE), new Random(1));

    assertThat(selector.candidates(COPY, POOL)).containsExactly(A, B, C, D);
  }

  @Test
  void ratioBetweenZeroAndOne_isRefusedNamingTheKey() {
    assertThatThrownBy(() -> new FinishTimes(0.5, MODEL, TransferBacklog.NONE))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finishRatio (r) = 0.5");
    assertThatThrownBy(() -> EafrSettings.builder().set("eafr.destination.finish-ratio", "0.5").build())
        .isInstanceOf(InvalidSettingException.class).hasMessageContaining("eafr.destination.finish-ratio")
        .hasMessageContaining("at least 1");
  }

  @Test
  void from_takesTheRatioFromSettings() {
    EafrSettings settings = EafrSettings.builder().set(EafrSettings.SPEED_WEIGHT, 1.0)
        .set(EafrSettings.FINISH_RATIO, 2.0).build();
    DestinationSelector selector = DestinationSelector.from(settings, MODEL, TransferBacklog.NONE, new Random(1));

    // Nothing queued: A and B finish in 1.28 s, C and D in 5.12 s and are cut; A and B tie.
    assertThat(selector.candidates(COPY, POOL)).containsExactly(A, B);
  }
}
