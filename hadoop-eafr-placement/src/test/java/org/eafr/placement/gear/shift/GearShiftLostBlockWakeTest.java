package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A block with no live replica wakes by one rule whether a read named it or the file system listed it
 * ({@link WakeSteps}): the smallest group among its sleeping holders (an awake holder holds a dead or corrupt replica),
 * none while one of them is being woken; a DataNode HDFS decommissions is not woken. On the {@link ShiftFixture} cluster in gear 0 (s4..s11 asleep; recovery group
 * 0 is s4, s6, s8, s10 and group 1 is s5, s7, s9, s11).
 */
class GearShiftLostBlockWakeTest {
  private final ShiftFixture fixture = new ShiftFixture();
  private final SimulatedCluster cluster = fixture.cluster;
  private final GearShift shift = fixture.inGearZero();

  @Test
  void aReadOfABlockWhoseAwakeHolderServesNothingWakesTheGroupOfItsSleepingHolder() {
    cluster.addBlock("blk_x", List.of("s1", "s6"));

    shift.readFoundNoReplica("blk_x");
    fixture.steps(shift, 1);

    assertThat(shift.state().waking()).containsExactly("s10", "s4", "s6", "s8");
  }

  @Test
  void aReadOfABlockWithAHolderBeingWokenWakesNothingMore() {
    cluster.addBlock("blk_x", List.of("s1", "s6"));
    cluster.addBlock("blk_y", List.of("s6", "s5"));
    shift.readFoundNoReplica("blk_x");
    fixture.steps(shift, 1);

    shift.readFoundNoReplica("blk_y");
    fixture.steps(shift, 1);

    assertThat(shift.state().waking()).containsExactly("s10", "s4", "s6", "s8");
  }

  @Test
  void aDecommissionedSleeperOfTheGroupIsNeitherPoweredOnNorWaitedFor() {
    cluster.decommission("s6");
    cluster.crash("s0", 100);

    fixture.steps(shift, 8);

    assertThat(shift.state().waking()).isEmpty();
    assertThat(shift.state().sleeping()).doesNotContain("s4", "s6", "s8", "s10");
    assertThat(cluster.poweredOn("s6")).isFalse();
    assertThat(cluster.poweredOn("s8")).isTrue();
  }
}
