package org.eafr.namenode.power;

import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The draws the inventory hosts' BMCs measured, as the {@link BmcPoller} last read them. A reading counts (is
 * "fresh") while it is younger than {@link #maxAgeMillis} (three poll intervals) and the host's BMC still reads the
 * state it read when the reading was taken: a host switched off since draws nothing like what it drew on, so the
 * power model stands in until the next reading. A BMC that answered it has no meter is remembered with its driver
 * and not asked again until the driver is rebuilt (inventory reload, NameNode restart).
 */
public final class MeasuredPower {
  private final LongSupplier clock;
  private final Map<String, Reading> readings = new ConcurrentHashMap<>();
  private final Map<String, String> lastErrors = new ConcurrentHashMap<>();
  final LongAdder measurements = new LongAdder();
  final LongAdder pollErrors = new LongAdder();
  private volatile long maxAgeMillis;

  MeasuredPower(LongSupplier clock) {
    this.clock = clock;
  }

  private static final class Reading {
    final PowerDriver driver;
    final PowerReading reading;
    final long atMillis;
    final PowerState stateAt;

    Reading(PowerDriver driver, PowerReading reading, long atMillis, PowerState stateAt) {
      this.driver = driver;
      this.reading = reading;
      this.atMillis = atMillis;
      this.stateAt = stateAt;
    }
  }

  /** How old a reading may be and still count; 0 (no poller) means none counts. */
  public long maxAgeMillis() {
    return maxAgeMillis;
  }

  void maxAgeMillis(long millis) {
    this.maxAgeMillis = millis;
  }

  long nowMillis() {
    return clock.getAsLong();
  }

  /** Whether {@code driver} (in force for {@code host}) is to be asked for a reading: not when it said it has none. */
  boolean wanted(String host, PowerDriver driver) {
    Reading last = readings.get(host);
    return last == null || last.driver != driver || !last.reading.lasting();
  }

  /** Records {@code reading} of {@code host} by {@code driver}, taken now while its BMC read {@code state}. */
  void record(String host, PowerDriver driver, PowerReading reading, PowerState state) {
    readings.put(host, new Reading(driver, reading, nowMillis(), state));
    lastErrors.remove(host);
    if (reading.measured()) {
      measurements.increment();
    }
  }

  /** Counts a failed poll of {@code host}; true when it is the first since its last good poll (to be logged). */
  boolean failed(String host, String error) {
    pollErrors.increment();
    return lastErrors.put(host, error) == null;
  }

  /** A poll of {@code host} succeeded; true when it had failed before (to be logged). */
  boolean succeeded(String host) {
    return lastErrors.remove(host) != null;
  }

  /** {@code host}'s measured watts if fresh while its BMC reads {@code stateNow}, else empty. */
  public OptionalDouble watts(String host, PowerState stateNow) {
    Reading last = readings.get(host);
    if (last == null || !last.reading.measured() || last.stateAt != stateNow
        || nowMillis() - last.atMillis > maxAgeMillis) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(last.reading.wattsValue());
  }

  /** Why {@code host} has no reading ("not offered: ..." or "unavailable: ..."), or null when it has one or none yet. */
  public String noReading(String host) {
    Reading last = readings.get(host);
    return last == null || last.reading.measured() ? null : last.reading.toString();
  }

  /** The error of {@code host}'s last poll when it failed, else null. */
  public String lastPollError(String host) {
    return lastErrors.get(host);
  }

  /** Drops the readings of hosts no longer in {@code hosts}. */
  void retain(Set<String> hosts) {
    readings.keySet().retainAll(hosts);
    lastErrors.keySet().retainAll(hosts);
  }
}
