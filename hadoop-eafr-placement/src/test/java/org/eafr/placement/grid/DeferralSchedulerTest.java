package org.eafr.placement.grid;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeferralSchedulerTest {
  static final long HALF_HOUR = 1_800_000L;
  static final long HOUR = 2 * HALF_HOUR;

  /** The worked example's forecast from 00:00 (epoch 0): 200, 180, 120, 150, 90, 300 gCO2/kWh. */
  static GridSignal example() {
    double[] values = {200, 180, 120, 150, 90, 300, 300, 300};
    List<GridPoint> points = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      points.add(new GridPoint(i * HALF_HOUR, values[i], values[i], 50 + i));
    }
    return GridSignal.of("example", HALF_HOUR, points);
  }

  static GridSettings settings(String objective) {
    return GridSettings.of(Map.of("eafr.grid.objective", objective,
        "eafr.grid.defer.reflection.ms", String.valueOf(3 * HOUR)));
  }

  private final DeferralScheduler carbon = new DeferralScheduler(settings("carbon"), example());

  @Test
  void halfHourOfWorkWaitsForTheCleanestSlot() {
    Verdict verdict = carbon.decide(WorkKind.REFLECTION, 0, 0, HALF_HOUR);

    assertThat(verdict.run()).isFalse();
    assertThat(verdict.reason()).isEqualTo(Verdict.Reason.WAITING);
    assertThat(verdict.runAtMillis()).isEqualTo(2 * HOUR);
    assertThat(verdict.deadlineMillis()).isEqualTo(3 * HOUR);
  }

  @Test
  void anHourOfWorkWaitsForTheCleanestTwoSlotsInARow() {
    Verdict verdict = carbon.decide(WorkKind.REFLECTION, 0, 0, HOUR);

    assertThat(verdict.run()).isFalse();
    assertThat(verdict.runAtMillis()).isEqualTo(HOUR + HALF_HOUR);
    assertThat(verdict.runUntilMillis()).isEqualTo(2 * HOUR + HALF_HOUR);
  }

  @Test
  void atTheCleanestSlotItRunsAndAtItsLatestStartItRunsWhatever() {
    assertThat(carbon.decide(WorkKind.REFLECTION, 0, 2 * HOUR, HALF_HOUR).reason())
        .isEqualTo(Verdict.Reason.BEST_NOW);
    Verdict last = carbon.decide(WorkKind.REFLECTION, 0, 2 * HOUR + HALF_HOUR, HALF_HOUR);
    assertThat(last.run()).isTrue();
    assertThat(last.reason()).isEqualTo(Verdict.Reason.DEADLINE);
  }

  /**
   * With a read-latency bound of 50 ms, an hour of work the forecast would hold until 01:30 runs at once while the
   * last period's mean read latency is 60 ms (READ_LATENCY, granted 00:00 to 01:00), and is held at 40 ms or without
   * reads (NaN).
   */
  @Test
  void aReadLatencyAboveTheBoundReleasesWorkTheForecastWouldHold() {
    DeferralScheduler bounded = new DeferralScheduler(GridSettings.of(Map.of("eafr.grid.objective", "carbon",
        "eafr.grid.defer.reflection.ms", String.valueOf(3 * HOUR), "eafr.grid.read-latency-bound.ms", "50")),
        example());

    Verdict slow = bounded.decide(WorkKind.REFLECTION, 0, 0, HOUR, Long.MAX_VALUE, 60);
    assertThat(slow.run()).isTrue();
    assertThat(slow.reason()).isEqualTo(Verdict.Reason.READ_LATENCY);
    assertThat(slow.runUntilMillis()).isEqualTo(HOUR);
    assertThat(slow.deadlineMillis()).isEqualTo(3 * HOUR);
    assertThat(bounded.decide(WorkKind.REFLECTION, 0, 0, HOUR, Long.MAX_VALUE, 40).runAtMillis())
        .isEqualTo(HOUR + HALF_HOUR);
    assertThat(bounded.decide(WorkKind.REFLECTION, 0, 0, HOUR, Long.MAX_VALUE, Double.NaN).run()).isFalse();
    assertThat(carbon.decide(WorkKind.REFLECTION, 0, 0, HOUR, Long.MAX_VALUE, 60).run()).as("no bound").isFalse();
  }

  /** A reflection must end before the next gear-down: the caller's earlier deadline wins. */
  @Test
  void callersEarlierDeadlineForcesTheRun() {
    Verdict verdict = carbon.decide(WorkKind.REFLECTION, 0, 0, HALF_HOUR, HALF_HOUR);

    assertThat(verdict.run()).isTrue();
    assertThat(verdict.reason()).isEqualTo(Verdict.Reason.DEADLINE);
    assertThat(verdict.deadlineMillis()).isEqualTo(HALF_HOUR);
  }

  /** Within the hour to the deadline, 180 against 200 now saves 10%, below the 15% asked: not worth waiting for. */
  @Test
  void aSmallSavingDoesNotWait() {
    DeferralScheduler picky = new DeferralScheduler(GridSettings.of(Map.of("eafr.grid.objective", "carbon",
        "eafr.grid.min-saving", "0.15", "eafr.grid.defer.reflection.ms", String.valueOf(HOUR))), example());

    Verdict verdict = picky.decide(WorkKind.REFLECTION, 0, 0, HALF_HOUR);

    assertThat(verdict.run()).isTrue();
    assertThat(verdict.reason()).isEqualTo(Verdict.Reason.BEST_NOW);
  }

  /** Prices 50, 51, ... rise: the cheapest start is now. */
  @Test
  void priceObjectiveReadsThePrice() {
    DeferralScheduler price = new DeferralScheduler(settings("price"), example());

    assertThat(price.decide(WorkKind.REFLECTION, 0, 0, HALF_HOUR).reason()).isEqualTo(Verdict.Reason.BEST_NOW);
  }

  @Test
  void energyOnlyAndMissingOrStaleSignalsRunAtOnce() {
    assertThat(new DeferralScheduler(settings("energy"), example()).decide(WorkKind.TRIM, 0, 0, 1).reason())
        .isEqualTo(Verdict.Reason.ENERGY_ONLY);
    assertThat(new DeferralScheduler(settings("carbon"), null).decide(WorkKind.TRIM, 0, 0, 1).reason())
        .isEqualTo(Verdict.Reason.NO_SIGNAL);
    assertThat(carbon.decide(WorkKind.TRIM, 0, 10 * HOUR, 1).reason()).isEqualTo(Verdict.Reason.NO_SIGNAL);
  }
}
