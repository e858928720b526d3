package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A gear-down whose leaving DataNode never shows IN_MAINTENANCE ends, cancelled with its reason, once it has waited
 * the move timeout ({@link MaintenanceWait}), on {@link ShiftFixture}'s cluster (gear 4, all 12 on; gear 0 keeps
 * s0..s3; a move timeout of 4 ticks). Before the bound, such a shift stayed in ENTERING_MAINTENANCE for good.
 */
class GearShiftMaintenanceWaitTest {
  private final ShiftFixture fixture = new ShiftFixture();

  @Test
  void aLeavingDataNodeThatNeverDrains_cancelsTheGearDownAfterTheMoveTimeout_withItsReason() {
    fixture.cluster.neverInMaintenance("s11");
    GearShift shift = fixture.resume();
    assertThat(shift.request(0).accepted()).isTrue();

    fixture.steps(shift, 4);
    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.ENTERING_MAINTENANCE);
    fixture.steps(shift, 1);

    assertThat(shift.state().encode()).isEqualTo("gear=4;target=4;phase=STEADY;sleeping=;waking=;joining=");
    assertThat(shift.lastNews()).isEqualTo("gear-down to 0 cancelled: 1 of 8 leaving DataNodes not IN_MAINTENANCE"
        + " after 4 ms (s11); 8 DataNodes out of maintenance");
  }

  @Test
  void theNextGearDown_waitsItsOwnBound_andReachesTheGearOnceTheDataNodeDrains() {
    fixture.cluster.neverInMaintenance("s11");
    GearShift shift = fixture.resume();
    shift.request(0);
    fixture.steps(shift, 5);
    fixture.cluster.drains("s11");

    assertThat(shift.request(0).accepted()).isTrue();
    fixture.steps(shift, 3);

    assertThat(shift.state().gear()).isZero();
    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.STEADY);
  }
}
