package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * While the host cannot persist the state (a NameNode in safe mode), a primary dead across a restart still has its
 * recovery group powered on ({@link GearShift#stepReadOnly}), so the other replicas of its blocks register and HDFS can
 * leave safe mode; nothing is written and nothing leaves maintenance until a step that persists takes over. Worked
 * example on the {@link ShiftFixture} cluster in gear 0 (s0..s3 on, s4..s11 asleep): s0 dies for good with the
 * NameNode down; active since 1,000 ms, dead interval 40,000 ms, the block map not settled (safe mode). At 40,999 ms
 * nothing is powered; at 41,000 ms s4, s6, s8, s10 get one power-on each, announced once for "s0 dead (not
 * registered)", the state still gear 0 steady with 8 asleep, none waking, nothing saved; five more read-only steps
 * send nothing more and announce nothing. Once settled, the first step wakes the same four without announcing them
 * again (on, registered and reported already, they are woken and out of maintenance in that step, with no command
 * more); s5, s7, s9, s11 sleep on and every block is readable.
 */
class GearShiftReadOnlyWakeTest {
  private static final long ACTIVE_SINCE = 1_000;
  private static final long DEAD_INTERVAL = 40_000;

  private final ShiftFixture fixture = new ShiftFixture();
  private final SimulatedCluster cluster = fixture.cluster;
  private final List<String> announced = new ArrayList<>();

  @Test
  void aDeadPrimarysGroupIsPoweredOnOnceWithNothingPersisted_andTheFirstStepWakesItWithoutAnnouncingItAgain() {
    GearShift shift = restartedInSafeModeWithS0DeadForGood();
    ShiftState before = shift.state();
    int commandsBefore = cluster.powerCommands();
    cluster.tick();
    cluster.tick();

    shift.stepReadOnly(ACTIVE_SINCE + DEAD_INTERVAL - 1);

    assertThat(cluster.powerCommands()).isEqualTo(commandsBefore);
    assertThat(announced).isEmpty();
    assertThat(shift.poweredReadOnly()).isEmpty();
    assertThat(FailedDataNodes.of(cluster, fixture.layout.chain(), before.sleeping(), ACTIVE_SINCE + DEAD_INTERVAL - 1)
        .ids()).isEmpty();
    assertThat(FailedDataNodes.of(cluster, fixture.layout.chain(), before.sleeping(), ACTIVE_SINCE + DEAD_INTERVAL)
        .ids()).containsExactly("s0");

    shift.stepReadOnly(ACTIVE_SINCE + DEAD_INTERVAL);

    assertThat(cluster.powerCommands() - commandsBefore).isEqualTo(4);
    assertThat(announced).containsExactly("read-only [s10, s4, s6, s8] for {s0=dead (not registered)}");
    for (int s = 1; s <= 5; s++) {
      cluster.tick();
      shift.stepReadOnly(ACTIVE_SINCE + DEAD_INTERVAL + s);
    }
    assertThat(cluster.powerCommands() - commandsBefore).isEqualTo(4);
    assertThat(announced).hasSize(1);
    assertThat(shift.state()).isEqualTo(before);
    assertThat(fixture.store.load()).contains(before);
    assertThat(shift.state().sleeping()).hasSize(8);
    assertThat(shift.poweredReadOnly()).isEqualTo(Map.of("s0", Set.of("s4", "s6", "s8", "s10")));
    assertThat(List.of("s4", "s6", "s8", "s10")).allSatisfy(id -> {
      assertThat(cluster.poweredOn(id)).as("%s on", id).isTrue();
      assertThat(cluster.dataNode(id).admin().maintenance()).as("%s in maintenance", id).isTrue();
    });

    cluster.settled = true;
    shift.step(ACTIVE_SINCE + DEAD_INTERVAL + 6);

    assertThat(shift.state().waking()).isEmpty(); // on, registered and reported already: woken in the same step
    assertThat(shift.poweredReadOnly()).as("taken over by the wake").isEmpty();
    assertThat(shift.state().sleeping()).containsExactlyInAnyOrder("s5", "s7", "s9", "s11");
    assertThat(fixture.store.load().orElseThrow().sleeping()).containsExactlyInAnyOrder("s5", "s7", "s9", "s11");
    assertThat(announced).containsExactly("read-only [s10, s4, s6, s8] for {s0=dead (not registered)}",
        "woken [s10, s4, s6, s8]");
    assertThat(cluster.dataNode("s4").admin()).isEqualTo(AdminState.NORMAL);
    fixture.steps(shift, 5);
    assertThat(cluster.powerCommands() - commandsBefore).isEqualTo(4);
    assertThat(announced).hasSize(2);
    assertThat(cluster.unavailable()).isEmpty();
    assertThat(cluster.violations()).isEmpty();
  }

  /**
   * Safe mode outlasting the recovery group (blocks offloaded outside it keep HDFS below its threshold): s4, s6, s8,
   * s10, powered on at 41,000, are first seen registered and reported by a read-only step at 41,001 after the ticks
   * that start them; at 81,000 nothing more is powered, at 81,001 s5, s7, s9, s11 are (4 commands, announced once
   * with the 40,000 ms waited), and more read-only steps send nothing. The first step that persists wakes all eight,
   * announcing no wake again; every DataNode is then on and out of maintenance.
   */
  @Test
  void safeModeOutlastingTheRecoveryGroupByADeadInterval_powersOnEverySleeperOnce() {
    GearShift shift = restartedInSafeModeWithS0DeadForGood();
    int commandsBefore = cluster.powerCommands();
    shift.stepReadOnly(ACTIVE_SINCE + DEAD_INTERVAL);
    List<String> group = List.of("s4", "s6", "s8", "s10");
    for (int t = 0; !group.stream().allMatch(id -> cluster.dataNode(id).alive() && cluster.dataNode(id).reported());
        t++) {
      assertThat(t).as("ticks until the group has reported").isLessThan(20);
      cluster.tick();
    }
    long seenReported = ACTIVE_SINCE + DEAD_INTERVAL + 1;
    shift.stepReadOnly(seenReported);
    shift.stepReadOnly(seenReported + DEAD_INTERVAL - 1);

    assertThat(cluster.powerCommands() - commandsBefore).isEqualTo(4);
    assertThat(shift.poweredForSafeMode()).isEmpty();

    shift.stepReadOnly(seenReported + DEAD_INTERVAL);
    cluster.tick();
    shift.stepReadOnly(seenReported + DEAD_INTERVAL + 1);

    assertThat(cluster.powerCommands() - commandsBefore).isEqualTo(8);
    assertThat(announced).containsExactly("read-only [s10, s4, s6, s8] for {s0=dead (not registered)}",
        "all read-only [s11, s5, s7, s9] after 40000 ms");
    assertThat(shift.poweredForSafeMode()).containsExactlyInAnyOrder("s5", "s7", "s9", "s11");
    assertThat(shift.state().sleeping()).hasSize(8);

    cluster.settled = true;
    for (int s = 2; s < 12; s++) {
      cluster.tick();
      shift.step(seenReported + DEAD_INTERVAL + s);
    }

    assertThat(shift.state().sleeping()).isEmpty();
    assertThat(shift.state().waking()).isEmpty();
    assertThat(shift.poweredForSafeMode()).isEmpty();
    assertThat(announced).hasSize(3).last().asString().startsWith("woken ");
    assertThat(cluster.powerCommands() - commandsBefore).isEqualTo(8);
    assertThat(cluster.dataNode("s5").admin()).isEqualTo(AdminState.NORMAL);
    assertThat(cluster.unavailable()).isEmpty();
    assertThat(cluster.violations()).isEmpty();
  }

  /** Before the dead interval has passed since the NameNode became active, a read-only step powers nothing. */
  @Test
  void aReadOnlyStepBeforeTheDeadIntervalPowersNothing() {
    GearShift shift = restartedInSafeModeWithS0DeadForGood();
    int commandsBefore = cluster.powerCommands();
    for (int s = 0; s < 10; s++) {
      cluster.tick();
      shift.stepReadOnly(ACTIVE_SINCE + s);
    }

    assertThat(cluster.powerCommands()).isEqualTo(commandsBefore);
    assertThat(announced).isEmpty();
    assertThat(shift.state().sleeping()).hasSize(8);
  }

  /** Gear 0, s0 dead for good across a NameNode restart, the block map not settled (safe mode). */
  private GearShift restartedInSafeModeWithS0DeadForGood() {
    fixture.inGearZero();
    cluster.dieForGood("s0");
    cluster.nameNodeRestarted(0);
    cluster.activeSince = ACTIVE_SINCE;
    cluster.deadInterval = DEAD_INTERVAL;
    cluster.settled = false;
    return restarted();
  }

  private GearShift restarted() {
    return GearShift.resume(fixture.layout, new ShiftPorts(cluster, cluster, cluster, cluster, fixture.store,
        new ShiftEvents() {
          @Override
          public void wakeStarted(Set<String> ids, Map<String, String> failed) {
            announced.add(ids + " for " + failed);
          }

          @Override
          public void wakeStartedReadOnly(Set<String> ids, Map<String, String> failed) {
            announced.add("read-only " + ids + " for " + failed);
          }

          @Override
          public void wakeAllReadOnly(Set<String> ids, long waitedMillis) {
            announced.add("all read-only " + ids + " after " + waitedMillis + " ms");
          }

          @Override
          public void woken(Set<String> ids) {
            announced.add("woken " + ids);
          }
        }), new ShiftSettings(1, 3, 4));
  }
}
