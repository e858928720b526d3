package org.eafr.placement.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.ServerRole;
import org.junit.jupiter.api.Test;

class PowerModelTest {
  private final PowerModel table2 = PowerModel.eafrTable2();

  @Test
  void workedExample_interpolatesBetweenTable2Points() {
    assertThat(table2.watts(ServerRole.HOT, 0.5)).isCloseTo(115.5, within(1e-9));
    assertThat(table2.watts(ServerRole.HOT, 0.9)).isCloseTo(132.0, within(1e-9));
    assertThat(table2.watts(ServerRole.HOT, 0.1)).isCloseTo(97.35, within(1e-9));
  }

  @Test
  void table2Points_areReturnedExactly() {
    double[] utilizations = {0.0, 0.2, 0.4, 0.6, 0.8, 1.0};
    double[] watts = {93.7, 101, 110, 121, 129, 135};
    for (int i = 0; i < utilizations.length; i++) {
      assertThat(table2.awakeWatts(utilizations[i])).isEqualTo(watts[i]);
    }
  }

  @Test
  void queuedReadsAboveCapacity_drawNoMoreThanFullLoad() {
    assertThat(table2.watts(ServerRole.HOT, 1.4)).isEqualTo(135.0);
  }

  @Test
  void negativeUtilization_isClampedToIdle() {
    assertThat(table2.watts(ServerRole.HOT, -0.5)).isEqualTo(93.7);
  }

  @Test
  void standbyServer_drawsLikeAHotServerAtTheSameUtilization() {
    assertThat(table2.watts(ServerRole.STANDBY, 0.5)).isEqualTo(table2.watts(ServerRole.HOT, 0.5));
  }

  @Test
  void coldServer_drawsTheSleepDrawWhateverItsUtilization() {
    assertThat(table2.watts(ServerRole.COLD, 0.7)).isEqualTo(PowerModel.DEFAULT_SLEEP_WATTS);
    assertThat(table2.sleepWatts()).isEqualTo(10.0);
  }

  @Test
  void sleepDrawOfTheIdleColumn_reproducesThePapersLiteralReading() {
    assertThat(PowerModel.eafrTable2(93.7).watts(ServerRole.COLD, 0.0)).isEqualTo(93.7);
  }

  @Test
  void failedServer_drawsNothing() {
    assertThat(table2.watts(ServerRole.FAILED, 0.9)).isEqualTo(0.0);
  }

  @Test
  void server_drawsByItsRoleAndConcurrentReadsOverCapacity() {
    Server server = Server.builder("s1").serviceCapacity(15).concurrentReads(6).build();

    assertThat(table2.watts(server)).isEqualTo(110.0);
    assertThat(table2.watts(server.withRole(ServerRole.COLD))).isEqualTo(10.0);
  }

  @Test
  void defaultSettings_giveTable2Exactly() {
    PowerModel fromSettings = PowerModel.of(org.eafr.placement.settings.EafrSettings.defaults());
    for (double u : new double[] {0.0, 0.1, 0.2, 0.4, 0.5, 0.6, 0.8, 0.9, 1.0}) {
      assertThat(fromSettings.awakeWatts(u)).as("utilization %s", u).isEqualTo(table2.awakeWatts(u));
    }
    assertThat(fromSettings.sleepWatts()).isEqualTo(10.0);
    assertThat(fromSettings.idleWatts()).isEqualTo(93.7);
  }

  @Test
  void workedExample_table2ScaledToOtherIdleAndPeakDraws() {
    PowerModel scaled = PowerModel.eafrTable2(100.0, 200.0, 5.0);

    assertThat(scaled.awakeWatts(0.0)).isEqualTo(100.0);
    assertThat(scaled.awakeWatts(0.2)).isCloseTo(117.6755, within(1e-4))
        .isCloseTo(100 + 100 * 7.3 / 41.3, within(1e-9));
    assertThat(scaled.awakeWatts(1.0)).isCloseTo(200.0, within(1e-9));
    assertThat(scaled.watts(ServerRole.COLD, 0.3)).isEqualTo(5.0);
  }

  @Test
  void scaledTable_withPeakBelowIdle_isRejected() {
    assertThatThrownBy(() -> PowerModel.eafrTable2(100.0, 90.0, 5.0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("idle 100.0 W and peak 90.0 W");
  }

  @Test
  void customTable_interpolatesItsOwnPoints() {
    PowerModel model = new PowerModel(new double[] {0.0, 1.0}, new double[] {50.0, 150.0}, 5.0);

    assertThat(model.awakeWatts(0.25)).isCloseTo(75.0, within(1e-9));
  }

  @Test
  void tableArrays_areCopiedSoLaterChangesDoNotLeakIn() {
    double[] watts = {50.0, 150.0};
    PowerModel model = new PowerModel(new double[] {0.0, 1.0}, watts, 5.0);
    watts[1] = 1000.0;

    assertThat(model.awakeWatts(1.0)).isEqualTo(150.0);
  }

  @Test
  void nanUtilization_isRejected() {
    assertThatThrownBy(() -> table2.awakeWatts(Double.NaN)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("utilization NaN");
  }

  @Test
  void utilizationsNotStartingAtZero_areRejected() {
    assertThatThrownBy(() -> new PowerModel(new double[] {0.1, 1.0}, new double[] {90, 100}, 5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[0.1, 1.0]")
        .hasMessageContaining("first to be 0.0 and the last 1.0");
  }

  @Test
  void utilizationsNotEndingAtOne_areRejected() {
    assertThatThrownBy(() -> new PowerModel(new double[] {0.0, 0.9}, new double[] {90, 100}, 5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("last 1.0");
  }

  @Test
  void repeatedUtilization_isRejected() {
    assertThatThrownBy(() -> new PowerModel(new double[] {0.0, 0.5, 0.5, 1.0}, new double[] {90, 95, 96, 100}, 5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("utilization 0.5 after 0.5")
        .hasMessageContaining("strictly increasing");
  }

  @Test
  void wattsFallingWithUtilization_areRejected() {
    assertThatThrownBy(() -> new PowerModel(new double[] {0.0, 0.5, 1.0}, new double[] {90, 120, 110}, 5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("watts 110.0 at utilization 1.0 after 120.0")
        .hasMessageContaining("non-decreasing");
  }

  @Test
  void zeroWatts_areRejected() {
    assertThatThrownBy(() -> new PowerModel(new double[] {0.0, 1.0}, new double[] {0, 100}, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("watts 0.0 at utilization 0.0")
        .hasMessageContaining("above 0");
  }

  @Test
  void tablesOfDifferentLengths_areRejected() {
    assertThatThrownBy(() -> new PowerModel(new double[] {0.0, 1.0}, new double[] {90, 95, 100}, 5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2 utilizations and 3 watts");
  }

  @Test
  void sleepDrawAboveTheIdleDraw_isRejected() {
    assertThatThrownBy(() -> PowerModel.eafrTable2(94.0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sleepWatts 94.0").hasMessageContaining("[0, 93.7]");
  }

  @Test
  void negativeSleepDraw_isRejected() {
    assertThatThrownBy(() -> PowerModel.eafrTable2(-1.0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sleepWatts -1.0");
  }

  @Property(tries = 1000, seed = "20240601")
  void awakeDraw_neverFallsAsUtilizationRisesAndStaysWithinTheTable(
      @ForAll @DoubleRange(min = -1.0, max = 2.0) double lower,
      @ForAll @DoubleRange(min = -1.0, max = 2.0) double higher) {
    double low = Math.min(lower, higher);
    double high = Math.max(lower, higher);

    assertThat(table2.awakeWatts(low)).isLessThanOrEqualTo(table2.awakeWatts(high));
    assertThat(table2.awakeWatts(high)).isBetween(93.7, 135.0);
  }
}
