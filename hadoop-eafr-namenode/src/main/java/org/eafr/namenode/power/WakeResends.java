package org.eafr.namenode.power;

/**
 * When a power command is sent again while the manager waits for its host to get there: a Wake-on-LAN wake only. A
 * magic packet carries no answer and may be lost (a busy switch, a host whose NIC was still settling); without a
 * resend a lost packet costs the whole state timeout. So while the host is not seen on, the packet goes out again
 * every {@code eafr.power.wol.resend-interval.ms}, and the manager polls at least that often; it stops when the host
 * is on or the state timeout ends. IPMI and Redfish commands are acknowledged by the BMC and are never resent here
 * (a failed attempt is retried as a whole instead).
 *
 * <p>Worked example (interval 5 s, polls after 1, 2, 4, 8 s): packet at t = 0; polls at 1 and 3 s; the next wait
 * (4 s) is capped at the resend due at 5 s, so the poll at 5 s sends the packet again; from then on a poll and a
 * packet come every 5 s until the host is on or the state timeout ends. A lost first packet delays the wake by one
 * interval ({@code WolPowerTest}).
 */
final class WakeResends {
  private static final WakeResends NEVER = new WakeResends(null, 0, Long.MAX_VALUE);

  private final PowerDriver driver;
  private final long intervalMillis;
  private long nextAt;

  private WakeResends(PowerDriver driver, long intervalMillis, long nextAt) {
    this.driver = driver;
    this.intervalMillis = intervalMillis;
    this.nextAt = nextAt;
  }

  /** The resends of {@code command}, just sent at {@code sentAt} through {@code driver}. */
  static WakeResends after(PowerDriver driver, PowerCommand command, long sentAt, long intervalMillis) {
    if (command != PowerCommand.ON || !DriverKind.WOL.label().equals(driver.name())) {
      return NEVER;
    }
    return new WakeResends(driver, intervalMillis, sentAt + intervalMillis);
  }

  /** Sends the command again if it is due at {@code now} (the host not on yet); returns the wait to the next poll. */
  long resendIfDue(long now, long pollWait) throws PowerException {
    if (now >= nextAt) {
      driver.powerOn();
      nextAt = now + intervalMillis;
    }
    return nextAt == Long.MAX_VALUE ? pollWait : Math.max(0, Math.min(pollWait, nextAt - now));
  }
}
