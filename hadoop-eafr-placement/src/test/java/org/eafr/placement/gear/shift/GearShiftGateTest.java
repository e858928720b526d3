package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.eafr.placement.gear.BlockPlacement;
import org.junit.jupiter.api.Test;

/**
 * The worked example of a {@link ReflectionGate} on the {@link ShiftFixture} cluster: a block written in gear 0 onto
 * s0, s1, s2 with homes s0, s5, s9; the gear-up to 4 powers on and registers, then holds in REFLECTING while the gate
 * is shut, moving nothing and forgetting nothing; once open, s2 -> s5 and s1 -> s9 as without a gate.
 */
class GearShiftGateTest {
  private final ShiftFixture fixture = new ShiftFixture();
  private final SimulatedCluster cluster = fixture.cluster;
  private boolean open;

  @Test
  void reflection_waitsForItsGateAndThenMovesWhatIsOwed() {
    GearShift shift = GearShift.resume(fixture.layout, new ShiftPorts(cluster, cluster, cluster, cluster,
        fixture.store), new ShiftSettings(1, 3, 4), owed -> open);
    shift.request(0);
    fixture.steps(shift, 3);
    cluster.addBlock("blk_w", List.of("s0", "s1", "s2"));
    shift.written("blk_w", new BlockPlacement(fixture.chain, new int[] {0, 1, 2}, new int[] {0, 5, 9}));
    shift.request(4);

    List<ShiftPhase> shut = phasesOver(shift, 5);
    String news = shift.lastNews();
    open = true;
    List<ShiftPhase> opened = phasesOver(shift, 3);

    assertThat(shut).containsExactly(ShiftPhase.POWERING_ON, ShiftPhase.REGISTERING, ShiftPhase.REFLECTING,
        ShiftPhase.REFLECTING, ShiftPhase.REFLECTING);
    assertThat(news).isEqualTo("gear 4: reflection held by its gate; 1 blocks owed");
    assertThat(opened).containsExactly(ShiftPhase.REFLECTING, ShiftPhase.REFLECTING, ShiftPhase.STEADY);
    assertThat(cluster.moved()).containsExactly("tick 10: blk_w s2 -> s5", "tick 11: blk_w s1 -> s9");
    assertThat(fixture.store.owes("blk_w")).isFalse();
    assertThat(cluster.violations()).isEmpty();
  }

  @Test
  void aGearDownAskedWhileReflectionIsHeld_releasesTheGate_andIsRefusedSayingSo() {
    boolean[] released = {false};
    ReflectionGate gate = new ReflectionGate() {
      @Override
      public boolean mayReflect(long owed) {
        return released[0];
      }

      @Override
      public boolean releaseForGearDown() {
        released[0] = true;
        return true;
      }
    };
    GearShift shift = GearShift.resume(fixture.layout, new ShiftPorts(cluster, cluster, cluster, cluster,
        fixture.store), new ShiftSettings(1, 3, 4), gate);
    shift.request(0);
    fixture.steps(shift, 3);
    cluster.addBlock("blk_w", List.of("s0", "s1", "s2"));
    shift.written("blk_w", new BlockPlacement(fixture.chain, new int[] {0, 1, 2}, new int[] {0, 5, 9}));
    shift.request(4);
    fixture.steps(shift, 4);

    ShiftAnswer down = shift.request(2);
    fixture.steps(shift, 3);

    assertThat(down.accepted()).isFalse();
    assertThat(down.text()).isEqualTo("gear 2 refused: a shift to gear 4 is under way (REFLECTING, reflection held"
        + " for the grid released now); ask again once it has finished");
    assertThat(shift.state()).isEqualTo(ShiftState.steady(4));
    assertThat(fixture.store.owes("blk_w")).isFalse();
  }

  private List<ShiftPhase> phasesOver(GearShift shift, int steps) {
    List<ShiftPhase> phases = new ArrayList<>();
    for (int s = 0; s < steps; s++) {
      fixture.steps(shift, 1);
      phases.add(shift.state().phase());
    }
    return phases;
  }
}
