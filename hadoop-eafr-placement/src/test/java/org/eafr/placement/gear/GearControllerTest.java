package org.eafr.placement.gear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.cluster.ReplicatedFile;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.junit.jupiter.api.Test;

class GearControllerTest {
  private static final long MINUTE = 60_000L;
  private static final LoadSample ONE_READ_PER_SECOND = new LoadSample(1, 0, 0, 0);

  // N = 20, p = 5, gear groups of 5, r = 2: three gear groups, gears of 5, 10, 15 and 20 servers.
  private final ExpansionChain chain = GearServers.chain(20, 1);
  private final EqualWorkLayout layout = new EqualWorkLayout(chain, 5, 5, 2);
  private final MutableClock clock = new MutableClock();
  private final List<ReplicatedFile> blocks = new ArrayList<>();
  private final GearFloor floor = new ReplicaMapFloor(blocks, new OffloadLedger());
  private final ActiveSet none = ActiveSet.none(chain);

  private GearController controller(int initialGear, int forecastDays) {
    return new GearController(layout, ONE_READ_PER_SECOND, 0.8, 0.1, 10 * MINUTE, forecastDays, initialGear, clock);
  }

  private static LoadSample reads(double perSecond) {
    return new LoadSample(perSecond, 0, 0, 0);
  }

  @Test
  void layout_hasGearsOf5_10_15_20() {
    assertThat(layout.maximumGear()).isEqualTo(3);
    for (int gear = 0; gear <= 3; gear++) {
      assertThat(layout.serversOn(gear).size()).isEqualTo(5 * (gear + 1));
    }
  }

  @Test
  void workedExample_upAtOnceFor9point5_downAfterTheDwellFor6() {
    GearController controller = controller(1, 0);

    GearDecision up = controller.decide(reads(9.5), layout.serversOn(1), none, floor);
    assertThat(up.targetGear()).isEqualTo(2);
    assertThat(up.reason()).isEqualTo(GearReason.UP_FOR_LOAD);
    assertThat(up.wake()).isEqualTo(ActiveSet.of(chain, 10, 11, 12, 13, 14));
    assertThat(up.maySleep().isEmpty()).isTrue();

    clock.advanceMillis(5 * MINUTE);
    GearDecision held = controller.decide(reads(6), layout.serversOn(2), none, floor);
    assertThat(held.targetGear()).isEqualTo(2);
    assertThat(held.reason()).isEqualTo(GearReason.HELD_BY_DWELL);

    clock.advanceMillis(5 * MINUTE);
    GearDecision down = controller.decide(reads(6), layout.serversOn(2), none, floor);
    assertThat(down.targetGear()).isEqualTo(1);
    assertThat(down.reason()).isEqualTo(GearReason.DOWN_FOR_LOAD);
    assertThat(down.maySleep()).isEqualTo(ActiveSet.of(chain, 10, 11, 12, 13, 14));
    assertThat(down.wake().isEmpty()).isTrue();
    assertThat(down.describe()).isEqualTo("gear 2 -> 1 (DOWN_FOR_LOAD): 6.00 servers needed, 10 stay on, wake 0, may"
        + " sleep 5 after 0 block moves");
  }

  @Test
  void lowestGear_noLoadTakesTheControllerBelowIt() {
    GearController controller = new GearController(layout, ONE_READ_PER_SECOND, 0.8, 0.1, 10 * MINUTE, 0, 1, 1,
        clock);
    clock.advanceMillis(60 * MINUTE);

    GearDecision idle = controller.decide(reads(0), layout.serversOn(1), none, floor);
    assertThat(idle.targetGear()).isEqualTo(1);
    assertThat(idle.reason()).isEqualTo(GearReason.HOLD);

    GearDecision up = controller.decide(reads(9.5), layout.serversOn(1), none, floor);
    assertThat(up.targetGear()).isEqualTo(2);
    clock.advanceMillis(60 * MINUTE);
    GearDecision down = controller.decide(reads(0), layout.serversOn(2), none, floor);
    assertThat(down.targetGear()).isEqualTo(1);
    assertThat(down.reason()).isEqualTo(GearReason.DOWN_FOR_LOAD);
    assertThatThrownBy(() -> new GearController(layout, ONE_READ_PER_SECOND, 0.8, 0.1, MINUTE, 0, 0, 1, clock))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void workedExample_7point5InGear2Holds_becauseGear1CarriesOnly7AtUMinusH() {
    GearController controller = controller(2, 0);
    clock.advanceMillis(60 * MINUTE);

    GearDecision decision = controller.decide(reads(7.5), layout.serversOn(2), none, floor);

    assertThat(decision.targetGear()).isEqualTo(2);
    assertThat(decision.reason()).isEqualTo(GearReason.HOLD);
  }

  @Test
  void floor_aReplicationOneBlockOnServer17_keepsGear3On_andNamesIt() {
    blocks.add(ReplicatedFile.of("blk_17", 1, "s17"));
    GearController controller = controller(3, 0);
    clock.advanceMillis(60 * MINUTE);

    GearDecision decision = controller.decide(LoadSample.idle(), ActiveSet.all(chain), none, floor);

    assertThat(decision.targetGear()).isEqualTo(3);
    assertThat(decision.reason()).isEqualTo(GearReason.RAISED_BY_AVAILABILITY);
    assertThat(decision.floorBlock().orElseThrow().blockId()).isEqualTo("blk_17");
  }

  /** Gear 1 -> 2 with blk_17 only on s17 (gear 3): no server sleeps, so the shift goes on (thrash round 34). */
  @Test
  void manualGearUp_isNotRefusedForABlockItCannotMakeLessAvailable() {
    blocks.add(ReplicatedFile.of("blk_17", 1, "s17"));
    GearController controller = controller(1, 0);

    GearDecision up = controller.manual(2, layout.serversOn(1), none, floor);

    assertThat(up.targetGear()).isEqualTo(2);
    assertThat(up.maySleep().isEmpty()).isTrue();
    assertThat(controller.gear()).isEqualTo(2);
  }

  @Test
  void manualGearThatWouldLoseABlock_isRefusedNamingIt_andChangesNothing() {
    blocks.add(ReplicatedFile.of("blk_17", 1, "s17"));
    GearController controller = controller(3, 0);

    assertThatThrownBy(() -> controller.manual(1, ActiveSet.all(chain), none, floor))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("gear 1 refused: block blk_17 would have no live replica on a server that stays on: its replicas"
            + " are on [s17], none of which stays on");
    assertThat(controller.gear()).isEqualTo(3);
    assertThatThrownBy(() -> controller.manual(7, ActiveSet.all(chain), none, floor))
        .hasMessage("gear 7 does not exist: layout equal-work has gears 0..3");
  }

  @Test
  void manualShift_hasNoLoadFigure_andSaysNotApplicable() {
    GearDecision manual = controller(3, 0).manual(1, ActiveSet.all(chain), none, floor);

    assertThat(manual.serversNeededText()).isEqualTo("n/a");
    assertThat(manual.describe()).startsWith("gear 3 -> 1 (MANUAL): n/a servers needed,")
        .doesNotContain("NaN").doesNotContain("Infinity");
    assertThat(manual.describe("AUTO, DOWN_FOR_LOAD")).startsWith("gear 3 -> 1 (AUTO, DOWN_FOR_LOAD): n/a servers"
        + " needed,").isEqualTo(manual.describe().replace("MANUAL", "AUTO, DOWN_FOR_LOAD"));
  }

  @Test
  void forecast_sameHourYesterdayKeepsTheGearUp_otherHoursDoNot() {
    GearController controller = controller(0, 1);
    clock.advanceMillis(8 * 60 * MINUTE); // day 0, 08:00
    assertThat(controller.decide(reads(12), layout.serversOn(0), none, floor).targetGear()).isEqualTo(2);

    clock.advanceMillis(24 * 60 * MINUTE); // day 1, 08:00: yesterday's 12 is the forecast
    GearDecision forecast = controller.decide(reads(2), layout.serversOn(2), none, floor);
    assertThat(forecast.targetGear()).isEqualTo(2);
    assertThat(forecast.serversNeeded()).isEqualTo(12.0);

    clock.advanceMillis(60 * MINUTE); // day 1, 09:00: nothing seen at 09:00 yesterday
    assertThat(controller.decide(reads(2), layout.serversOn(2), none, floor).targetGear()).isZero();
  }

  @Test
  void failedPrimary_staysOnSetAddsItsRecoveryGroup_andDropsTheFailedServer() {
    GearController controller = controller(0, 0);
    ActiveSet failed = ActiveSet.of(chain, 2);

    GearDecision decision = controller.decide(LoadSample.idle(), layout.serversOn(0), failed, floor);

    // Primary 2 maps to recovery group 2: servers 7, 12 and 17.
    assertThat(decision.staysOn()).isEqualTo(ActiveSet.of(chain, 0, 1, 3, 4, 7, 12, 17));
    assertThat(decision.wake()).isEqualTo(ActiveSet.of(chain, 7, 12, 17));
  }

  @Test
  void loadSample_workedExample_needsNineServers() {
    LoadSample load = new LoadSample(300, 60, 100e6, 30e6);
    LoadSample server = new LoadSample(50, 20, 40e6, 20e6);

    assertThat(load.serversNeeded(server)).isEqualTo(9.0);
  }

  @Test
  void loadSample_workedExample_transfersInProgressNeedTenServers() {
    LoadSample load = new LoadSample(300, 60, 100e6, 30e6, 640);
    LoadSample server = new LoadSample(50, 20, 40e6, 20e6, 64);

    assertThat(load.serversNeeded(server)).isEqualTo(10.0);
    assertThat(new LoadSample(300, 60, 100e6, 30e6, 640).serversNeeded(new LoadSample(50, 20, 40e6, 20e6)))
        .as("a capacity of 0 transfers does not limit").isEqualTo(9.0);
    assertThatThrownBy(() -> new LoadSample(0, 0, 0, 0, -1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("transfers = -1.0 is not allowed: expected a finite number >= 0");
  }

  @Test
  void badSettings_areRefusedNamingTheValue() {
    assertThatThrownBy(() -> new GearController(layout, ONE_READ_PER_SECOND, 0.8, 0.8, 0, 0, 0, clock))
        .hasMessage("down margin 0.8 is not allowed: expected a number in [0, 0.8)");
    assertThatThrownBy(() -> new GearController(layout, LoadSample.idle(), 0.8, 0.1, 0, 0, 0, clock))
        .hasMessageContaining("expected at least one capacity above 0");
  }
}
