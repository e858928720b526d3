package org.eafr.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The thrash run's reading of a wake's time from the power manager's result line. */
class WakeTimeTest {
  @Test
  void aResultReachingOn_givesItsMilliseconds() {
    assertThat(ThrashRun.onMillis("2026-11-27 10:31:02,114 INFO power.PowerManager: EAFR power: dn3 reached ON"
        + " (on, 1 attempt, 41250 ms)")).isEqualTo(41_250);
  }

  @Test
  void otherLines_giveMinusOne() {
    assertThat(ThrashRun.onMillis("EAFR power: dn3 reached OFF (graceful off, 1 attempt, 9000 ms)")).isEqualTo(-1);
    assertThat(ThrashRun.onMillis("EAFR power: dn3 was already ON (on, 1 attempt, 3 ms)")).isEqualTo(-1);
    assertThat(ThrashRun.onMillis("EAFR power: attempt 1 of on for dn3 failed")).isEqualTo(-1);
  }
}
