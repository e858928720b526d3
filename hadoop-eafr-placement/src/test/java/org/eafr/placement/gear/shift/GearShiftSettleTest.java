package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.eafr.placement.gear.BlockPlacement;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * After a restart or failover the block map fills as DataNodes report ({@link ShiftCluster#settled}): until then a
 * shift wakes nothing out of turn and reflects nothing, so no copy storm starts; on the {@link ShiftFixture} cluster in
 * gear 0 (s4..s11 asleep).
 */
class GearShiftSettleTest {
  private final ShiftFixture fixture = new ShiftFixture();
  private final SimulatedCluster cluster = fixture.cluster;
  private GearShift shift;

  @BeforeEach
  void inGearZero() {
    shift = fixture.inGearZero();
  }

  /** s0's recovery group is s4, s6, s8, s10. */
  @Test
  void aFailedPrimaryWakesItsRecoveryGroupOnlyOnceTheBlockMapHasSettled() {
    cluster.settled = false;
    cluster.crash("s0", 100);

    fixture.steps(shift, 2);
    List<String> unsettled = List.copyOf(shift.state().waking());
    cluster.settled = true;
    fixture.steps(shift, 1);

    assertThat(unsettled).isEmpty();
    assertThat(shift.state().waking()).containsExactly("s10", "s4", "s6", "s8");
  }

  @Test
  void reflectionWaitsForTheBlockMapThenMovesWhatIsOwed() {
    cluster.addBlock("blk_w", List.of("s0", "s1", "s2"));
    shift.written("blk_w", new BlockPlacement(fixture.chain, new int[] {0, 1, 2}, new int[] {0, 5, 9}));
    shift.request(4);
    fixture.steps(shift, 2);
    cluster.settled = false;

    fixture.steps(shift, 3);
    String news = shift.lastNews();
    List<String> movedUnsettled = List.copyOf(cluster.moved());
    cluster.settled = true;
    fixture.steps(shift, 3);

    assertThat(news).isEqualTo("gear 4: reflection waits until every DataNode has reported its blocks");
    assertThat(movedUnsettled).isEmpty();
    assertThat(cluster.moved()).hasSize(2);
    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.STEADY);
    assertThat(fixture.store.owes("blk_w")).isFalse();
  }
}
