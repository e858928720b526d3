package org.eafr.datanode.config;

import java.util.Locale;
import org.eafr.placement.settings.InvalidSettingException;

/**
 * How the DataNode holds each sender to the rate Alg. 2 allots it ({@code eafr.datanode.rate.mode}).
 */
public enum RateMode {
  /** Each connection's TCP receive window is set to rate x RTT: the sender's TCP sends no faster. */
  WINDOW,
  /** The DataXceiver's reads are spaced by bytes / rate; TCP's own window is left to the kernel. */
  PACING;

  public static final String KEY = "eafr.datanode.rate.mode";
  public static final RateMode DEFAULT = WINDOW;
  public static final String DESCRIPTION = "How the receive rate control holds each sender to its rate (Alg. 2):"
      + " window sets each connection's TCP receive window to rate x RTT (SO_RCVBUF and TCP_WINDOW_CLAMP; Linux,"
      + " checked at startup); pacing spaces the DataNode's reads of each connection by bytes / rate.";

  /** The mode named by {@code raw} (any case; absent or blank: the default); anything else names key and choices. */
  public static RateMode parse(String raw) {
    if (raw == null || raw.trim().isEmpty()) {
      return DEFAULT;
    }
    for (RateMode mode : values()) {
      if (mode.value().equals(raw.trim().toLowerCase(Locale.ROOT))) {
        return mode;
      }
    }
    throw new InvalidSettingException(KEY, raw, "expected " + choices());
  }

  /** The value as written in hdfs-site.xml. */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** {@code window or pacing}. */
  public static String choices() {
    return WINDOW.value() + " or " + PACING.value();
  }
}
