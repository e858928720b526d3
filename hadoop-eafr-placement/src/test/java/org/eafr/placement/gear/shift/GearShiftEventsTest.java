package org.eafr.placement.gear.shift;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eafr.placement.gear.BlockPlacement;
import org.junit.jupiter.api.Test;

/**
 * What a shift tells its host's counters ({@link ShiftEvents}), on the {@link ShiftFixture} cluster: a shift started
 * and one refused while it is under way, a failed primary's recovery group woken (s0's is s4, s6, s8, s10), and an owed
 * block reflected home.
 */
class GearShiftEventsTest {
  private final ShiftFixture fixture = new ShiftFixture();
  private final SimulatedCluster cluster = fixture.cluster;
  private final List<String> events = new ArrayList<>();
  private final GearShift shift = GearShift.resume(fixture.layout, new ShiftPorts(cluster, cluster, cluster, cluster,
      fixture.store, new Recording()), new ShiftSettings(1, 3, 4));

  @Test
  void aShiftStartedAndOneRefusedWhileItIsUnderWay() {
    shift.request(0);
    shift.request(1);

    assertThat(events).hasSize(2);
    assertThat(events.get(0)).isEqualTo("started 0: gear 4 -> 0 (MANUAL): n/a servers needed, 4 stay on, wake 0,"
        + " may sleep 8 after 0 block moves");
    assertThat(events.get(1)).startsWith("refused: ").contains("under way");
  }

  @Test
  void aFailedPrimaryWakesItsRecoveryGroupAndTellsWhenItIsWoken() {
    fixture.inGearZero(shift);
    events.clear();
    cluster.crash("s0", 100);

    fixture.steps(shift, 8);

    assertThat(events).containsExactly("wake for a failure {s0=dead} [s10, s4, s6, s8]", "woken [s10, s4, s6, s8]");
  }

  @Test
  void aStalePrimaryIsNamedStale() {
    fixture.inGearZero(shift);
    events.clear();
    cluster.stale("s1", 100);

    fixture.steps(shift, 1);

    assertThat(events).containsExactly("wake for a failure {s1=stale} [s11, s5, s7, s9]");
  }

  @Test
  void anOwedBlockAtHomeIsReflected() {
    fixture.inGearZero(shift);
    cluster.addBlock("blk_w", List.of("s0", "s1", "s2"));
    shift.written("blk_w", new BlockPlacement(fixture.chain, new int[] {0, 1, 2}, new int[] {0, 5, 9}));
    shift.request(4);
    events.clear();

    fixture.steps(shift, 8);

    assertThat(events).containsExactly("reflected blk_w");
  }

  private final class Recording implements ShiftEvents {
    @Override
    public void shiftStarted(int target, String decision) {
      events.add("started " + target + ": " + decision);
    }

    @Override
    public void shiftRefused(String why) {
      events.add("refused: " + why);
    }

    @Override
    public void wakeStarted(Set<String> ids, Map<String, String> failed) {
      events.add("wake for " + (failed.isEmpty() ? "a block " : "a failure " + failed + " ") + ids);
    }

    @Override
    public void woken(Set<String> ids) {
      events.add("woken " + ids);
    }

    @Override
    public void blockReflected(String blockId) {
      events.add("reflected " + blockId);
    }

    @Override
    public void moveFailed(String blockId, String reason) {
      events.add("move of " + blockId + " failed: " + reason);
    }
  }
}
