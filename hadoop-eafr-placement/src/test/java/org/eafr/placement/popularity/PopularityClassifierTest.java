package org.eafr.placement.popularity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

/** EAFR defaults throughout unless a test says otherwise: tau_u 20, sigma_u 8, tau_l 10, sigma_l 1, gamma_v 0.5. */
class PopularityClassifierTest {
  private final PopularityClassifier defaults = PopularityClassifier.from(EafrSettings.defaults());

  /** Exact reads v_ij on servers s1, s2, ... and the list of those servers. */
  private static FileReads exact(long... replicaReads) {
    FileReads.Builder builder = FileReads.builder("f");
    for (int j = 0; j < replicaReads.length; j++) {
      builder.replicaReads("s" + (j + 1), replicaReads[j]);
    }
    return builder.build();
  }

  private static List<String> servers(int count) {
    List<String> servers = new ArrayList<>();
    for (int j = 1; j <= count; j++) {
      servers.add("s" + j);
    }
    return servers;
  }

  @Test
  void javadocExample_twelveAndZeroReadsOnTwoReplicas_isNormal() {
    FileReads reads = exact(12, 0);

    assertThat(defaults.meanReadsHot(reads, servers(2))).isFalse();
    assertThat(defaults.busyReplicasHot(reads, servers(2))).isFalse();
    assertThat(defaults.meanReadsCold(reads, servers(2))).isTrue();
    assertThat(defaults.idleReplicasCold(reads, servers(2))).isFalse();
    assertThat(defaults.classify(reads, servers(2))).isEqualTo(FileTemperature.NORMAL);
  }

  @Test
  void meanOfTwentyTwoAndAHalfPerReplica_isHotByEquation2() {
    FileReads reads = exact(25, 20);

    assertThat(defaults.meanReadsHot(reads, servers(2))).isTrue();
    assertThat(defaults.classify(reads, servers(2))).isEqualTo(FileTemperature.HOT);
  }

  @Test
  void twoBusyReplicasOfThree_isHotByEquation3Alone() {
    FileReads reads = exact(9, 9, 0);

    assertThat(defaults.meanReadsHot(reads, servers(3))).isFalse();
    assertThat(defaults.busyReplicasHot(reads, servers(3))).isTrue();
    assertThat(defaults.classify(reads, servers(3))).isEqualTo(FileTemperature.HOT);
  }

  @Test
  void unreadFileWithTwoReplicas_isCold() {
    FileReads reads = exact(0, 0);

    assertThat(defaults.meanReadsCold(reads, servers(2))).isTrue();
    assertThat(defaults.idleReplicasCold(reads, servers(2))).isTrue();
    assertThat(defaults.classify(reads, servers(2))).isEqualTo(FileTemperature.COLD);
  }

  @Test
  void listedReplicaWithNoRecordedReads_countsAsZeroReads() {
    FileReads noReadsAtAll = FileReads.builder("f").build();

    assertThat(defaults.classify(noReadsAtAll, servers(3))).isEqualTo(FileTemperature.COLD);
  }

  @Test
  void meanExactlyAtTauU_isNotHot_oneMoreReadIs() {
    assertThat(defaults.meanReadsHot(exact(40, 0), servers(2))).isFalse();
    assertThat(defaults.classify(exact(40, 0), servers(2))).isEqualTo(FileTemperature.NORMAL);
    assertThat(defaults.classify(exact(41, 0), servers(2))).isEqualTo(FileTemperature.HOT);
  }

  @Test
  void replicaExactlyAtSigmaU_isNotBusy() {
    assertThat(defaults.busyReplicasHot(exact(8, 8), servers(2))).isFalse();
    assertThat(defaults.classify(exact(8, 8), servers(2))).isEqualTo(FileTemperature.NORMAL);
    assertThat(defaults.classify(exact(9, 9), servers(2))).isEqualTo(FileTemperature.HOT);
  }

  @Test
  void busyReplicasExactlyHalfOfFour_isNotHot() {
    FileReads reads = exact(9, 9, 0, 0);

    assertThat(defaults.busyReplicasHot(reads, servers(4))).isFalse();
    assertThat(defaults.idleReplicasCold(reads, servers(4))).isFalse();
    assertThat(defaults.classify(reads, servers(4))).isEqualTo(FileTemperature.NORMAL);
  }

  @Test
  void meanExactlyAtTauL_isNotCold_oneReadLessIs() {
    assertThat(defaults.meanReadsCold(exact(30, 0, 0), servers(3))).isFalse();
    assertThat(defaults.classify(exact(30, 0, 0), servers(3))).isEqualTo(FileTemperature.NORMAL);
    assertThat(defaults.classify(exact(29, 0, 0), servers(3))).isEqualTo(FileTemperature.COLD);
  }

  @Test
  void replicaWithExactlySigmaLReads_isNotIdle() {
    assertThat(defaults.idleReplicasCold(exact(1, 0), servers(2))).isFalse();
    assertThat(defaults.classify(exact(1, 0), servers(2))).isEqualTo(FileTemperature.NORMAL);
    assertThat(defaults.classify(exact(1, 0, 0), servers(3))).isEqualTo(FileTemperature.COLD);
  }

  @Test
  void unattributedReads_countTowardsTheMeanButNoReplica() {
    FileReads reads = FileReads.builder("f").replicaReads("s1", 1).unattributedReads(40).build();

    assertThat(defaults.meanReadsHot(reads, servers(2))).isTrue();
    assertThat(defaults.busyReplicasHot(reads, servers(2))).isFalse();
    assertThat(defaults.classify(reads, servers(2))).isEqualTo(FileTemperature.HOT);
  }

  @Test
  void readsOfAReplicaNoLongerListed_countTowardsTheMeanOnly() {
    FileReads reads = FileReads.builder("f").replicaReads("s9", 25).build();

    assertThat(defaults.meanReadsHot(reads, List.of("s1"))).isTrue();
    assertThat(defaults.busyReplicasHot(reads, List.of("s1"))).isFalse();
    assertThat(defaults.idleReplicasCold(reads, List.of("s1", "s2"))).isTrue();
  }

  @Test
  void hotTestUsesTheLowerBound_uncertainMeanAboveTauUStaysNormal() {
    FileReads reads = FileReads.builder("f").replicaReads("s1", 40).error(5).build();

    assertThat(reads.readsUpperBound()).isEqualTo(45);
    assertThat(defaults.meanReadsHot(reads, servers(2))).isFalse();
    assertThat(defaults.classify(reads, servers(2))).isEqualTo(FileTemperature.NORMAL);
  }

  @Test
  void hotTestUsesTheLowerBound_replicaPossiblyAboveSigmaUIsNotBusy() {
    FileReads reads = FileReads.builder("f").replicaReads("s1", 8).replicaReads("s2", 8).error(3).build();

    assertThat(defaults.busyReplicasHot(reads, servers(2))).isFalse();
  }

  @Test
  void coldTestUsesTheUpperBound_unreadReplicasWithErrorOneAreNotIdle() {
    FileReads reads = FileReads.builder("f").error(1).build();

    assertThat(defaults.meanReadsCold(reads, servers(2))).isTrue();
    assertThat(defaults.idleReplicasCold(reads, servers(2))).isFalse();
    assertThat(defaults.classify(reads, servers(2))).isEqualTo(FileTemperature.NORMAL);
  }

  @Test
  void untrackedFile_isColdOnlyWhileTheFloorIsZero() {
    assertThat(defaults.classify(FileReads.untracked("f", 0), servers(2))).isEqualTo(FileTemperature.COLD);
    assertThat(defaults.classify(FileReads.untracked("f", 3), servers(2))).isEqualTo(FileTemperature.NORMAL);
  }

  @Test
  void coldTestUsesTheUpperBound_meanPossiblyAtTauLIsNotCold() {
    FileReads reads = FileReads.builder("f").replicaReads("s1", 17).error(3).build();

    assertThat(defaults.meanReadsCold(reads, servers(2))).isFalse();
    assertThat(defaults.meanReadsCold(FileReads.builder("f").replicaReads("s1", 17).error(2).build(), servers(2)))
        .isTrue();
  }

  @Test
  void fileBothHotAndCold_isHot() {
    PopularityClassifier lowFraction =
        new PopularityClassifier(new ReadThresholds(20, 8), new ReadThresholds(10, 1), 0.4);
    FileReads reads = exact(9, 9, 9, 9, 9, 0, 0, 0, 0, 0);

    assertThat(lowFraction.busyReplicasHot(reads, servers(10))).isTrue();
    assertThat(lowFraction.meanReadsCold(reads, servers(10))).isTrue();
    assertThat(lowFraction.idleReplicasCold(reads, servers(10))).isTrue();
    assertThat(lowFraction.classify(reads, servers(10))).isEqualTo(FileTemperature.HOT);
  }

  @Test
  void replicaFractionIsComparedAsWrittenInDecimal_exactlyAtIsNotBeyond() {
    PopularityClassifier classifier =
        new PopularityClassifier(new ReadThresholds(1000, 8), new ReadThresholds(10, 1), 0.29);
    long[] reads = new long[100];
    Arrays.fill(reads, 0, 29, 9);

    assertThat(29 > 100 * 0.29).as("the double comparison this class avoids").isTrue();
    assertThat(classifier.busyReplicasHot(exact(reads), servers(100))).isFalse();
    reads[29] = 9;
    assertThat(classifier.busyReplicasHot(exact(reads), servers(100))).isTrue();
  }

  @Test
  void from_readsEveryThresholdFromTheSettings() {
    EafrSettings settings = EafrSettings.builder().set(EafrSettings.HOT_MEAN_READS, 30.0)
        .set(EafrSettings.HOT_REPLICA_READS, 12.0).set(EafrSettings.COLD_MEAN_READS, 5.0)
        .set(EafrSettings.COLD_REPLICA_READS, 2.0).set(EafrSettings.REPLICA_FRACTION, 0.25).build();

    PopularityClassifier classifier = PopularityClassifier.from(settings);

    assertThat(classifier.hotThresholds()).isEqualTo(new ReadThresholds(30, 12));
    assertThat(classifier.coldThresholds()).isEqualTo(new ReadThresholds(5, 2));
    assertThat(classifier.replicaFraction()).isEqualTo(0.25);
    assertThat(classifier.classify(exact(120, 0, 0, 0), servers(4))).isEqualTo(FileTemperature.NORMAL);
    assertThat(classifier.classify(exact(121, 0, 0, 0), servers(4))).isEqualTo(FileTemperature.HOT);
    assertThat(classifier.classify(exact(12, 12, 0, 0), servers(4))).isEqualTo(FileTemperature.NORMAL);
    assertThat(classifier.classify(exact(13, 13, 0, 0), servers(4))).isEqualTo(FileTemperature.HOT);
    assertThat(classifier.classify(exact(9, 1, 0), servers(3))).isEqualTo(FileTemperature.COLD);
  }

  @Test
  void emptyReplicaList_isRejected() {
    assertThatThrownBy(() -> defaults.classify(exact(1), List.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("replicaServers [] is not allowed: a file has at least one replica");
  }

  @Test
  void replicaFractionOutsideZeroToOne_isRejected() {
    ReadThresholds hot = new ReadThresholds(20, 8);
    ReadThresholds cold = new ReadThresholds(10, 1);

    assertThatThrownBy(() -> new PopularityClassifier(hot, cold, 1.0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("replicaFraction (gamma_v) 1.0 is not allowed: expected a number in (0, 1)");
    assertThatThrownBy(() -> new PopularityClassifier(hot, cold, 0.0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PopularityClassifier(hot, cold, Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void coldThresholdAboveHotThreshold_isRejected() {
    assertThatThrownBy(() -> new PopularityClassifier(new ReadThresholds(20, 8), new ReadThresholds(21, 1), 0.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cold meanReads (tau_l) 21.0 is not allowed: must be at most hot meanReads (tau_u) = 20.0");
    assertThatThrownBy(() -> new PopularityClassifier(new ReadThresholds(20, 8), new ReadThresholds(10, 9), 0.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cold replicaReads (sigma_l) 9.0 is not allowed: must be at most hot replicaReads (sigma_u) = 8.0");
  }
}
