package org.eafr.datanode.rate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eafr.placement.rate.ReceiveRateController;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

/** Pacing limits of the throttler on a clock the test drives. */
class SenderThrottlerTest {
  private static final long MIB = 1 << 20;

  @Test
  void maxWait_isHalfTheSocketTimeout_orAMinuteWhenTheTimeoutIsOff() {
    assertThat(SenderThrottler.maxWaitMillis(60_000)).isEqualTo(30_000L);
    assertThat(SenderThrottler.maxWaitMillis(1)).isEqualTo(1L);
    assertThat(SenderThrottler.maxWaitMillis(0)).isEqualTo(60_000L);
  }

  @Test
  void aPacketThatWouldWaitPastTheCap_isLetInAtTheCap_andItsDebtForgiven() {
    // Each reading of the clock moves it 100 ms on, so the throttler's 10 ms sleep slices add up fast.
    AtomicLong clock = new AtomicLong();
    long step = TimeUnit.MILLISECONDS.toNanos(100);
    SenderThrottler throttler = new SenderThrottler(controller(), MIB, 1_000, new ReceiveStats(),
        () -> clock.addAndGet(step));

    long start = clock.get();
    throttler.throttle(64 * MIB); // 64 s at c_b = 1 MiB/s for a lone sender (20 ms of burst credit aside)
    long waited = TimeUnit.NANOSECONDS.toMillis(clock.get() - start);

    assertThat(waited).as("held back at most the cap, plus one clock step").isBetween(1_000L, 1_300L);
    assertThat(throttler.stats().waitsCapped()).isEqualTo(1);

    long next = clock.get();
    throttler.throttle(64 * 1024); // 62.5 ms at 1 MiB/s: with the debt forgiven, a short wait, not the cap again
    assertThat(TimeUnit.NANOSECONDS.toMillis(clock.get() - next)).isLessThan(1_000L);
    assertThat(throttler.stats().waitsCapped()).isEqualTo(1);
  }

  private static ReceiveRateController controller() {
    return ReceiveRateController.from(EafrSettings.from(key -> null));
  }
}
