package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A gear-down whose leaving DataNode does not reach IN_MAINTENANCE ends, cancelled with its reason, once it has waited
 * the bound without progress ({@link MaintenanceWait}), on {@link ShiftFixture}'s cluster (gear 4, all 12 on; gear 0
 * keeps s0..s3; a bound of 4 ms; one step a ms, the first at t = 1). Progress, fewer blocks left, restarts the clock.
 */
class GearShiftMaintenanceWaitTest {
  private final ShiftFixture fixture = new ShiftFixture();

  @Test
  void aLeavingDataNodeThatNeverDrains_cancelsTheGearDownAfterTheBound_withItsReason() {
    fixture.cluster.neverInMaintenance("s11");
    GearShift shift = fixture.resume();
    assertThat(shift.request(0).accepted()).isTrue();

    fixture.steps(shift, 4);
    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.ENTERING_MAINTENANCE);
    fixture.steps(shift, 1);

    assertThat(shift.state().encode()).isEqualTo("gear=4;target=4;phase=STEADY;sleeping=;waking=;joining=");
    assertThat(shift.lastNews()).isEqualTo("gear-down to 0 cancelled: 1 of 8 leaving DataNodes not IN_MAINTENANCE,"
        + " with no progress for 4 ms (0 blocks left; s11); 8 DataNodes out of maintenance");
  }

  @Test
  void fewerBlocksLeftAtT3_restartsTheClock_andTheWaitIsCancelledAtExactlyT3PlusTheBound() {
    GearShift shift = s11Draining(3, 2); // t = 1, 2: 3 blocks left; t = 3: 2, the clock restarts
    fixture.steps(shift, 2); // t = 5 would have ended a bound on total time

    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.ENTERING_MAINTENANCE);
    fixture.steps(shift, 1); // t = 6
    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.ENTERING_MAINTENANCE);
    fixture.steps(shift, 1); // t = 7 = 3 + 4

    assertThat(fixture.cluster.tick).isEqualTo(7);
    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.STEADY);
    assertThat(shift.lastNews()).isEqualTo("gear-down to 0 cancelled: 1 of 8 leaving DataNodes not IN_MAINTENANCE,"
        + " with no progress for 4 ms (2 blocks left; s11); 8 DataNodes out of maintenance");
  }

  @Test
  void moreBlocksLeft_isNoProgress() {
    GearShift shift = s11Draining(1, 5);
    fixture.steps(shift, 2);

    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.STEADY);
    assertThat(shift.lastNews()).startsWith("gear-down to 0 cancelled: 1 of 8 leaving DataNodes not IN_MAINTENANCE,"
        + " with no progress for 4 ms (5 blocks left; s11)");
  }

  @Test
  void aDrainThatKeepsFalling_isNeverCancelled_andReachesTheGear() {
    fixture.cluster.neverInMaintenance("s11");
    fixture.cluster.blocksLeft("s11", 20);
    GearShift shift = fixture.resume();
    shift.request(0);
    for (int left = 19; left >= 0; left--) { // one block every 3 ms: 60 ms in all, 15 bounds
      fixture.steps(shift, 3);
      fixture.cluster.blocksLeft("s11", left);
      assertThat(shift.state().phase()).isEqualTo(ShiftPhase.ENTERING_MAINTENANCE);
    }
    fixture.cluster.drains("s11");
    fixture.steps(shift, 4);

    assertThat(shift.state().gear()).isZero();
    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.STEADY);
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

  @Test
  void poweringOff_aDataNodeBackInEnteringMaintenanceAfterARestart_isCancelledAfterTheBoundWithoutProgress() {
    GearShift shift = fixture.resume();
    shift.request(0);
    fixture.steps(shift, 1); // t = 1: all 8 IN_MAINTENANCE, POWERING_OFF
    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.POWERING_OFF);
    fixture.cluster.nameNodeRestarted();
    fixture.cluster.neverInMaintenance("s11");
    fixture.cluster.blocksLeft("s11", 2);
    GearShift restarted = fixture.resume(); // s4..s11 ENTERING_MAINTENANCE again
    fixture.steps(restarted, 3); // t = 2..4
    fixture.cluster.blocksLeft("s11", 1);
    fixture.steps(restarted, 4); // t = 5: 1 block left, the clock restarts; t = 6..8 no progress
    assertThat(restarted.state().phase()).isEqualTo(ShiftPhase.POWERING_OFF);
    fixture.steps(restarted, 1); // t = 9 = 5 + 4

    assertThat(restarted.state().encode())
        .isEqualTo("gear=0;target=0;phase=STEADY;sleeping=s10,s4,s5,s6,s7,s8,s9;waking=;joining=");
    assertThat(restarted.lastNews()).startsWith("gear-down to 0 cancelled: 1 of 8 leaving DataNodes not"
        + " IN_MAINTENANCE, with no progress for 4 ms (1 block left; s11); shift to gear 0 (POWERING_OFF) cancelled");
    assertThat(fixture.cluster.poweredOn("s11")).isTrue();
    assertThat(fixture.cluster.violations()).isEmpty();
  }

  /** A gear-down to 0 stepped to t = 3, s11 never IN_MAINTENANCE: {@code before} blocks left, {@code after} at t = 3. */
  private GearShift s11Draining(long before, long after) {
    fixture.cluster.neverInMaintenance("s11");
    fixture.cluster.blocksLeft("s11", before);
    GearShift shift = fixture.resume();
    shift.request(0);
    fixture.steps(shift, 2);
    fixture.cluster.blocksLeft("s11", after);
    fixture.steps(shift, 1);
    return shift;
  }
}
