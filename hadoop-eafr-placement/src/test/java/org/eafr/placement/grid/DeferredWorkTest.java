package org.eafr.placement.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eafr.placement.grid.DeferralSchedulerTest.HALF_HOUR;
import static org.eafr.placement.grid.DeferralSchedulerTest.HOUR;

import org.junit.jupiter.api.Test;

class DeferredWorkTest {
  private static final long NONE = Long.MAX_VALUE;

  /** The class comment's worked example, on the scheduler's forecast. */
  @Test
  void heldThenReleasedThenRunsToTheEndThenHeldAgain() {
    DeferredWork work = new DeferredWork(new DeferralScheduler(DeferralSchedulerTest.settings("carbon"),
        DeferralSchedulerTest.example()));

    assertThat(work.mayRun(WorkKind.REFLECTION, 5, 0, HALF_HOUR, NONE)).isFalse();
    assertThat(work.held(WorkKind.REFLECTION)).isTrue();
    assertThat(work.mayRun(WorkKind.REFLECTION, 5, HOUR, HALF_HOUR, NONE)).isFalse();
    assertThat(work.mayRun(WorkKind.REFLECTION, 5, 2 * HOUR, HALF_HOUR, NONE)).isTrue();
    assertThat(work.releases()).isEqualTo(1);
    assertThat(work.meanWaitMillis()).isEqualTo(2.0 * HOUR);
    assertThat(work.lastVerdict(WorkKind.REFLECTION).runUntilMillis()).isEqualTo(2 * HOUR + HALF_HOUR);
    assertThat(work.mayRun(WorkKind.REFLECTION, 3, 2 * HOUR + 600_000, HALF_HOUR, NONE)).isTrue();
    assertThat(work.releases()).isEqualTo(1);
    assertThat(work.mayRun(WorkKind.REFLECTION, 2, 2 * HOUR + HALF_HOUR, HALF_HOUR, NONE)).isTrue();
    assertThat(work.releases()).isEqualTo(2);
    assertThat(work.lastVerdict(WorkKind.REFLECTION).reason()).isEqualTo(Verdict.Reason.BEST_NOW);
    assertThat(work.lastVerdict(WorkKind.REFLECTION).deadlineMillis()).isEqualTo(5 * HOUR + HALF_HOUR);
    assertThat(work.meanWaitMillis()).isEqualTo(1.0 * HOUR);
    assertThat(work.mayRun(WorkKind.REFLECTION, 0, 2 * HOUR + 2_400_000, HALF_HOUR, NONE)).isTrue();
    assertThat(work.held(WorkKind.REFLECTION)).isFalse();
    assertThat(work.longestWaitMillis()).isEqualTo(2 * HOUR);
    assertThat(work.lateReleases()).isZero();
  }

  /** Held work is released when a period's mean read latency goes above the bound (50 ms), and waited until then. */
  @Test
  void heldWorkIsReleasedWhenReadsGetSlowerThanTheBound() {
    DeferredWork work = new DeferredWork(new DeferralScheduler(GridSettings.of(java.util.Map.of(
        "eafr.grid.objective", "carbon", "eafr.grid.defer.reflection.ms", String.valueOf(3 * HOUR),
        "eafr.grid.read-latency-bound.ms", "50")), DeferralSchedulerTest.example()));

    work.readLatency(40);
    assertThat(work.mayRun(WorkKind.REFLECTION, 5, 0, HALF_HOUR, NONE)).isFalse();
    work.readLatency(60);
    assertThat(work.mayRun(WorkKind.REFLECTION, 5, HALF_HOUR, HALF_HOUR, NONE)).isTrue();
    assertThat(work.lastVerdict(WorkKind.REFLECTION).reason()).isEqualTo(Verdict.Reason.READ_LATENCY);
    assertThat(work.meanWaitMillis()).isEqualTo(1.0 * HALF_HOUR);
  }

  @Test
  void kindsAreHeldIndependently() {
    DeferredWork work = new DeferredWork(new DeferralScheduler(DeferralSchedulerTest.settings("carbon"),
        DeferralSchedulerTest.example()));

    work.mayRun(WorkKind.REFLECTION, 1, 0, HALF_HOUR, NONE);
    work.mayRun(WorkKind.COLD_MIGRATION, 1, 0, HALF_HOUR, NONE);

    assertThat(work.heldKinds()).isEqualTo(2);
    assertThat(work.mayRun(WorkKind.REFLECTION, 1, HALF_HOUR, HALF_HOUR, HALF_HOUR)).isTrue();
    assertThat(work.heldKinds()).isEqualTo(1);
  }

  /** The class comment's holds: one released, one ended without a release, one still open. */
  @Test
  void holdsEndReleasedUnreleasedOrOpen() {
    DeferredWork work = new DeferredWork(new DeferralScheduler(DeferralSchedulerTest.settings("carbon"),
        DeferralSchedulerTest.example()));
    long minute = 60_000;

    assertThat(work.holds(0).count()).isZero();
    assertThat(work.holds(0).meanMillis()).isNaN();
    assertThat(work.mayRun(WorkKind.REFLECTION, 5, 0, HALF_HOUR, NONE)).isFalse();
    assertThat(work.mayRun(WorkKind.COLD_MIGRATION, 2, HOUR, HALF_HOUR, NONE)).isFalse();
    assertThat(work.mayRun(WorkKind.COLD_MIGRATION, 0, HOUR + 20 * minute, HALF_HOUR, NONE)).isTrue();
    assertThat(work.mayRun(WorkKind.TRIM, 1, HOUR + HALF_HOUR, HALF_HOUR, NONE)).isFalse();
    assertThat(work.mayRun(WorkKind.REFLECTION, 5, 2 * HOUR, HALF_HOUR, NONE)).isTrue();
    assertThat(work.mayRun(WorkKind.REFLECTION, 5, 2 * HOUR + 10 * minute, HALF_HOUR, NONE)).isTrue();

    DeferredWork.Holds holds = work.holds(3 * HOUR + 10 * minute);
    assertThat(holds.count()).isEqualTo(3);
    assertThat(holds.unreleased()).isEqualTo(1);
    assertThat(holds.open()).isEqualTo(1);
    assertThat(holds.meanMillis()).isEqualTo(80.0 * minute);
    assertThat(holds.longestMillis()).isEqualTo(2 * HOUR);
    assertThat(work.releases()).isEqualTo(1);
  }
}
