package org.eafr.placement.gear;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.junit.jupiter.api.Test;

/** The target utilization moved between decisions (the grid's steering) and its checks. */
class GearControllerTargetTest {
  // Gears of 5, 10, 15 and 20 servers (N = 20, p = 5, groups of 5), one read per second per server.
  private final ExpansionChain chain = GearServers.chain(20, 1);
  private final EqualWorkLayout layout = new EqualWorkLayout(chain, 5, 5, 2);
  private final GearFloor floor = new ReplicaMapFloor(new ArrayList<>(), new OffloadLedger());
  private final GearController controller = new GearController(layout, new LoadSample(1, 0, 0, 0), 0.8, 0.1,
      0, 0, 1, new MutableClock());

  /** 8.5 servers of load: gear 1 carries 8 at u = 0.8, so gear 2; at u = 0.9 gear 1 carries 9, so it holds. */
  @Test
  void aHigherTargetCarriesTheSameLoadInALowerGear() {
    controller.targetUtilization(0.9);
    GearDecision decision = controller.decide(new LoadSample(8.5, 0, 0, 0), layout.serversOn(1),
        ActiveSet.none(chain), floor);

    assertThat(decision.targetGear()).isEqualTo(1);
    assertThat(controller.targetUtilization()).isEqualTo(0.9);
  }

  @Test
  void aTargetAtOrBelowTheDownMarginIsRefusedAndChangesNothing() {
    assertThatThrownBy(() -> controller.targetUtilization(0.1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("target utilization 0.1 is not allowed");
    assertThatThrownBy(() -> controller.targetUtilization(1.2)).isInstanceOf(IllegalArgumentException.class);
    assertThat(controller.targetUtilization()).isEqualTo(0.8);
    assertThat(controller.decide(new LoadSample(8.5, 0, 0, 0), layout.serversOn(1), ActiveSet.none(chain), floor)
        .targetGear()).isEqualTo(2);
  }
}
