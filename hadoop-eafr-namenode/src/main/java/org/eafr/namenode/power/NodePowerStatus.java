package org.eafr.namenode.power;

/** What the power manager knows of one inventory host, for the admin command's status and for metrics. */
public final class NodePowerStatus {
  private final String host;
  private final String driver;
  private final String endpoint;
  private final PowerState lastKnown;
  private final PowerCommand inFlight;
  private final int consecutiveFailures;
  private final boolean quarantined;
  private final String lastError;
  private final long lastReadMillis;

  NodePowerStatus(String host, String driver, String endpoint, PowerState lastKnown, PowerCommand inFlight,
      int consecutiveFailures, boolean quarantined, String lastError, long lastReadMillis) {
    this.lastReadMillis = lastReadMillis;
    this.host = host;
    this.driver = driver;
    this.endpoint = endpoint;
    this.lastKnown = lastKnown;
    this.inFlight = inFlight;
    this.consecutiveFailures = consecutiveFailures;
    this.quarantined = quarantined;
    this.lastError = lastError;
  }

  public String host() {
    return host;
  }

  public String driver() {
    return driver;
  }

  public String endpoint() {
    return endpoint;
  }

  /** The state last read from the host's BMC (or heartbeats), UNKNOWN before the first read. */
  public PowerState lastKnown() {
    return lastKnown;
  }

  /** The command of the action in flight, or null. */
  public PowerCommand inFlight() {
    return inFlight;
  }

  /**
   * When {@link #lastKnown} was read, in milliseconds of the monotonic clock Hadoop's {@code Time.monotonicNow()} and
   * a DataNode's last heartbeat use; Long.MIN_VALUE before the first read.
   */
  public long lastReadMillis() {
    return lastReadMillis;
  }

  public int consecutiveFailures() {
    return consecutiveFailures;
  }

  public boolean quarantined() {
    return quarantined;
  }

  /** The error of the last failed attempt, or null. */
  public String lastError() {
    return lastError;
  }

  @Override
  public String toString() {
    return host + " " + driver + " " + endpoint + " " + lastKnown + (inFlight == null ? "" : " " + inFlight.label()
        + " in flight") + (quarantined ? " QUARANTINED" : "") + (lastError == null ? "" : " last error: " + lastError);
  }
}
