package org.eafr.placement.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class PopularityPredictorTest {
  private static final long ONE_BLOCK = 1;

  private static PopularityPredictor.Builder unitPredictor() {
    return PopularityPredictor.builder().popularityConstant(1).scalabilityConstant(1).bounds(0.1, 100)
        .initialPopularity(1).blockSizeBytes(128L << 20);
  }

  @Test
  void workedExample_secondAccessTwoSecondsLater_raisesPopularityByAHalf() {
    PopularityPredictor ppa = unitPredictor().scalabilityConstant(2).build();

    ppa.recordAccess("f", ONE_BLOCK, 0);
    assertThat(ppa.popularity("f")).isEqualTo(1.0);
    ppa.recordAccess("f", ONE_BLOCK, 2_000);

    assertThat(ppa.popularity("f")).isCloseTo(1.5, within(1e-9));
    assertThat(ppa.popularityIncrease()).isCloseTo(0.5, within(1e-9));
  }

  @Test
  void workedExample_endOfReferenceTime_subtractsTheMeanIncreaseAndExtrapolates() {
    PopularityPredictor ppa = unitPredictor().scalabilityConstant(2).build();
    ppa.recordAccess("f", ONE_BLOCK, 0);
    ppa.recordAccess("f", ONE_BLOCK, 2_000);

    Map<String, Double> predicted = ppa.endReferenceTime();

    assertThat(ppa.popularity("f")).isCloseTo(1.25, within(1e-9));
    assertThat(predicted.get("f")).isCloseTo(1.5, within(1e-9));
    assertThat(ppa.popularityIncrease()).isZero();
    assertThat(ppa.clusterLoad()).isCloseTo(1.25, within(1e-9));
  }

  @Test
  void steadyPopularity_predictsItself() {
    PopularityPredictor ppa = unitPredictor().scalabilityConstant(2).build();
    ppa.recordAccess("f", ONE_BLOCK, 0);
    ppa.recordAccess("f", ONE_BLOCK, 2_000);
    ppa.endReferenceTime();

    Map<String, Double> predicted = ppa.endReferenceTime();

    assertThat(predicted.get("f")).isCloseTo(1.25, within(1e-9));
  }

  @Test
  void concurrentAccesses_countAsOneSecondApart() {
    PopularityPredictor ppa = unitPredictor().build();
    ppa.recordAccess("f", ONE_BLOCK, 0);
    ppa.recordAccess("f", ONE_BLOCK, 0);
    assertThat(ppa.popularity("f")).isCloseTo(2.0, within(1e-9));

    ppa.recordAccess("f", ONE_BLOCK, 500);

    assertThat(ppa.popularity("f")).isCloseTo(2.5, within(1e-9));
  }

  @Test
  void largerFile_gainsLessPopularityPerAccess() {
    PopularityPredictor ppa = unitPredictor().blockSizeBytes(100).build();
    ppa.recordAccess("f", 301, 0);

    ppa.recordAccess("f", 301, 2_000);

    assertThat(ppa.popularity("f")).isCloseTo(1 + 1.0 / (2 * 1 * 4 * 1), within(1e-9));
  }

  @Test
  void blocks_areTheSizeOverTheBlockSizeRoundedUpAndAtLeastOne() {
    PopularityPredictor ppa = unitPredictor().blockSizeBytes(100).build();

    assertThat(ppa.blocks(0)).isEqualTo(1);
    assertThat(ppa.blocks(100)).isEqualTo(1);
    assertThat(ppa.blocks(101)).isEqualTo(2);
    assertThat(ppa.blocks(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE / 100 + 1);
  }

  @Test
  void newFile_joinsAtTheAveragePopularityWithoutRaisingTheIncrease() {
    PopularityPredictor ppa = unitPredictor().build();
    ppa.recordAccess("f", ONE_BLOCK, 0);
    ppa.recordAccess("f", ONE_BLOCK, 2_000);

    ppa.recordAccess("g", ONE_BLOCK, 3_000);

    assertThat(ppa.popularity("g")).isCloseTo(1.5, within(1e-9));
    assertThat(ppa.popularityIncrease()).isCloseTo(0.5, within(1e-9));
    assertThat(ppa.averagePopularity()).isCloseTo(1.5, within(1e-9));
  }

  @Test
  void firstFileEver_startsAtTheInitialPopularity() {
    PopularityPredictor ppa = unitPredictor().initialPopularity(3).build();

    ppa.recordAccess("f", ONE_BLOCK, 0);

    assertThat(ppa.popularity("f")).isEqualTo(3.0);
  }

  @Test
  void deletingAnUnpopularFile_addsTheAverageMinusItsPopularityAndLowersTheLoadOfTheNextReferenceTime() {
    PopularityPredictor ppa = unitPredictor().build();
    ppa.recordAccess("f", ONE_BLOCK, 0);
    ppa.recordAccess("g", ONE_BLOCK, 0);
    ppa.recordAccess("f", ONE_BLOCK, 2_000);

    ppa.recordDeletion("g");

    assertThat(ppa.popularityIncrease()).isCloseTo(0.5 + (1.25 - 1.0), within(1e-9));
    assertThat(ppa.tracks("g")).isFalse();
    Map<String, Double> predicted = ppa.endReferenceTime();
    assertThat(ppa.popularity("f")).isCloseTo(0.75, within(1e-9));
    assertThat(predicted.get("f")).isCloseTo(0.5, within(1e-9));
    assertThat(ppa.clusterLoad()).isCloseTo(0.75, within(1e-9));
  }

  @Test
  void lowerClusterLoad_raisesTheNextIncrease() {
    PopularityPredictor ppa = unitPredictor().build();
    ppa.recordAccess("f", ONE_BLOCK, 0);
    ppa.recordAccess("g", ONE_BLOCK, 0);
    ppa.recordAccess("f", ONE_BLOCK, 2_000);
    ppa.recordDeletion("g");
    ppa.endReferenceTime();

    ppa.recordAccess("f", ONE_BLOCK, 4_000);

    assertThat(ppa.popularity("f")).isCloseTo(0.75 + 1 / (2 * 0.75 * 1 * 0.75), within(1e-9));
    assertThat(ppa.popularity("f")).isCloseTo(59.0 / 36, within(1e-9));
  }

  @Test
  void fileNotReadInTheReferenceTime_coolsDownByTheMeanIncrease() {
    PopularityPredictor ppa = unitPredictor().build();
    ppa.recordAccess("f", ONE_BLOCK, 0);
    ppa.recordAccess("g", ONE_BLOCK, 0);
    ppa.recordAccess("f", ONE_BLOCK, 2_000);
    ppa.recordAccess("f", ONE_BLOCK, 4_000);
    assertThat(ppa.popularity("f")).isCloseTo(11.0 / 6, within(1e-9));

    Map<String, Double> predicted = ppa.endReferenceTime();

    assertThat(ppa.popularity("f")).isCloseTo(17.0 / 12, within(1e-9));
    assertThat(ppa.popularity("g")).isCloseTo(7.0 / 12, within(1e-9));
    assertThat(predicted.get("f")).isCloseTo(22.0 / 12, within(1e-9));
    assertThat(predicted.get("g")).isCloseTo(2.0 / 12, within(1e-9));
    assertThat(ppa.clusterLoad()).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void prediction_isClampedToTheMinimum() {
    PopularityPredictor ppa = unitPredictor().bounds(0.5, 100).build();
    ppa.recordAccess("f", ONE_BLOCK, 0);
    ppa.recordAccess("g", ONE_BLOCK, 0);
    ppa.recordAccess("f", ONE_BLOCK, 2_000);
    ppa.recordAccess("f", ONE_BLOCK, 4_000);

    assertThat(ppa.endReferenceTime().get("g")).isEqualTo(0.5);
  }

  @Test
  void popularity_isClampedToTheMaximumAndOnlyTheClampedIncreaseCounts() {
    PopularityPredictor ppa = unitPredictor().bounds(0.1, 1.2).build();
    ppa.recordAccess("f", ONE_BLOCK, 0);

    ppa.recordAccess("f", ONE_BLOCK, 2_000);

    assertThat(ppa.popularity("f")).isEqualTo(1.2);
    assertThat(ppa.popularityIncrease()).isCloseTo(0.2, within(1e-9));
  }

  @Test
  void predictions_areUnmodifiableAndInFirstAccessOrder() {
    PopularityPredictor ppa = unitPredictor().build();
    ppa.recordAccess("b", ONE_BLOCK, 0);
    ppa.recordAccess("a", ONE_BLOCK, 0);

    Map<String, Double> predicted = ppa.endReferenceTime();

    assertThat(predicted.keySet()).containsExactly("b", "a");
    assertThatThrownBy(() -> predicted.put("c", 1.0)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void deletingAFileNeverAccessed_changesNothing() {
    PopularityPredictor ppa = unitPredictor().build();

    ppa.recordDeletion("ghost");

    assertThat(ppa.trackedFiles()).isZero();
    assertThat(ppa.popularityIncrease()).isZero();
    assertThat(ppa.averagePopularity()).isEqualTo(1.0);
  }

  @Test
  void accessBeforeTheFilesPreviousAccess_isRejected() {
    PopularityPredictor ppa = unitPredictor().build();
    ppa.recordAccess("f", ONE_BLOCK, 5_000);

    assertThatThrownBy(() -> ppa.recordAccess("f", ONE_BLOCK, 4_000)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("access time 4000 ms of file f").hasMessageContaining("previous access time 5000 ms");
  }

  @Test
  void negativeSize_isRejected() {
    PopularityPredictor ppa = unitPredictor().build();

    assertThatThrownBy(() -> ppa.recordAccess("f", -1, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sizeBytes -1 of file f");
  }

  @Test
  void popularityOfAnUntrackedFile_isRejected() {
    PopularityPredictor ppa = unitPredictor().build();

    assertThatThrownBy(() -> ppa.popularity("f")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("file f").hasMessageContaining("not tracked");
  }

  @Test
  void nonPositiveConstants_areRejected() {
    assertThatThrownBy(() -> unitPredictor().popularityConstant(0).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("popularityConstant 0.0");
    assertThatThrownBy(() -> unitPredictor().scalabilityConstant(-1).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("scalabilityConstant -1.0");
    assertThatThrownBy(() -> unitPredictor().bounds(0, 10).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minPopularity 0.0");
    assertThatThrownBy(() -> unitPredictor().popularityConstant(Double.NaN).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("popularityConstant NaN");
  }

  @Test
  void maximumNotAboveTheMinimum_isRejected() {
    assertThatThrownBy(() -> unitPredictor().bounds(2, 2).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxPopularity 2.0").hasMessageContaining("above minPopularity 2.0");
  }

  @Test
  void initialPopularityOutsideTheBounds_isRejected() {
    assertThatThrownBy(() -> unitPredictor().initialPopularity(200).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("initialPopularity 200.0")
        .hasMessageContaining("[0.1, 100.0]");
  }

  @Test
  void blockSizeBelowOneByte_isRejected() {
    assertThatThrownBy(() -> unitPredictor().blockSizeBytes(0).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("blockSizeBytes 0");
  }

  @Property(tries = 1000, seed = "2013")
  void popularitiesAndPredictions_stayWithinTheBoundsAndTheAverageIsTheirMean(
      @ForAll @Size(max = 80) List<@IntRange(min = 0, max = 19) Integer> operations) {
    PopularityPredictor ppa = unitPredictor().bounds(0.5, 4).build();
    List<String> files = List.of("f0", "f1", "f2", "f3");
    long t = 0;
    for (int op : operations) {
      String file = files.get(op % 4);
      if (op < 14) {
        ppa.recordAccess(file, op * 50L << 20, t);
      } else if (op < 18) {
        ppa.recordDeletion(file);
      } else {
        assertThat(ppa.endReferenceTime().values()).allSatisfy(p -> assertThat(p).isBetween(0.5, 4.0));
      }
      t += op * 300L;
    }

    double sum = 0;
    for (String file : files) {
      if (ppa.tracks(file)) {
        assertThat(ppa.popularity(file)).isBetween(0.5, 4.0);
        sum += ppa.popularity(file);
      }
    }
    double mean = ppa.trackedFiles() == 0 ? 1.0 : sum / ppa.trackedFiles();
    assertThat(ppa.averagePopularity()).isCloseTo(mean, within(1e-9));
  }
}
