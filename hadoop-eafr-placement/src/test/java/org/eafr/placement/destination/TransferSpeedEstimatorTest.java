package org.eafr.placement.destination;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.eafr.placement.destination.TestServers.MB;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.eafr.placement.gear.MutableClock;
import org.eafr.placement.settings.EafrSettings;
import org.junit.jupiter.api.Test;

class TransferSpeedEstimatorTest {
  private static final long MINUTE = 60_000L;
  private static final double UNMEASURED = 7.0;

  private final AtomicLong now = new AtomicLong();
  private final TransferSpeedEstimator estimator = new TransferSpeedEstimator(0.5, MINUTE, now::get, UNMEASURED);

  @Test
  void workedExample_twentyThenTwentyFiveMegabytesPerSecond() {
    now.set(1_000);
    estimator.recordTransfer("d1", 100 * MB, 2_000);
    estimator.recordTransfer("d1", 100 * MB, 8_000);
    now.set(MINUTE);
    assertThat(estimator.expectedSpeed("s", "d1")).isEqualTo(20.0 * MB); // Y1 = 200 MB / 10 s = V1

    now.set(MINUTE + 30_000);
    estimator.recordTransfer("d1", 60 * MB, 2_000);
    now.set(2 * MINUTE);
    assertThat(estimator.expectedSpeed("s", "d1")).isEqualTo(25.0 * MB); // 0.5 * 30 + 0.5 * 20

    now.set(3 * MINUTE);
    assertThat(estimator.expectedSpeed("s", "d1")).isEqualTo(25.0 * MB); // window 3 empty
  }

  @Test
  void transfersInTheOpenWindow_doNotCountUntilItCloses() {
    estimator.recordTransfer("d1", 100 * MB, 1_000);
    now.set(MINUTE - 1);

    assertThat(estimator.expectedSpeed("s", "d1")).isEqualTo(UNMEASURED);
    now.set(MINUTE);
    assertThat(estimator.expectedSpeed("s", "d1")).isEqualTo(100.0 * MB);
  }

  @Test
  void windowSpeed_weighsLargeTransfersMoreThanSmallOnes() {
    estimator.recordTransfer("d1", 1_000, 1); // 1 MB/s, but only 1 KB
    estimator.recordTransfer("d1", 100 * MB, 10_000); // 10 MB/s
    now.set(MINUTE);

    // (100 MB + 1 KB) / 10.001 s, not the mean of the two rates (5.5 MB/s).
    assertThat(estimator.expectedSpeed("s", "d1")).isCloseTo(100_001_000.0 / 10.001, within(1e-6));
  }

  @Test
  void severalElapsedWindows_applyTheOneWithSamplesAndSkipTheEmpty() {
    estimator.recordTransfer("d1", 40 * MB, 2_000); // window 0: 20 MB/s
    now.set(5 * MINUTE + 10);
    assertThat(estimator.expectedSpeed("s", "d1")).isEqualTo(20.0 * MB); // windows 1-4 empty

    estimator.recordTransfer("d1", 80 * MB, 2_000); // window 5: 40 MB/s
    now.set(9 * MINUTE);
    assertThat(estimator.expectedSpeed("s", "d1")).isEqualTo(30.0 * MB); // 0.5 * 40 + 0.5 * 20, once
  }

  @Test
  void recordingAfterAGap_closesTheEarlierWindowFirst() {
    estimator.recordTransfer("d1", 40 * MB, 2_000); // window 0: 20 MB/s
    now.set(3 * MINUTE);
    estimator.recordTransfer("d1", 80 * MB, 2_000); // window 3: 40 MB/s, recorded before any read
    now.set(4 * MINUTE);

    assertThat(estimator.expectedSpeed("s", "d1")).isEqualTo(30.0 * MB);
  }

  @Test
  void unmeasuredDestination_expectsTheMeanOfMeasuredOnes() {
    estimator.recordTransfer("d1", 40 * MB, 2_000); // 20 MB/s
    estimator.recordTransfer("d2", 60 * MB, 2_000); // 30 MB/s
    now.set(MINUTE);

    assertThat(estimator.expectedSpeed("s", "new")).isEqualTo(25.0 * MB);
  }

  @Test
  void destinationMeasuredOnlyInTheOpenWindow_expectsTheMeanOfTheOthers() {
    estimator.recordTransfer("d1", 40 * MB, 2_000); // 20 MB/s
    now.set(MINUTE);
    estimator.recordTransfer("d2", 600 * MB, 2_000); // open window: not yet an estimate

    assertThat(estimator.expectedSpeed("s", "d2")).isEqualTo(20.0 * MB);
  }

  @Test
  void unmeasuredMean_followsEstimatesAsWindowsClose() {
    estimator.recordTransfer("d1", 40 * MB, 2_000); // 20 MB/s
    now.set(MINUTE);
    assertThat(estimator.expectedSpeed("s", "new")).isEqualTo(20.0 * MB);

    estimator.recordTransfer("d2", 120 * MB, 2_000); // 60 MB/s
    now.set(2 * MINUTE);
    assertThat(estimator.expectedSpeed("s", "new")).isEqualTo(40.0 * MB);
  }

  @Test
  void nothingMeasured_expectsTheConstructorDefault() {
    now.set(10 * MINUTE);
    assertThat(estimator.expectedSpeed("s", "d1")).isEqualTo(UNMEASURED);
  }

  @Test
  void source_isIgnoredBecauseEstimatesArePerDestination() {
    estimator.recordTransfer("d1", 40 * MB, 2_000);
    now.set(MINUTE);

    assertThat(estimator.expectedSpeed("a", "d1")).isEqualTo(20.0 * MB);
    assertThat(estimator.expectedSpeed(null, "d1")).isEqualTo(20.0 * MB);
  }

  @Test
  void zeroByteTransfer_countsAsTimeWithoutBytes() {
    estimator.recordTransfer("d1", 40 * MB, 2_000);
    estimator.recordTransfer("d1", 0, 2_000);
    now.set(MINUTE);

    assertThat(estimator.expectedSpeed("s", "d1")).isEqualTo(10.0 * MB);
  }

  @Test
  void from_readsAlphaAndWindowFromSettings() {
    MutableClock clock = new MutableClock();
    EafrSettings settings = EafrSettings.builder().set(EafrSettings.EWMA_ALPHA, 0.25)
        .set(EafrSettings.EWMA_WINDOW_MS, 1_000L).build();
    TransferSpeedEstimator fromSettings = TransferSpeedEstimator.from(settings, clock);

    assertThat(fromSettings.expectedSpeed("s", "d1")).isEqualTo(TransferSpeedEstimator.DEFAULT_UNMEASURED_SPEED);
    fromSettings.recordTransfer("d1", 40 * MB, 2_000); // 20 MB/s
    clock.advanceMillis(1_000);
    fromSettings.recordTransfer("d1", 120 * MB, 2_000); // 60 MB/s
    clock.advanceMillis(1_000);

    assertThat(fromSettings.expectedSpeed("s", "d1")).isEqualTo(30.0 * MB); // 0.25 * 60 + 0.75 * 20
  }

  @Test
  void concurrentRecordsAndReads_loseNoTransfer() throws Exception {
    int threads = 4;
    int perThread = 2_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads * 2);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> writers = new ArrayList<>();
      List<Future<Double>> readers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        writers.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < perThread; i++) {
            estimator.recordTransfer("d1", MB, 10);
          }
          return null;
        }));
        readers.add(pool.submit(() -> {
          start.await();
          double slowest = Double.MAX_VALUE;
          for (int i = 0; i < perThread; i++) {
            slowest = Math.min(slowest, estimator.expectedSpeed("s", "d" + (i % 3)));
          }
          return slowest;
        }));
      }
      start.countDown();
      for (Future<?> writer : writers) {
        writer.get();
      }
      for (Future<Double> reader : readers) {
        assertThat(reader.get()).isEqualTo(UNMEASURED); // the window never closed while they read
      }
    } finally {
      pool.shutdownNow();
    }
    now.set(MINUTE);

    assertThat(estimator.expectedSpeed("s", "d1")).isEqualTo(100.0 * MB); // 8,000 MB / 80 s
  }

  @Test
  void badConstructorArguments_areRejectedWithNameAndValue() {
    assertThatThrownBy(() -> new TransferSpeedEstimator(0.0, MINUTE, now::get, 1.0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("alpha = 0.0");
    assertThatThrownBy(() -> new TransferSpeedEstimator(1.0, MINUTE, now::get, 1.0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("alpha = 1.0");
    assertThatThrownBy(() -> new TransferSpeedEstimator(Double.NaN, MINUTE, now::get, 1.0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("alpha = NaN");
    assertThatThrownBy(() -> new TransferSpeedEstimator(0.5, 0, now::get, 1.0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("windowMillis = 0");
    assertThatThrownBy(() -> new TransferSpeedEstimator(0.5, MINUTE, now::get, 0.0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unmeasuredSpeed = 0.0");
    assertThatThrownBy(() -> new TransferSpeedEstimator(0.5, MINUTE, now::get, Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unmeasuredSpeed = Infinity");
  }

  @Test
  void badTransfers_areRejectedWithNameAndValue() {
    assertThatThrownBy(() -> estimator.recordTransfer("d1", -1, 10)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("d1").hasMessageContaining("bytes = -1").hasMessageContaining("at least 0");
    assertThatThrownBy(() -> estimator.recordTransfer("d1", 10, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("elapsedMillis = 0").hasMessageContaining("at least 1");
  }
}
