package org.eafr.datanode.config;

import java.util.List;
import java.util.function.Function;
import org.eafr.placement.settings.EafrSettings;
import org.eafr.placement.settings.InvalidSettingException;
import org.eafr.placement.settings.Range;
import org.eafr.placement.settings.Setting;

/**
 * Every hdfs-site.xml key the DataNode plugin reads: the link capacity c_b, the adjustment period and the mode
 * ({@link RateMode}) of the receive rate control, plus eta_l and eta_h from the core's {@link EafrSettings}
 * ({@code eafr.rate.low-threshold}, {@code eafr.rate.high-threshold}). Built whole or not at all: a malformed or out-of-range value throws an
 * {@link InvalidSettingException} naming the key, the value and what is allowed.
 */
public final class DatanodeSettings {
  private static final long MAX_LINK_BYTES_PER_SECOND = 1L << 40;
  public static final Setting<Long> LINK_BYTES_PER_SECOND = Setting.ofLong("eafr.datanode.link.bytes-per-second",
      "c_b", "Receive capacity of this DataNode's network link in bytes per second (Eq. 13); the receive rate control"
          + " shares it among the senders writing blocks to this DataNode. 0 leaves rate control off; otherwise at"
          + " least 1048576 (1 MiB/s).", 0L, Range.closed(0L, MAX_LINK_BYTES_PER_SECOND));
  /**
   * The smallest link capacity rate control accepts: below it every sender's share is so small that a 64 KiB packet
   * waits for seconds (at 1 MiB/s and 8 senders, 5% of c_b per sender is 6.5 KB/s: 10 s per packet).
   */
  public static final long MIN_LINK_BYTES_PER_SECOND = 1L << 20;
  public static final Setting<Long> PERIOD_MS = Setting.ofLong("eafr.datanode.rate.period.ms", "-",
      "How often the receive rate control adjusts every sender's rate (one round of Alg. 2), in milliseconds.", 100L,
      Range.closed(10L, 60_000L));

  private static final List<Setting<?>> ADAPTER = List.of(LINK_BYTES_PER_SECOND, PERIOD_MS);

  private final EafrSettings core;
  private final long linkBytesPerSecond;
  private final long periodMillis;
  private final RateMode mode;

  private DatanodeSettings(EafrSettings core, Function<String, String> lookup) {
    this.core = core;
    this.linkBytesPerSecond = linkCapacity(lookup);
    this.periodMillis = PERIOD_MS.read(lookup);
    this.mode = RateMode.parse(lookup.apply(RateMode.KEY));
  }

  /** c_b: 0 (off) or a number in [{@link #MIN_LINK_BYTES_PER_SECOND}, {@link #MAX_LINK_BYTES_PER_SECOND}]. */
  private static long linkCapacity(Function<String, String> lookup) {
    long value = LINK_BYTES_PER_SECOND.read(lookup);
    if (value > 0 && value < MIN_LINK_BYTES_PER_SECOND) {
      throw new InvalidSettingException(LINK_BYTES_PER_SECOND.key(), String.valueOf(value), "expected 0 (off) or a"
          + " number in [" + MIN_LINK_BYTES_PER_SECOND + ", " + MAX_LINK_BYTES_PER_SECOND + "]");
    }
    return value;
  }

  /** Reads every key from {@code lookup} (e.g. {@code conf::get}); absent keys keep their defaults. */
  public static DatanodeSettings from(Function<String, String> lookup) {
    return new DatanodeSettings(EafrSettings.from(lookup), lookup);
  }

  /** The DataNode's own settings, in documentation order (eta_l and eta_h come from {@link EafrSettings#all()}). */
  public static List<Setting<?>> adapterSettings() {
    return ADAPTER;
  }

  public EafrSettings core() {
    return core;
  }

  /** Whether receive rate control runs: a link capacity is set. */
  public boolean rateControlEnabled() {
    return linkBytesPerSecond > 0;
  }

  public long linkBytesPerSecond() {
    return linkBytesPerSecond;
  }

  public long periodMillis() {
    return periodMillis;
  }

  /** How each sender is held to its rate ({@value RateMode#KEY}). */
  public RateMode mode() {
    return mode;
  }
}
