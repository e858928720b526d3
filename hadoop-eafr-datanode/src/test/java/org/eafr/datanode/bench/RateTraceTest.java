package org.eafr.datanode.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class RateTraceTest {
  private static final String PREFIX = "2026-11-23 16:42:59,383 DEBUG SenderThrottler.trace: ";

  @Test
  void periodsWithSenders_areAveragedAsSharesOfTheLink() {
    RateTrace trace = new RateTrace().add(List.of(
        PREFIX + "round c_b=1000 allowed=1000 used=900 senders=2 a=600/540/held b=400/360/held",
        PREFIX + "round c_b=1000 granted=500 used=300 senders=1 a=500/300/free",
        PREFIX + "round c_b=1000 allowed=0 used=0 senders=0",
        "2026-11-23 16:43:00,000 INFO datanode.DataNode: Receiving blk_1 src: /10.0.0.1:1 dest: /10.0.0.2:9866"));

    assertThat(trace.periods()).isEqualTo(2);
    assertThat(trace.meanAllowedShare()).isCloseTo(0.75, within(1e-12));
    assertThat(trace.meanUsedShare()).isCloseTo(0.6, within(1e-12));
    assertThat(trace.minAllowedShare()).isCloseTo(0.5, within(1e-12));
    assertThat(trace.periodsBelowLink()).isEqualTo(1);
    assertThat(trace.summary()).isEqualTo("Throttler trace (2 adjustment periods with senders): the allowed rates"
        + " added up to 75% of c_b on average (lowest 50%; 1 periods below 99%); the senders delivered 60% of c_b.");
  }

  @Test
  void noPeriodsWithSenders_saysNa() {
    assertThat(new RateTrace().add(List.of(PREFIX + "round c_b=1000 allowed=0 used=0 senders=0")).summary())
        .isEqualTo("Throttler trace: no adjustment period with senders (n/a).");
  }
}
