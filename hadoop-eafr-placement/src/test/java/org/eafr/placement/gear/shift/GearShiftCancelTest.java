package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.eafr.placement.gear.GearedLayout;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The worked examples of {@link GearShift#cancel} and {@link ShiftCancel}: 12 DataNodes, equal-work with p = 4, g = 2,
 * r = 3 (gear 1 keeps s0..s5 on, gear 2 s0..s7, gear 3 s0..s9).
 */
class GearShiftCancelTest {
  private final ShiftFixture fixture = new ShiftFixture();
  private final GearedLayout layout = fixture.layout;
  private final MemoryShiftStore store = fixture.store;
  private final SimulatedCluster cluster = fixture.cluster;
  private GearShift shift;

  @BeforeEach
  void resumed() {
    shift = fixture.resume();
  }

  @Test
  void reachedGear_isTheHighestGearKeepingNoSleeperOn() {
    assertThat(ShiftCancel.reachedGear(layout, Set.of("s6", "s7"))).isEqualTo(1);
    assertThat(ShiftCancel.reachedGear(layout, Set.of("s8", "s9", "s10", "s11"))).isEqualTo(2);
    assertThat(ShiftCancel.reachedGear(layout, Set.of())).isEqualTo(4);
    assertThat(ShiftCancel.reachedGear(layout, Set.of("s4"))).isZero();
  }

  @Test
  void cancel_beforePowerOffTakesEveryRunningLeaverOutOfMaintenance() {
    shift.request(0);

    ShiftAnswer answer = shift.cancel();

    assertThat(answer.accepted()).isTrue();
    assertThat(answer.text()).isEqualTo("shift to gear 0 (ENTERING_MAINTENANCE) cancelled: gear 4 in force; 0"
        + " DataNodes not running stay asleep in maintenance []; 8 DataNodes out of maintenance [s10, s11, s4, s5,"
        + " s6, s7, s8, s9]; 0 blocks still owed, moved once their homes are on");
    assertThat(shift.state()).isEqualTo(ShiftState.steady(4));
    assertThat(store.load()).contains(ShiftState.steady(4));
    steps(3);
    assertThat(cluster.powerCommands()).isZero();
    assertThat(cluster.violations()).isEmpty();
  }

  @Test
  void cancel_keepsTheHostsOffFromAnEarlierGearDownAsleepAfterARestart() {
    shift.request(2);
    steps(3);
    assertThat(shift.state()).isEqualTo(new ShiftState(2, 2, ShiftPhase.STEADY, Set.of("s8", "s9", "s10", "s11"),
        Set.of()));
    cluster.nameNodeRestarted();
    shift = fixture.resume();
    shift.request(0);

    ShiftAnswer answer = shift.cancel();

    assertThat(answer.text()).startsWith("shift to gear 0 (ENTERING_MAINTENANCE) cancelled: gear 2 in force; 4"
        + " DataNodes not running stay asleep in maintenance [s10, s11, s8, s9]; 4 DataNodes out of maintenance"
        + " [s4, s5, s6, s7]");
    assertThat(shift.state().gear()).isEqualTo(2);
    assertThat(shift.state().sleeping()).containsExactly("s10", "s11", "s8", "s9");
    assertThat(cluster.violations()).isEmpty();
  }

  @Test
  void cancel_ofAGearUpKeepsTheHostsStillBootingAsleep() {
    shift.request(0);
    steps(3);
    shift.request(4);
    shift.step(cluster.tick); // power-ons sent; the hosts boot over the next ticks

    ShiftAnswer answer = shift.cancel();

    assertThat(answer.text()).startsWith("shift to gear 4 (POWERING_ON) cancelled: gear 0 in force; 8 DataNodes"
        + " not running stay asleep in maintenance");
    assertThat(shift.state().sleeping()).hasSize(8);
    steps(3);
    assertThat(cluster.violations()).isEmpty();
  }

  @Test
  void cancel_keepsALeaverThatDiedAsleep_itsHostStateUnknown() {
    shift.request(0);
    cluster.crash("s4", 100);
    cluster.tick();

    ShiftAnswer answer = shift.cancel();

    assertThat(answer.text()).startsWith("shift to gear 0 (ENTERING_MAINTENANCE) cancelled: gear 0 in force; 1"
        + " DataNodes not running stay asleep in maintenance [s4]; 7 DataNodes out of maintenance");
    assertThat(shift.state().sleeping()).containsExactly("s4");
    steps(3);
    assertThat(cluster.violations()).isEmpty();
  }

  @Test
  void cancel_whenSteadyIsRefusedChangingNothing() {
    ShiftAnswer answer = shift.cancel();

    assertThat(answer.accepted()).isFalse();
    assertThat(answer.text()).isEqualTo("'hdfs eafr gear cancel' refused: no shift is under way (gear 4, steady) and"
        + " no DataNode is being woken; nothing to cancel");
    assertThat(store.load()).isEmpty();
  }

  private void steps(int steps) {
    fixture.steps(shift, steps);
  }
}
