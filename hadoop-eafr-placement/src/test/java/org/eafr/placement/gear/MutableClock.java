package org.eafr.placement.gear;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock a test moves by hand, starting at the epoch (UTC). */
public final class MutableClock extends Clock {
  private Instant instant = Instant.EPOCH;

  public void advanceMillis(long millis) {
    instant = instant.plusMillis(millis);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return instant;
  }
}
