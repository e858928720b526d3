package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.Set;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.GearServers;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The worked examples of {@link GearShift#grow}: 14 DataNodes s0..s13 of which the chain was fixed on s0..s11
 * (equal-work, p = 4, g = 2, r = 3: gears 0..4 keep 4..12 on); appending s12 and s13 gives gears 0..5.
 */
class GearShiftGrowthTest {
  private final GearedLayout twelve = new EqualWorkLayout(GearServers.chain(12, 3), 4, 2, 3);
  private final GearedLayout fourteen = new EqualWorkLayout(GearServers.chain(14, 3), 4, 2, 3);
  private final MemoryShiftStore store = new MemoryShiftStore();
  private final SimulatedCluster cluster = new SimulatedCluster(GearServers.chain(14, 3), new Random(1));
  private GearShift shift;

  @BeforeEach
  void chainOfTwelve() {
    cluster.replyDelay = 0;
    for (int b = 0; b < 24; b++) {
      String id = "blk_" + b;
      cluster.addBlock(id, twelve.place(BlockRequest.of(id, 3), ActiveSet.all(twelve.chain())).holderIds());
    }
    shift = GearShift.resume(twelve, new ShiftPorts(cluster, cluster, cluster, cluster, store),
        new ShiftSettings(1, 3, 4));
  }

  /**
   * A host that keeps the layout itself (the NameNode: relayout grow from p = 4 to p = 2 at the top gear) persists the
   * state of the new layout and has the machine follow it: gear 5 of p = 2 is the top (12 on); gear 1 keeps s0..s3.
   */
  @Test
  void aHostsLayout_changingP_isFollowedBetweenShifts_andGrowIsTheHosts() {
    GearedLayout[] inForce = {twelve};
    GearShift hosted = GearShift.resume(() -> inForce[0], new ShiftPorts(cluster, cluster, cluster, cluster,
        store), new ShiftSettings(1, 3, 4), ReflectionGate.OPEN);

    inForce[0] = new EqualWorkLayout(GearServers.chain(12, 3), 2, 2, 3);
    store.save(ShiftState.steady(5));
    hosted.follow();
    ShiftAnswer down = hosted.request(1);
    for (int s = 0; s < 3; s++) {
      cluster.tick();
      hosted.step(cluster.tick);
    }

    assertThat(down.accepted()).isTrue();
    assertThat(hosted.state()).isEqualTo(new ShiftState(1, 1, ShiftPhase.STEADY, Set.of("s4", "s5", "s6", "s7",
        "s8", "s9", "s10", "s11"), Set.of()));
    assertThat(hosted.grow(fourteen).text()).isEqualTo("the chain is the host's: it persists the grown state and"
        + " calls follow()");
  }

  @Test
  void grow_inTheHighestGearStaysInTheHighestGear() {
    ShiftAnswer answer = shift.grow(fourteen);

    assertThat(answer.text()).isEqualTo("expansion chain extended by 2 DataNodes to 14 (6 gears, gear 5 in force);"
        + " no block moves");
    assertThat(store.load()).contains(ShiftState.steady(5));
    assertThat(cluster.moved()).isEmpty();
  }

  @Test
  void grow_inALowerGearKeepsTheNewcomersOnUntilTheNextShiftDown() {
    shift.request(2);
    steps(3);

    shift.grow(fourteen);
    ShiftState grown = shift.state();
    shift.request(0);

    assertThat(grown).isEqualTo(new ShiftState(2, 2, ShiftPhase.STEADY, Set.of("s8", "s9", "s10", "s11"),
        Set.of()));
    assertThat(shift.state().sleeping()).containsExactlyInAnyOrder("s4", "s5", "s6", "s7", "s8", "s9", "s10",
        "s11", "s12", "s13");
    steps(3);
    assertThat(shift.state()).isEqualTo(new ShiftState(0, 0, ShiftPhase.STEADY, shift.state().sleeping(),
        Set.of()));
    assertThat(cluster.violations()).isEmpty();
  }

  @Test
  void grow_isRefusedDuringAShiftOrOnAnotherChain() {
    GearedLayout reordered = new EqualWorkLayout(GearServers.chain(12, 4), 4, 2, 3);
    assertThat(shift.grow(reordered).accepted()).isFalse();
    shift.request(2);

    ShiftAnswer during = shift.grow(fourteen);

    assertThat(during.accepted()).isFalse();
    assertThat(during.text()).startsWith("the chain grows between shifts: gear 4 -> 2 ENTERING_MAINTENANCE");
    assertThat(shift.state().target()).isEqualTo(2);
  }

  private void steps(int steps) {
    for (int s = 0; s < steps; s++) {
      cluster.tick();
      shift.step(cluster.tick);
    }
  }
}
