package org.eafr.namenode.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.eafr.namenode.gear.GearRecord;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.eafr.placement.gear.shift.ShiftState;
import org.junit.jupiter.api.Test;

/** The worked example of {@link WarmingDataNodes}: which DataNodes warm, from when and until when. */
class WarmingDataNodesTest {
  private static GearRecord asleep(String... ids) {
    return new GearRecord(List.of(), new ShiftState(0, 0, ShiftPhase.STEADY, Set.of(ids), Set.of()));
  }

  @Test
  void aDataNodeNoLongerAsleep_warmsForTheWarmUpFromWhenItWasSeenAwake() {
    WarmingDataNodes warming = new WarmingDataNodes(() -> 30_000);
    warming.observe(asleep("dn3", "dn4"), 1_000);
    assertThat(warming.any(1_000)).isFalse();
    warming.observe(asleep("dn4"), 5_000);

    assertThat(warming.warming("dn3", 5_000)).isTrue();
    assertThat(warming.warming("dn3", 34_999)).isTrue();
    assertThat(warming.any(34_999)).isTrue();
    assertThat(warming.warming("dn3", 35_000)).isFalse();
    assertThat(warming.any(35_000)).isFalse();
    assertThat(warming.warming("dn4", 5_000)).isFalse();
  }

  @Test
  void theFirstRecordSeen_isTheBaseline_andTheSameRecordAgainWakesNothing() {
    WarmingDataNodes warming = new WarmingDataNodes(() -> 30_000);
    GearRecord gear0 = asleep("dn3");
    warming.observe(asleep(), 1_000);
    warming.observe(gear0, 2_000);
    warming.observe(gear0, 3_000);
    assertThat(warming.any(3_000)).isFalse();
    warming.observe(asleep(), 4_000);
    assertThat(warming.warming("dn3", 4_000)).isTrue();
  }

  @Test
  void aWarmUpOf0_warmsNothing() {
    WarmingDataNodes warming = new WarmingDataNodes(() -> 0);
    warming.observe(asleep("dn3"), 1_000);
    warming.observe(asleep(), 2_000);
    assertThat(warming.any(2_000)).isFalse();
    assertThat(warming.warming("dn3", 2_000)).isFalse();
  }

  /**
   * eafr.reads.warm-up.ms reloaded at run time: 30,000 ms, then 5,000 (dn3 woken at 2,000 warms until 7,000), then 0
   * (dn4 woken meanwhile warms not at all, and the record is still seen, so nothing counts as woken later), then
   * 30,000 again (dn5 woken at 10,000 warms until 40,000); dn3 keeps the end it was given.
   */
  @Test
  void aWarmUpReloadedAtRunTime_appliesToTheNextWakes_andIsUndone() {
    AtomicLong warmUp = new AtomicLong(30_000);
    WarmingDataNodes warming = new WarmingDataNodes(warmUp::get);
    warming.observe(asleep("dn3", "dn4", "dn5"), 1_000);
    warmUp.set(5_000);
    warming.observe(asleep("dn4", "dn5"), 2_000);
    assertThat(warming.warming("dn3", 6_999)).isTrue();
    assertThat(warming.warming("dn3", 7_000)).isFalse();
    warmUp.set(0);
    warming.observe(asleep("dn5"), 3_000);
    warmUp.set(30_000);
    warming.observe(asleep("dn5"), 4_000);
    assertThat(warming.warming("dn3", 6_999)).as("dn3 keeps the end it was given").isTrue();
    assertThat(warming.warming("dn4", 4_000)).isFalse();
    warming.observe(asleep(), 10_000);

    assertThat(warming.warming("dn5", 39_999)).isTrue();
    assertThat(warming.warming("dn5", 40_000)).isFalse();
  }
}
