package org.eafr.namenode.power;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads every inventory host's power state, then its measured draw, through its driver in the background, once per
 * {@code eafr.power.bmc-poll.interval.ms} (Ironic's periodic power state sync), so that a host switched off (by a gear
 * shift, or by hand at its BMC) shows OFF within an interval, not when HDFS declares its DataNode dead. Wake-on-LAN
 * hosts are not polled: they have no BMC (their state is their DataNodes' heartbeats) and share a broadcast
 * endpoint, whose call spacing a poll would take from their wakes.
 *
 * <p>Power actions come first: a host is polled only through {@link PowerManager#pollIfIdle}, which calls its BMC
 * only while no action or status read is under way for it, this NameNode is active, and the BMC has had no call for
 * a full {@code eafr.power.min-command-interval.ms}; otherwise the poll waits for a later tick. The state and the
 * reading are two calls, spaced like any other two. Bounded: at most one poll per host at a time, on a pool of its
 * own (a BMC that hangs holds a poll thread for at most the command timeout, never a thread of the power actions).
 * A failed poll is counted ({@code PollErrorsTotal}) and logged once until that host's next good poll; it never
 * counts towards quarantine, which is the actions' business.
 */
public final class BmcPoller implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BmcPoller.class);
  private static final long SHORTEST_TICK_MILLIS = 100;

  private final PowerManager power;
  private final PowerScheduler scheduler;
  private final long intervalMillis;
  private final long tickMillis;
  private final Map<String, HostPoll> polls = new HashMap<>();
  private volatile boolean closed;

  /** Where one host's polls stand. */
  private static final class HostPoll {
    long stateDue;
    boolean readingOwed;
    boolean running;

    HostPoll(long stateDue) {
      this.stateDue = stateDue;
    }
  }

  BmcPoller(PowerManager power, long intervalMillis, PowerScheduler scheduler) {
    this.power = power;
    this.scheduler = scheduler;
    this.intervalMillis = intervalMillis;
    this.tickMillis = Math.max(SHORTEST_TICK_MILLIS,
        Math.min(intervalMillis, power.settings().minCommandIntervalMillis()));
    power.measured().maxAgeMillis(3 * intervalMillis);
  }

  /**
   * Polls {@code power}'s hosts every {@code eafr.power.bmc-poll.interval.ms} on {@code threads} threads of its own,
   * the first poll one interval from now; null when the setting is 0 (polling off).
   */
  public static BmcPoller start(PowerManager power, int threads) {
    long interval = power.settings().bmcPollIntervalMillis();
    if (interval == 0) {
      return null;
    }
    BmcPoller poller = new BmcPoller(power, interval, PowerScheduler.threads(threads));
    poller.begin();
    LOG.info("EAFR power: polling {} hosts' BMCs every {} ms ({})", power.inventory().entries().size(), interval,
        PowerSettings.BMC_POLL_INTERVAL_MS.key());
    return poller;
  }

  /** Schedules the first tick one interval from now (tests on a manual clock call it themselves). */
  void begin() {
    scheduler.schedule(this::tick, intervalMillis);
  }

  /** Starts a poll of each host that is due and has none running, then schedules the next tick. */
  void tick() {
    if (closed) {
      return;
    }
    try {
      long now = scheduler.nowMillis();
      Map<String, InventoryEntry> entries = power.inventory().entries();
      Set<String> hosts = entries.keySet();
      synchronized (this) {
        polls.keySet().retainAll(hosts);
        for (String host : hosts) {
          if (entries.get(host).driver() == DriverKind.WOL) {
            continue; // no BMC: its state is its DataNodes' heartbeats, and it must not take the broadcast's slots
          }
          HostPoll poll = polls.computeIfAbsent(host, h -> new HostPoll(now));
          if (!poll.running && (poll.readingOwed || now >= poll.stateDue)) {
            poll.running = true;
            scheduler.schedule(() -> poll(host, poll), 0);
          }
        }
      }
      power.measured().retain(hosts);
    } finally {
      scheduler.schedule(this::tick, tickMillis);
    }
  }

  private void poll(String host, HostPoll poll) {
    boolean reading;
    synchronized (this) {
      reading = poll.readingOwed;
    }
    try {
      boolean done = reading ? pollReading(host) : power.pollState(host) != null;
      if (done && power.measured().succeeded(host)) {
        LOG.info("EAFR power: polling {} works again", host);
      }
      finish(poll, reading, done);
    } catch (PowerException | RuntimeException e) {
      if (power.measured().failed(host, e.getMessage())) {
        LOG.warn("EAFR power: polling the {} of {} failed (counted in PollErrorsTotal; logged again only after a good"
            + " poll): {}", reading ? "power reading" : "power state", host, e.getMessage());
      }
      finish(poll, reading, true);
    }
  }

  /** Reads {@code host}'s draw unless its driver said it has no meter; false when the BMC was busy. */
  private boolean pollReading(String host) throws PowerException {
    MeasuredPower measured = power.measured();
    PowerDriver driver = power.driver(host);
    if (driver == null || !measured.wanted(host, driver)) {
      return true;
    }
    PowerReading reading = power.pollIfIdle(host, d -> d == driver, d -> d.powerReading());
    if (reading == null) {
      return false;
    }
    NodePowerStatus status = power.status(host);
    measured.record(host, driver, reading, status == null ? PowerState.UNKNOWN : status.lastKnown());
    return true;
  }

  /** After a poll: a state read done (or failed) owes the reading and sets the next state read one interval on. */
  private synchronized void finish(HostPoll poll, boolean reading, boolean done) {
    poll.running = false;
    if (!done) {
      return;
    }
    if (reading) {
      poll.readingOwed = false;
    } else {
      poll.stateDue = scheduler.nowMillis() + intervalMillis;
      poll.readingOwed = true;
    }
  }

  @Override
  public void close() {
    closed = true;
    scheduler.close();
  }
}
