package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.eafr.placement.gear.GearedLayout;
import org.junit.jupiter.api.Test;

/** The worked example of {@link ShiftSets} on the {@link ShiftFixture} layout (gear 0 keeps s0..s3, gear 1 s0..s5). */
class ShiftSetsTest {
  private final GearedLayout layout = new ShiftFixture().layout;

  @Test
  void aGearDownLeavesTheSleepersItsTargetKeepsOff_butNotThoseBeingWokenOrDecommissioned() {
    ShiftState down = new ShiftState(4, 1, ShiftPhase.ENTERING_MAINTENANCE,
        Set.of("s6", "s7", "s8", "s9", "s10", "s11"), Set.of("s11"));

    assertThat(ShiftSets.leaving(layout, down, id -> false)).containsExactly("s10", "s6", "s7", "s8", "s9");
    assertThat(ShiftSets.leaving(layout, down, "s10"::equals)).containsExactly("s6", "s7", "s8", "s9");
    assertThat(ShiftSets.wakingForGear(layout, down, id -> false)).isEmpty();
  }

  @Test
  void aGearUpWakesTheSleepersItsTargetKeepsOn() {
    ShiftState up = new ShiftState(0, 1, ShiftPhase.POWERING_ON,
        Set.of("s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11"), Set.of());

    assertThat(ShiftSets.wakingForGear(layout, up, id -> false)).containsExactly("s4", "s5");
    assertThat(ShiftSets.wakingForGear(layout, up, "s5"::equals)).containsExactly("s4");
  }

  @Test
  void maintenanceWaitsForRegisteredDataNodesOnly_andRegistrationForTheirBlockReports() {
    DataNodeView entering = new DataNodeView(true, true, true, AdminState.ENTERING_MAINTENANCE, false);
    DataNodeView in = new DataNodeView(true, true, true, AdminState.IN_MAINTENANCE, false);
    DataNodeView unreported = new DataNodeView(true, true, false, AdminState.IN_MAINTENANCE, false);
    Function<String, DataNodeView> views = Map.of("a", in, "b", entering, "c", unreported)::get;
    Function<String, DataNodeView> orUnregistered = id -> id.equals("d") ? DataNodeView.UNREGISTERED
        : views.apply(id);

    assertThat(ShiftSets.allInMaintenance(List.of("a", "c", "d"), orUnregistered)).isTrue();
    assertThat(ShiftSets.allInMaintenance(List.of("a", "b"), views)).isFalse();
    assertThat(ShiftSets.allRegistered(List.of("a", "b"), views)).isTrue();
    assertThat(ShiftSets.allRegistered(List.of("a", "c"), views)).isFalse();
    assertThat(ShiftSets.allRegistered(List.of("d"), orUnregistered)).isFalse();
  }
}
