package org.eafr.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class SettleWatchTest {
  private static final List<String> IDS = List.of("a", "b");

  private static ClusterProbe.View view(int gear, int target, String phase, String adminB, boolean asleepB) {
    return new ClusterProbe.View(gear, target, phase, 0, 0, 0, Map.of(), Map.of(), Map.of("a", false, "b", asleepB),
        Map.of("a", "NORMAL", "b", adminB), false);
  }

  /** The worked example of SettleWatch's Javadoc: a gear-down from 5 s, its host off at 20 s, settled at 36 s. */
  @Test
  void gearDownThenAWindowUnchanged() {
    SettleWatch watch = new SettleWatch(16_000);
    boolean[] bothOn = {true, true};
    ClusterProbe.View six = view(1, 1, "STEADY", "NORMAL", false);
    assertThat(watch.settled(0, SettleWatch.signature(six, IDS, bothOn), SettleWatch.steady(six))).isFalse();
    ClusterProbe.View shifting = view(1, 0, "ENTERING_MAINTENANCE", "ENTERING_MAINTENANCE", true);
    for (long t = 5_000; t < 20_000; t += 1_000) {
      assertThat(watch.settled(t, SettleWatch.signature(shifting, IDS, bothOn), SettleWatch.steady(shifting)))
          .isFalse();
    }
    ClusterProbe.View zero = view(0, 0, "STEADY", "IN_MAINTENANCE", true);
    String down = SettleWatch.signature(zero, IDS, new boolean[] {true, false});
    assertThat(watch.settled(20_000, down, true)).isFalse();
    assertThat(watch.settled(35_999, down, true)).isFalse();
    assertThat(watch.settled(36_000, down, true)).isTrue();
  }

  @Test
  void everyNodeOnSettlesAfterOneWindow() {
    SettleWatch watch = new SettleWatch(16_000);
    String allOn = SettleWatch.signature(view(1, 1, "STEADY", "NORMAL", false), IDS, new boolean[] {true, true});
    assertThat(watch.settled(0, allOn, true)).isFalse();
    assertThat(watch.settled(16_000, allOn, true)).isTrue();
  }

  /** A host switched off by the cold servers' sleep, no gear involved, restarts the window. */
  @Test
  void aHostSwitchedOffRestartsTheWindow() {
    SettleWatch watch = new SettleWatch(10_000);
    ClusterProbe.View cold = view(0, 0, "STEADY", "IN_MAINTENANCE", true);
    assertThat(watch.settled(0, SettleWatch.signature(cold, IDS, new boolean[] {true, true}), true)).isFalse();
    assertThat(watch.settled(9_000, SettleWatch.signature(cold, IDS, new boolean[] {true, false}), true)).isFalse();
    assertThat(watch.settled(18_000, SettleWatch.signature(cold, IDS, new boolean[] {true, false}), true)).isFalse();
    assertThat(watch.settled(19_000, SettleWatch.signature(cold, IDS, new boolean[] {true, false}), true)).isTrue();
  }

  /** Two rounds of the gear controller; with cold servers powered off, of the slower of it and the monitor. */
  @Test
  void windowIsTwoRoundsOfTheControllerThatSwitchesHosts() {
    Configuration conf = new Configuration(false);
    conf.setLong("eafr.gear.auto.interval.ms", 8_000);
    conf.setLong("eafr.interval.ms", 10_000);
    assertThat(SettleWatch.windowMillis(conf)).isEqualTo(16_000);
    conf.setBoolean("eafr.cold.power-off", true);
    assertThat(SettleWatch.windowMillis(conf)).isEqualTo(20_000);
  }

  /** Shifts recorded while settling move before the replay; the schedule stays at its start meanwhile. */
  @Test
  void settlingShiftsComeBeforeTheReplay() {
    GearOperator operator = new GearOperator(null, new GearSchedule(List.of()), 240_000);
    operator.tick(1_000, 0, view(6, 6, "STEADY", "NORMAL", false));
    operator.tick(21_000, 0, view(0, 0, "STEADY", "IN_MAINTENANCE", true));
    operator.replayStartsAfter(37_000);
    assertThat(operator.shifts()).containsExactly(new GearOperator.Shift(-16.0, 6, 0));
    assertThat(operator.downs()).isEqualTo(1);
  }
}
