package org.eafr.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class SettleWatchTest {
  private static final List<String> IDS = List.of("a", "b");

  private static ClusterProbe.View view(int gear, int target, String phase, String adminB, boolean asleepB) {
    return view(gear, target, phase, adminB, asleepB, 0);
  }

  private static ClusterProbe.View view(int gear, int target, String phase, String adminB, boolean asleepB,
      long heldByDwell) {
    return new ClusterProbe.View(gear, target, phase, 0, 0, 0, Map.of(), Map.of(), Map.of("a", false, "b", asleepB),
        Map.of("a", "NORMAL", "b", adminB), false, 0, heldByDwell);
  }

  /**
   * The worked example of SettleWatch's Javadoc: the controller holds at 4 s, starts a gear-down at 12 s whose host is
   * off at 22 s, holds at 28 s, 36 s and 44 s: settled at 44 s (the decision at 28 s sampled the load from 20 s).
   */
  @Test
  void gearDownThenAWindowAndTwoDecisionsUnchanged() {
    SettleWatch watch = new SettleWatch(16_000);
    boolean[] bothOn = {true, true};
    String six = SettleWatch.signature(view(1, 1, "STEADY", "NORMAL", false), IDS, bothOn);
    long decisions = 0;
    for (long t = 0; t < 12_000; t += 1_000) {
      decisions += t == 4_000 ? 1 : 0;
      assertThat(watch.settled(t, six, true, decisions)).isFalse();
    }
    ClusterProbe.View shifting = view(1, 0, "ENTERING_MAINTENANCE", "ENTERING_MAINTENANCE", true);
    for (long t = 12_000; t < 22_000; t += 1_000) {
      decisions += t == 12_000 || t == 20_000 ? 1 : 0;
      assertThat(watch.settled(t, SettleWatch.signature(shifting, IDS, bothOn), SettleWatch.steady(shifting),
          decisions)).isFalse();
    }
    String down = SettleWatch.signature(view(0, 0, "STEADY", "IN_MAINTENANCE", true), IDS, new boolean[] {true, false});
    for (long t = 22_000; t < 44_000; t += 1_000) {
      decisions += t == 28_000 || t == 36_000 ? 1 : 0;
      assertThat(watch.settled(t, down, true, decisions)).isFalse();
    }
    assertThat(watch.settled(44_000, down, true, decisions + 1)).isTrue();
  }

  /**
   * A window unchanged is not enough while the controller has not decided twice on the window's load alone (it may
   * still shift): the first decision after the window opens sampled the load before it.
   */
  @Test
  void waitsForTwoDecisionsThatSampledOnlyTheWindow() {
    SettleWatch watch = new SettleWatch(16_000);
    String allOn = SettleWatch.signature(view(1, 1, "STEADY", "NORMAL", false), IDS, new boolean[] {true, true});
    assertThat(watch.settled(0, allOn, true, 5)).isFalse();
    assertThat(watch.settled(30_000, allOn, true, 6)).isFalse();
    assertThat(watch.settled(31_000, allOn, true, 7)).isFalse();
    assertThat(watch.settled(32_000, allOn, true, 8)).isTrue();
  }

  /** A decision held by the minimum dwell is a gear-down still to come: it restarts the window. */
  @Test
  void aDecisionHeldByTheDwellRestartsTheWindow() {
    SettleWatch watch = new SettleWatch(16_000);
    boolean[] bothOn = {true, true};
    assertThat(watch.settled(0, SettleWatch.signature(view(1, 1, "STEADY", "NORMAL", false, 0), IDS, bothOn), true,
        0)).isFalse();
    String held = SettleWatch.signature(view(1, 1, "STEADY", "NORMAL", false, 1), IDS, bothOn);
    assertThat(watch.settled(8_000, held, true, 1)).isFalse();
    assertThat(watch.settled(23_000, held, true, 4)).isFalse();
    assertThat(watch.settled(24_000, held, true, 4)).isTrue();
  }

  @Test
  void everyNodeOnSettlesAfterOneWindow() {
    SettleWatch watch = new SettleWatch(16_000);
    String allOn = SettleWatch.signature(view(1, 1, "STEADY", "NORMAL", false), IDS, new boolean[] {true, true});
    assertThat(watch.settled(0, allOn, true, -1)).isFalse();
    assertThat(watch.settled(16_000, allOn, true, -1)).isTrue();
  }

  /** A host switched off by the cold servers' sleep, no gear involved, restarts the window. */
  @Test
  void aHostSwitchedOffRestartsTheWindow() {
    SettleWatch watch = new SettleWatch(10_000);
    ClusterProbe.View cold = view(0, 0, "STEADY", "IN_MAINTENANCE", true);
    assertThat(watch.settled(0, SettleWatch.signature(cold, IDS, new boolean[] {true, true}), true, 1)).isFalse();
    String off = SettleWatch.signature(cold, IDS, new boolean[] {true, false});
    assertThat(watch.settled(9_000, off, true, 1)).isFalse();
    assertThat(watch.settled(18_000, off, true, 3)).isFalse();
    assertThat(watch.settled(19_000, off, true, 3)).isFalse();
    assertThat(watch.settled(20_000, off, true, 4)).isTrue();
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
