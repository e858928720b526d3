package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A DataNode that should be on and died while no NameNode watched never registers with the restarted one: it counts
 * as dead once HDFS's dead interval has passed since the NameNode became active ({@link WakeSteps#failed}), and its
 * recovery group wakes, so the blocks whose other replicas sleep there are readable again. Worked example on the
 * {@link ShiftFixture} cluster in gear 0 (s0..s3 on, s4..s11 asleep): primary s0 dies with the NameNode down; the
 * NameNode is active since 1,000 ms with a dead interval of 40,000 ms. At 40,999 ms nothing wakes; at 41,000 ms s0's
 * recovery group {s4, s6, s8, s10} wakes, named "dead (not registered)": it holds the other two replicas of each of
 * s0's blocks, which are all readable again once it has registered.
 */
class GearShiftUnregisteredWakeTest {
  private static final long ACTIVE_SINCE = 1_000;
  private static final long DEAD_INTERVAL = 40_000;

  private final ShiftFixture fixture = new ShiftFixture();
  private final SimulatedCluster cluster = fixture.cluster;
  private final List<Map<String, String>> failures = new ArrayList<>();

  @Test
  void aPrimaryThatNeverRegisters_isDeadAtActiveSincePlusTheDeadInterval_andItsGroupWakes() {
    fixture.inGearZero();
    cluster.dieForGood("s0");
    cluster.nameNodeRestarted(0);
    cluster.activeSince = ACTIVE_SINCE;
    cluster.deadInterval = DEAD_INTERVAL;
    GearShift shift = restarted();
    cluster.tick();
    cluster.tick(); // the running primaries s1..s3 have registered and reported

    shift.step(ACTIVE_SINCE + DEAD_INTERVAL - 1);

    assertThat(cluster.dataNode("s0").registered()).isFalse();
    assertThat(shift.state().waking()).isEmpty();
    assertThat(failures).isEmpty();
    assertThat(cluster.unavailable()).isNotEmpty();

    shift.step(ACTIVE_SINCE + DEAD_INTERVAL);

    assertThat(shift.state().waking()).containsExactly("s10", "s4", "s6", "s8");
    assertThat(failures).containsExactly(Map.of("s0", "dead (not registered)"));
    for (String block : cluster.blockIds()) {
      if (cluster.holders(block).contains("s0")) {
        assertThat(shift.state().waking()).as("holders of %s", block).containsAll(otherThan("s0", block));
      }
    }
    for (int s = 0; s < 6; s++) {
      cluster.tick();
      shift.step(ACTIVE_SINCE + DEAD_INTERVAL + 1 + s);
    }
    assertThat(shift.state().waking()).isEmpty();
    assertThat(shift.state().sleeping()).containsExactlyInAnyOrder("s5", "s7", "s9", "s11");
    assertThat(cluster.unavailable()).isEmpty();
    assertThat(cluster.violations()).isEmpty();
  }

  /** A host that supplies no dead interval (the default: never) keeps today's rule: an unregistered one is no failure. */
  @Test
  void withNoDeadInterval_anUnregisteredPrimaryIsNeverAFailure() {
    fixture.inGearZero();
    cluster.dieForGood("s0");
    cluster.nameNodeRestarted(0);
    cluster.deadInterval = Long.MAX_VALUE; // ShiftCluster's default
    GearShift shift = restarted();

    fixture.steps(shift, 20);

    assertThat(shift.state().waking()).isEmpty();
    assertThat(failures).isEmpty();
  }

  private List<String> otherThan(String id, String block) {
    List<String> others = new ArrayList<>(cluster.holders(block));
    others.remove(id);
    return others;
  }

  private GearShift restarted() {
    return GearShift.resume(fixture.layout, new ShiftPorts(cluster, cluster, cluster, cluster, fixture.store,
        new ShiftEvents() {
          @Override
          public void wakeStarted(Set<String> ids, Map<String, String> failed) {
            if (!failed.isEmpty()) {
              failures.add(failed);
            }
          }
        }), new ShiftSettings(1, 3, 4));
  }
}
