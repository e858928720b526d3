package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eafr.placement.cluster.ReplicatedFile;
import org.junit.jupiter.api.Test;

/**
 * The gear shift's availability checks walk only the blocks on the running DataNodes that change state
 * ({@link ShiftCluster#blocksOn}), on {@link ShiftFixture}'s cluster (gear 4, all 12 on; gear 0 keeps the primaries
 * s0..s3 on).
 */
class GearShiftFloorTest {
  private final ShiftFixture fixture = new ShiftFixture();

  @Test
  void gearDownToZero_walksTheBlocksOfTheEightLeavingDataNodesOnly() {
    Recording recording = new Recording(fixture.cluster);
    GearShift shift = GearShift.resume(fixture.layout, new ShiftPorts(recording, fixture.cluster, fixture.cluster,
        fixture.cluster, fixture.store), new ShiftSettings(1, 3, 4));

    assertThat(shift.request(0).accepted()).isTrue();
    fixture.steps(shift, 3);

    assertThat(shift.state().gear()).isZero();
    assertThat(recording.asked).containsOnly("s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11")
        .contains("s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11");
  }

  @Test
  void aBlockOnALeavingDataNodeWithItsOtherReplicasDead_refusesTheGear() {
    fixture.cluster.addBlock("blk_x", List.of("s11", "s10"));
    fixture.cluster.crash("s10", 100);
    GearShift shift = fixture.resume();

    ShiftAnswer answer = shift.request(0);

    assertThat(answer.accepted()).isFalse();
    assertThat(answer.text()).contains("block blk_x would have no live replica on a server that stays on");
  }

  @Test
  void aBlockWhoseReplicasAreAllOnDeadDataNodes_isTheWakesWork_notAReasonToRefuse() {
    fixture.cluster.addBlock("blk_lost", List.of("s11", "s10"));
    fixture.cluster.crash("s10", 100);
    fixture.cluster.crash("s11", 100);
    GearShift shift = fixture.resume();

    assertThat(shift.request(0).accepted()).isTrue();
  }

  /** The fixture's cluster, recording which DataNodes' block lists are asked for. */
  private static final class Recording implements ShiftCluster {
    private final ShiftCluster cluster;
    final List<String> asked = new ArrayList<>();

    Recording(ShiftCluster cluster) {
      this.cluster = cluster;
    }

    @Override
    public DataNodeView dataNode(String id) {
      return cluster.dataNode(id);
    }

    @Override
    public Iterable<ReplicatedFile> blocksOn(String id) {
      asked.add(id);
      return cluster.blocksOn(id);
    }

    @Override
    public Iterable<ReplicatedFile> pipelines() {
      return cluster.pipelines();
    }

    @Override
    public Optional<ReplicatedFile> block(String blockId) {
      return cluster.block(blockId);
    }

    @Override
    public boolean settled() {
      return cluster.settled();
    }
  }
}
