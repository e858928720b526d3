package org.eafr.placement.destination;

import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.eafr.placement.settings.EafrSettings;

/**
 * Expected transfer speeds from recent transfers, by the EWMA of EAFR Eq. 9 (Lin and Shen, EAFR, Sec. 3.3):
 * V_t = alpha * Y_t + (1 - alpha) * V_{t-1}, 0 &lt; alpha &lt; 1, where Y_t is the average speed measured in window t
 * of length T.
 *
 * <ul>
 *   <li>Per destination, not per (source, destination) pair: the NameNode learns a replica transfer's outcome from
 *       the destination's block-received report, which reliably names only the destination. The source argument of
 *       {@link #expectedSpeed} is therefore ignored.
 *   <li>Windows are [origin + kT, origin + (k+1)T), origin being the clock when the estimator is built, shared by all
 *       destinations. A transfer belongs to the window in which it is recorded (its completion).
 *   <li>Y_t = (sum of bytes) / (sum of seconds) of the window's transfers: a large transfer weighs more than a small
 *       one, as one 100 MB copy says more about a link than a 1 KB one.
 *   <li>A window closes lazily, on the first call at or after its end. The first window with samples sets V = Y; a
 *       window without samples leaves V unchanged; when several windows elapse at once, the one with samples is
 *       applied and the empty ones are skipped. Only closed windows count.
 *   <li>A destination with no closed window yet is expected to run at the mean V of the measured destinations (or
 *       at the constructor's {@code unmeasuredSpeed} while none is measured): a new server is then ranked mid-field,
 *       neither shunned as slow nor swamped as fast, until its own transfers speak.
 * </ul>
 *
 * <p>Worked example (alpha = 0.5, T = 60 s, MB = 1,000,000 bytes): window 1 records 100 MB in 2 s and 100 MB in
 * 8 s, so Y_1 = 200 MB / 10 s = 20 MB/s and V_1 = 20 MB/s; window 2 records 60 MB in 2 s, so Y_2 = 30 MB/s and
 * V_2 = 0.5 * 30 + 0.5 * 20 = 25 MB/s; window 3 records nothing, so V stays 25 MB/s.
 *
 * <p>Thread-safe: transfers are recorded from the NameNode's block-report thread while destinations are chosen on
 * many IPC threads. Each destination has its own small lock-guarded state; a read in a window whose predecessors are
 * already folded in takes no lock.
 */
public final class TransferSpeedEstimator implements TransferSpeeds {
  /**
   * Bytes per second assumed for every destination while none is measured: 1 Gbit/s. All destinations then share
   * it, so it never changes a ranking; it only matters to callers that read the number itself.
   */
  public static final double DEFAULT_UNMEASURED_SPEED = 125_000_000.0;

  private final double alpha;
  private final long windowMillis;
  private final LongSupplier clockMillis;
  private final double unmeasuredSpeed;
  private final long originMillis;
  private final ConcurrentHashMap<String, DestinationSpeedEwma> byDestination = new ConcurrentHashMap<>();
  private volatile MeanSpeed meanOfMeasured;

  /**
   * @param alpha weight of the newest window, in (0, 1)
   * @param windowMillis T, at least 1 ms
   * @param clockMillis the current time in milliseconds
   * @param unmeasuredSpeed bytes per second expected while no destination is measured; positive and finite
   */
  public TransferSpeedEstimator(double alpha, long windowMillis, LongSupplier clockMillis, double unmeasuredSpeed) {
    if (!(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("alpha = " + alpha + " is not allowed: expected 0 < alpha < 1");
    }
    if (windowMillis < 1) {
      throw new IllegalArgumentException("windowMillis = " + windowMillis + " is not allowed: expected at least 1");
    }
    if (!(unmeasuredSpeed > 0 && unmeasuredSpeed < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException("unmeasuredSpeed = " + unmeasuredSpeed
          + " B/s is not allowed: expected a positive finite number");
    }
    this.alpha = alpha;
    this.windowMillis = windowMillis;
    this.clockMillis = Objects.requireNonNull(clockMillis, "clockMillis");
    this.unmeasuredSpeed = unmeasuredSpeed;
    this.originMillis = clockMillis.getAsLong();
    this.meanOfMeasured = new MeanSpeed(Long.MIN_VALUE, unmeasuredSpeed);
  }

  /** alpha from {@code eafr.ewma.alpha}, T from {@code eafr.ewma.window.ms}, {@link #DEFAULT_UNMEASURED_SPEED}. */
  public static TransferSpeedEstimator from(EafrSettings settings, Clock clock) {
    Objects.requireNonNull(clock, "clock");
    return new TransferSpeedEstimator(settings.ewmaAlpha(), settings.ewmaWindowMillis(), clock::millis,
        DEFAULT_UNMEASURED_SPEED);
  }

  /**
   * Records one finished transfer to {@code destinationId}.
   *
   * @param bytes bytes transferred, at least 0
   * @param elapsedMillis how long the transfer took, at least 1 ms
   */
  public void recordTransfer(String destinationId, long bytes, long elapsedMillis) {
    Objects.requireNonNull(destinationId, "destinationId");
    if (bytes < 0) {
      throw new IllegalArgumentException("transfer to " + destinationId + ": bytes = " + bytes
          + " is not allowed: expected at least 0");
    }
    if (elapsedMillis < 1) {
      throw new IllegalArgumentException("transfer to " + destinationId + ": elapsedMillis = " + elapsedMillis
          + " is not allowed: expected at least 1");
    }
    long window = currentWindow();
    DestinationSpeedEwma state = byDestination.get(destinationId);
    if (state == null) {
      state = byDestination.computeIfAbsent(destinationId, id -> new DestinationSpeedEwma(alpha, window));
    }
    state.record(window, bytes, elapsedMillis);
  }

  /** V of {@code destinationId} in bytes per second; {@code sourceId} is ignored (see the class comment). */
  @Override
  public double expectedSpeed(String sourceId, String destinationId) {
    Objects.requireNonNull(destinationId, "destinationId");
    long window = currentWindow();
    DestinationSpeedEwma state = byDestination.get(destinationId);
    double speed = state == null ? Double.NaN : state.estimateBefore(window);
    return Double.isNaN(speed) ? meanOfMeasured(window) : speed;
  }

  private long currentWindow() {
    return Math.floorDiv(clockMillis.getAsLong() - originMillis, windowMillis);
  }

  /**
   * Estimates change only when a window closes, so their mean is computed once per window (a pass over all
   * destinations) and reused for every unmeasured destination asked about in that window.
   */
  private double meanOfMeasured(long window) {
    MeanSpeed cached = meanOfMeasured;
    if (cached.window == window) {
      return cached.speed;
    }
    double sum = 0;
    int measured = 0;
    for (DestinationSpeedEwma state : byDestination.values()) {
      double speed = state.estimateBefore(window);
      if (!Double.isNaN(speed)) {
        sum += speed;
        measured++;
      }
    }
    double mean = measured == 0 ? unmeasuredSpeed : sum / measured;
    meanOfMeasured = new MeanSpeed(window, mean);
    return mean;
  }

  /** The mean speed of the measured destinations as of one window. */
  private static final class MeanSpeed {
    final long window;
    final double speed;

    MeanSpeed(long window, double speed) {
      this.window = window;
      this.speed = speed;
    }
  }
}
