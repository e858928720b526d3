package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.WakePlanner;
import org.junit.jupiter.api.Test;

/**
 * Waking for a stale DataNode and for a block listed with no live replica ({@link WakeSteps}) and the hosts no power controller switches ({@link PowerSteps}) on
 * the {@link ShiftFixture} cluster (gear 2 keeps s0..s7 on).
 */
class GearShiftStaleWakeTest {
  private final ShiftFixture fixture = new ShiftFixture();
  private final SimulatedCluster cluster = fixture.cluster;

  @Test
  void aStalePrimary_wakesItsRecoveryGroupBeforeHdfsDeclaresItDead() {
    GearShift shift = fixture.resume();
    shift.request(2);
    fixture.steps(shift, 3);
    ActiveSet expected = new WakePlanner(fixture.layout).forFailure(0, ActiveSet.firstN(fixture.chain, 8),
        ActiveSet.of(fixture.chain, 0));
    cluster.stale("s0", 20);

    fixture.steps(shift, 1);

    assertThat(expected.ids()).isNotEmpty().allMatch(shift.state().sleeping()::contains);
    assertThat(shift.state().waking()).containsExactlyInAnyOrderElementsOf(expected.ids());
    assertThat(shift.lastNews()).startsWith("waking " + expected.size() + " DataNodes out of turn");
  }

  /**
   * A NameNode restarted (or a standby started and made active) in gear 0 steps before the 4 running primaries have
   * registered with it, its block map trivially settled (no live storage to wait for): a DataNode that has not
   * registered yet is not a failure, so nothing wakes (the 8 sleepers woken would be a copy storm).
   */
  @Test
  void aNameNodeStepping_beforeTheRunningDataNodesRegistered_wakesNothing() {
    GearShift before = fixture.inGearZero();
    assertThat(before.state().sleeping()).hasSize(8);
    cluster.nameNodeRestarted(3);
    GearShift shift = fixture.resume();

    fixture.steps(shift, 6);

    assertThat(shift.state().waking()).isEmpty();
    assertThat(shift.state().gear()).isZero();
    assertThat(shift.state().sleeping()).containsExactlyInAnyOrderElementsOf(before.state().sleeping());
    assertThat(ActiveSet.firstN(fixture.chain, 4).ids()).allMatch(id -> cluster.dataNode(id).liveInService());
    assertThat(cluster.violations()).isEmpty();
  }

  @Test
  void aPrimaryInAnOperatorsMaintenance_thatStops_isNoFailure_andWakesNothing() {
    GearShift shift = fixture.resume();
    shift.request(2);
    fixture.steps(shift, 3);
    cluster.operatorMaintenance("s0");
    cluster.crash("s0", 20);

    fixture.steps(shift, 2);

    assertThat(shift.state().waking()).isEmpty();
    assertThat(shift.state().sleeping()).containsExactlyInAnyOrder("s8", "s9", "s10", "s11");
  }

  @Test
  void aBlockListedWithNoLiveReplica_wakesTheSmallestGroupHoldingIt_withNoRead() {
    GearShift shift = fixture.resume();
    shift.request(0);
    fixture.steps(shift, 3);
    cluster.addBlock("blk_lost", List.of("s8", "s9")); // both asleep: no live replica
    ActiveSet expected = new WakePlanner(fixture.layout).forBlock(new int[] {8, 9}, ActiveSet.firstN(fixture.chain,
        4), ActiveSet.none(fixture.chain));

    fixture.steps(shift, 1);

    assertThat(expected.ids()).isNotEmpty();
    assertThat(shift.state().waking()).containsExactlyInAnyOrderElementsOf(expected.ids());
  }

  @Test
  void manyStaleAtOnce_isTheNameNodesOwnPause_andWakesNothing() {
    GearShift shift = fixture.resume();
    shift.request(2);
    fixture.steps(shift, 3);
    for (String id : List.of("s0", "s1", "s2", "s3", "s4")) { // 5 of the 8 that should be on
      cluster.stale(id, 20);
    }

    fixture.steps(shift, 2);

    assertThat(shift.state().waking()).isEmpty();
    assertThat(shift.state().sleeping()).containsExactlyInAnyOrder("s8", "s9", "s10", "s11");
  }

  @Test
  void aHostInNoPowerInventory_staysOnInMaintenance_andAGearUpWaitsNamingItUntilItRuns() {
    cluster.uncontrolled("s11");
    GearShift shift = fixture.resume();
    shift.request(2);
    fixture.steps(shift, 3);

    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.STEADY);
    assertThat(shift.state().gear()).isEqualTo(2);
    assertThat(shift.state().sleeping()).contains("s11");
    assertThat(cluster.poweredOn("s11")).isTrue();
    assertThat(cluster.poweredOn("s10")).isFalse();
    cluster.crash("s11", 100); // its DataNode stops; nothing can switch its host
    shift.request(4);
    fixture.steps(shift, 4);

    assertThat(shift.state().phase()).isEqualTo(ShiftPhase.POWERING_ON);
    assertThat(shift.blockedBy()).isEqualTo(Optional.of("DataNode s11: in no power inventory and not running;"
        + " switch it on by hand or add it to the inventory"));
    assertThat(cluster.violations()).isEmpty();
  }
}
