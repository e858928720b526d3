package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.eafr.placement.gear.GearReason;
import org.junit.jupiter.api.Test;

/**
 * The worked examples of a standby's machine ({@link GearShift#follow}) and of a request by the gear controller, on the
 * {@link ShiftFixture} cluster (gear 2 keeps s0..s7 on).
 */
class GearShiftFollowTest {
  private final ShiftFixture fixture = new ShiftFixture();
  private final SimulatedCluster cluster = fixture.cluster;
  private final List<String> standbyMaintenance = new ArrayList<>();

  @Test
  void follow_takesThePersistedStateAndPutsItsSleepersInMaintenanceWithNoPowerCommand() {
    GearShift active = fixture.resume();
    GearShift standby = GearShift.resume(fixture.layout, new ShiftPorts(cluster, cluster, recording(), cluster,
        fixture.store), new ShiftSettings(1, 3, 4));
    standbyMaintenance.clear();
    active.request(2);
    fixture.steps(active, 3);
    int commands = cluster.powerCommands();

    standby.follow();
    standby.follow();

    assertThat(standby.state()).isEqualTo(active.state());
    assertThat(standby.state().sleeping()).containsExactly("s10", "s11", "s8", "s9");
    assertThat(standbyMaintenance).containsExactly("enter [s10, s11, s8, s9]");
    assertThat(cluster.powerCommands()).isEqualTo(commands);
  }

  @Test
  void request_byTheControllerNamesItsReason() {
    GearShift shift = fixture.resume();

    ShiftAnswer answer = shift.request(2, GearReason.DOWN_FOR_LOAD);

    assertThat(answer.accepted()).isTrue();
    assertThat(answer.text()).startsWith("gear 4 -> 2 (AUTO, DOWN_FOR_LOAD)");
    assertThat(GearShift.origin(GearReason.MANUAL)).isEqualTo("MANUAL");
  }

  /** The standby's maintenance port: records each call, then applies it to the shared cluster. */
  private MaintenancePort recording() {
    return new MaintenancePort() {
      @Override
      public void enter(Set<String> ids) {
        standbyMaintenance.add("enter " + ids);
        cluster.enter(ids);
      }

      @Override
      public void leave(Set<String> ids) {
        if (!ids.isEmpty()) {
          standbyMaintenance.add("leave " + ids);
        }
        cluster.leave(ids);
      }
    };
  }
}
