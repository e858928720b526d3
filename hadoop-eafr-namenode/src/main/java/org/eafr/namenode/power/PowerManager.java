package org.eafr.namenode.power;

import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.eafr.namenode.config.DataNodeName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Switches DataNode hosts through their drivers the way bare-metal fleets are run (OpenStack Ironic, MAAS):
 * <ul>
 *   <li>one action in flight per node: a second request for a busy node is refused, naming the action under way
 *       (not queued: a queued request goes stale while it waits, and the caller decides again on fresh state);</li>
 *   <li>at least {@code eafr.power.min-command-interval.ms} between two calls to one BMC;</li>
 *   <li>each attempt reads the state first (a host already there gets no command), sends the command, then polls the
 *       state with doubling waits ({@code eafr.power.poll.initial.ms} up to {@code eafr.power.poll.max.ms}) until it
 *       is reached or {@code eafr.power.state-timeout.ms} passes;</li>
 *   <li>a failed attempt is retried up to {@code eafr.power.retries} times; after {@code eafr.power.quarantine-after}
 *       consecutive failed attempts the node is quarantined, with one error line naming node, driver, command and
 *       error. An automatic request for a quarantined node still reads its state: a host already in the state asked
 *       for needs no command and the request succeeds (so a host that came on late does not hold a gear-up forever);
 *       otherwise it is refused, naming the host, the failures that quarantined it and how to clear it (logged once
 *       per quarantine). The quarantine ends when an operator {@link #clearQuarantine clears} it
 *       ({@code hdfs eafr power clear HOST}), when an operator's command sent through the BMC reaches its state (the
 *       BMC works again), or when the host is found in the state the failed command asked for (that command took
 *       effect late: a slow boot or shutdown, the common cause of a timeout); a host found in another state stays
 *       quarantined, since that says nothing of the BMC's commands;</li>
 *   <li>every power-off, whoever asked (a gear shift, a retry, a shift resumed after a restart or failover, an
 *       operator), passes the power-off guard ({@link HostView#checkMayPowerOff}, the core's
 *       {@code PowerOffGuard}) on the manager's threads at the start of each attempt and again right before its
 *       command is sent; a host the guard refuses but found OFF already gets no command and the request succeeds
 *       (asleep since before a NameNode restart, its DataNode never registered with this NameNode);</li>
 *   <li>only the active NameNode's manager acts: a request on a NameNode that is not active is refused, and an
 *       action whose NameNode leaves the active state ends at its next step, before any further command (a command
 *       already sent may still take effect; the new active NameNode reads the host's state before it acts).</li>
 * </ul>
 * Requests return at once with a future that completes when the state is reached, or exceptionally with a
 * {@link PowerRefusedException} (not tried) or a {@link PowerException} (tried and failed).
 */
public final class PowerManager implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PowerManager.class);

  private final PowerSettings settings;
  private final DriverFactory driverFactory;
  private final Configuration conf;
  final HostView hosts;
  private final SleepRequests sleepRequests;
  final PowerScheduler scheduler;
  private final BmcGate gate;
  private final PowerMetrics metrics;
  private final MeasuredPower measured;
  private final Map<String, NodeRecord> records = new HashMap<>();
  private volatile PowerInventory inventory = PowerInventory.EMPTY;
  private volatile Map<String, PowerDriver> drivers = Map.of();
  private boolean metricsRegistered;

  /**
   * A manager over the inventory named by {@code eafr.power.inventory.file} in {@code conf} (none: an empty one),
   * whose drivers {@code drivers} builds, with a pool of {@code threads} for driver calls, recording Wake-on-LAN hosts'
   * power-offs in {@code sleepRequests} (inside a NameNode, its {@code EafrRuntime.sleepRequests()}, which the admin
   * handler answers the DataNodes' power agents from). Throws naming the key, file, entry or alias that is wrong.
   */
  public static PowerManager start(Configuration conf, HostView hosts, SleepRequests sleepRequests, int threads,
      DriverFactory drivers) {
    PowerSettings settings = PowerSettings.from(conf::get);
    PowerScheduler scheduler = PowerScheduler.threads(threads);
    try {
      NameNodeHostView.checkMaintenanceMinimum(conf);
      PowerManager manager = new PowerManager(settings, conf, hosts, sleepRequests, scheduler, drivers);
      manager.reloadInventory();
      manager.registerMetrics();
      return manager;
    } catch (RuntimeException e) {
      scheduler.close();
      hosts.close();
      throw e;
    }
  }

  PowerManager(PowerSettings settings, Configuration conf, HostView hosts, SleepRequests sleepRequests,
      PowerScheduler scheduler, DriverFactory driverFactory) {
    this.settings = settings;
    this.driverFactory = driverFactory;
    this.conf = conf;
    this.hosts = hosts;
    this.sleepRequests = sleepRequests;
    this.scheduler = scheduler;
    this.gate = new BmcGate(settings.minCommandIntervalMillis());
    this.measured = new MeasuredPower(scheduler::nowMillis);
    this.metrics = new PowerMetrics(this::statuses, measured);
  }

  /**
   * Reads the inventory file again and builds every driver (passwords included); only if all of it succeeds does it
   * replace the inventory in force, else it throws and nothing changes. Actions under way finish with the driver
   * they started with; quarantine and failure counts of hosts still listed are kept.
   */
  public PowerInventory reloadInventory() {
    String file = settings.inventoryFile();
    return load(file.isEmpty() ? PowerInventory.EMPTY : PowerInventory.read(Paths.get(file)));
  }

  /**
   * The operator's reload ({@code hdfs eafr power reload}): reads the inventory file and the BMC passwords again and
   * builds every driver, exactly as at start, then puts it in force unless it would strand a host: one that is asleep
   * (its state last read OFF, or among {@code asleep}, the hosts the gears put to sleep), powering off or waking may
   * not be dropped or get another driver kind ({@link InventoryReload}). Throws, changing nothing, naming the file,
   * entry, field, alias or host. Actions under way finish with the driver they started with.
   */
  public PowerInventory reload(Set<String> asleep) {
    String file = settings.inventoryFile();
    PowerInventory next = file.isEmpty() ? PowerInventory.EMPTY : PowerInventory.read(Paths.get(file));
    Map<String, PowerDriver> built = driverFactory.build(next, settings, conf, sleepRequests, hosts);
    synchronized (this) {
      InventoryReload.refuseStranding(inventory, next, host -> phase(host, asleep));
      return install(next, built);
    }
  }

  /** "asleep", "powering off", "waking", or null for a host that is none of these. */
  private String phase(String host, Set<String> asleep) {
    NodeRecord record = records.get(host);
    if (record != null && record.inFlight != null) {
      return record.inFlight.command.target() == PowerState.ON ? "waking (" + record.inFlight.command.label()
          + " under way)" : "powering off (" + record.inFlight.command.label() + " under way)";
    }
    if (asleep.contains(host)) {
      return "asleep (the gears put its DataNodes to sleep)";
    }
    return record != null && record.lastKnown == PowerState.OFF ? "asleep (its state last read OFF)" : null;
  }

  /** Puts {@code next} in force once all its drivers are built; throws and changes nothing otherwise. */
  public PowerInventory load(PowerInventory next) {
    return install(next, driverFactory.build(next, settings, conf, sleepRequests, hosts));
  }

  /** Puts {@code next} in force with {@code built}, one driver per host of it. */
  synchronized PowerInventory install(PowerInventory next, Map<String, PowerDriver> built) {
    this.drivers = Map.copyOf(built);
    this.inventory = next;
    for (String host : next.entries().keySet()) {
      records.computeIfAbsent(host, h -> new NodeRecord());
    }
    records.keySet().retainAll(next.entries().keySet());
    LOG.info("EAFR power inventory {} in force: {} hosts", next.source(), next.entries().size());
    return next;
  }

  public CompletableFuture<PowerResult> powerOn(String host, Requester requester) {
    return submit(host, PowerCommand.ON, requester);
  }

  public CompletableFuture<PowerResult> powerOff(String host, boolean forced, Requester requester) {
    return submit(host, forced ? PowerCommand.FORCED_OFF : PowerCommand.GRACEFUL_OFF, requester);
  }

  /** Starts {@code command} on {@code host} (an inventory host, HOST or HOST:PORT as written there). */
  public CompletableFuture<PowerResult> submit(String host, PowerCommand command, Requester requester) {
    PowerAction action;
    try {
      action = begin(host, command, requester);
    } catch (PowerRefusedException e) {
      metrics.refusals.increment();
      LOG.warn("EAFR power: {} {} refused: {}", command.label(), host, e.getMessage());
      return CompletableFuture.failedFuture(e);
    }
    action.start();
    return action.future;
  }

  private synchronized PowerAction begin(String host, PowerCommand command, Requester requester)
      throws PowerRefusedException {
    InventoryEntry entry = inventory.entry(host);
    if (entry == null) {
      throw unknownHost(host);
    }
    if (!hosts.active()) {
      throw notActive(command, host);
    }
    NodeRecord record = records.get(host);
    if (record.inFlight != null) {
      throw new PowerRefusedException(host + " is busy with " + record.inFlight.command.label()
          + " (one power action per node at a time); ask again once it has finished");
    }
    boolean readOnly = record.quarantined && requester == Requester.AUTOMATIC;
    PowerAction action = new PowerAction(this, entry, drivers.get(host), command, record, readOnly);
    record.inFlight = action;
    return action;
  }

  private static PowerRefusedException notActive(PowerCommand command, String host) {
    return new PowerRefusedException(command.label() + " " + host + " refused: this NameNode is not active; only the"
        + " active NameNode's power manager acts (ask the active NameNode)");
  }

  private PowerRefusedException unknownHost(String host) {
    return new PowerRefusedException("host " + host + " is not in the power inventory " + inventory.source() + " ("
        + PowerSettings.INVENTORY_FILE_KEY + "); its hosts are " + inventory.entries().keySet());
  }

  /** The entry that switches {@code dataNode} (its HOST:PORT entry, else its host entry), or null. */
  public InventoryEntry entryFor(DataNodeName dataNode) {
    return inventory.entryFor(dataNode);
  }

  /**
   * Reads {@code host}'s power state from its driver now (after the BMC's min command interval), for the admin
   * command's status; the last known state is updated.
   */
  public CompletableFuture<PowerState> readState(String host) {
    InventoryEntry entry = inventory.entry(host);
    PowerDriver driver = drivers.get(host);
    if (entry == null || driver == null) {
      return CompletableFuture.failedFuture(unknownHost(host));
    }
    CompletableFuture<PowerState> result = new CompletableFuture<>();
    callSoon(driver, 0, () -> {
      try {
        result.complete(read(host, driver));
      } catch (PowerException | RuntimeException e) {
        result.completeExceptionally(e);
      }
    });
    return result;
  }

  /**
   * Starts a read of {@code host}'s power state in the background, in its BMC's slot, so that {@link #status} shows
   * it once done; returns at once (for {@code hdfs eafr power status}, which must not hold an IPC handler). At most
   * one such read per host is queued or running, and none while an action is under way (which reads the state
   * itself): a caller asking again and again adds no work. False when no read was started for those reasons; an
   * unknown host is refused (IllegalArgumentException) naming it and the inventory's hosts.
   */
  public synchronized boolean refreshState(String host) {
    NodeRecord record = records.get(host);
    PowerDriver driver = drivers.get(host);
    if (record == null || driver == null) {
      throw new IllegalArgumentException(unknownHost(host).getMessage());
    }
    if (record.refreshing || record.inFlight != null) {
      return false;
    }
    record.refreshing = true;
    callSoon(driver, 0, () -> {
      try {
        read(host, driver);
      } catch (PowerException | RuntimeException e) {
        LOG.debug("EAFR power: reading the state of {} for a status failed: {}", host, e.getMessage());
      } finally {
        synchronized (PowerManager.this) {
          record.refreshing = false;
        }
      }
    });
    return true;
  }

  /**
   * Lets automatic requests power {@code host} again and resets its failure count; returns its status before. An
   * unknown host is refused (IllegalArgumentException) naming it and the inventory's hosts.
   */
  public synchronized NodePowerStatus clearQuarantine(String host) {
    NodeRecord record = records.get(host);
    if (record == null) {
      throw new IllegalArgumentException(unknownHost(host).getMessage());
    }
    NodePowerStatus before = status(host);
    if (record.quarantined) {
      LOG.info("EAFR power: quarantine of {} cleared by an operator (was: {})", host, record.quarantineReason);
    }
    record.lift();
    record.failures = 0;
    return before;
  }

  /** The quarantined hosts, in inventory order: what is persisted with the gear state. */
  public synchronized List<PowerQuarantine> quarantines() {
    List<PowerQuarantine> all = new ArrayList<>();
    for (String host : inventory.entries().keySet()) {
      NodeRecord record = records.get(host);
      if (record != null && record.quarantined) {
        all.add(new PowerQuarantine(host, record.quarantinedFor, record.quarantineReason));
      }
    }
    return all;
  }

  /**
   * Quarantines again the hosts of {@code persisted} (read back from the gear state after a restart or failover),
   * keeping those quarantined here already; a host no longer in the inventory is named in a warning and left out.
   */
  public synchronized void restoreQuarantines(List<PowerQuarantine> persisted) {
    for (PowerQuarantine quarantine : persisted) {
      NodeRecord record = records.get(quarantine.host());
      if (record == null) {
        LOG.warn("EAFR power: the persisted quarantine of {} is not restored: the host is no longer in the power"
            + " inventory {}", quarantine, inventory.source());
        continue;
      }
      if (!record.quarantined) {
        record.quarantined = true;
        record.quarantinedFor = quarantine.target();
        record.quarantineReason = quarantine.reason();
        record.refusalLogged = false;
        record.lastError = record.lastError == null ? quarantine.reason() : record.lastError;
        LOG.warn("EAFR power: node {} is quarantined, as persisted with the gear state: {}; clear it with 'hdfs eafr"
            + " power clear {}' once its BMC works", quarantine.host(), quarantine.reason(), quarantine.host());
      }
    }
  }

  public synchronized NodePowerStatus status(String host) {
    NodeRecord record = records.get(host);
    PowerDriver driver = drivers.get(host);
    if (record == null || driver == null) {
      return null;
    }
    return new NodePowerStatus(host, driver.name(), driver.endpoint(), record.lastKnown,
        record.inFlight == null ? null : record.inFlight.command, record.failures, record.quarantined,
        record.lastError, record.lastReadMillis);
  }

  /** Every inventory host's status, in inventory order. */
  public synchronized List<NodePowerStatus> statuses() {
    List<NodePowerStatus> all = new ArrayList<>();
    for (String host : inventory.entries().keySet()) {
      all.add(status(host));
    }
    return all;
  }

  public PowerInventory inventory() {
    return inventory;
  }

  /** What the BMCs measured (the {@link BmcPoller} records it). */
  public MeasuredPower measured() {
    return measured;
  }

  /**
   * For the {@link BmcPoller}: calls {@code host}'s driver now, on the caller's thread, only if this NameNode is
   * active, no action or status read is under way for the host, {@code wanted} accepts its driver, and its BMC has had
   * no call for a full {@code eafr.power.min-command-interval.ms} (the call then takes the slot now); otherwise it calls
   * nothing and returns null. A poll never waits for a slot nor takes one an action reserved: actions come first.
   */
  <T> T pollIfIdle(String host, Predicate<PowerDriver> wanted, DriverCall<T> call) throws PowerException {
    if (!hosts.active()) {
      return null;
    }
    PowerDriver driver;
    synchronized (this) {
      NodeRecord record = records.get(host);
      driver = drivers.get(host);
      if (record == null || driver == null || record.inFlight != null || record.refreshing || !wanted.test(driver)
          || !gate.reserveIfIdle(driver.endpoint(), scheduler.nowMillis())) {
        return null;
      }
    }
    return call.call(driver);
  }

  /** A poll of {@code host}'s power state ({@link #pollIfIdle}): the state read, or null when not polled now. */
  PowerState pollState(String host) throws PowerException {
    return pollIfIdle(host, driver -> true, driver -> read(host, driver));
  }

  /** One call to a driver. */
  @FunctionalInterface
  interface DriverCall<T> {
    T call(PowerDriver driver) throws PowerException;
  }

  /** {@code host}'s driver in force, or null (tests call it directly). */
  PowerDriver driver(String host) {
    return drivers.get(host);
  }

  /** Where a Wake-on-LAN host's power-off is recorded for its DataNode's in-band agent. */
  public SleepRequests sleepRequests() {
    return sleepRequests;
  }

  /** The metrics2 source; the caller registers it (e.g. the NameNode plugin that owns the manager). */
  public PowerMetrics metrics() {
    return metrics;
  }

  public PowerSettings settings() {
    return settings;
  }

  /** Registers the metrics2 source as {@value PowerMetrics#NAME}, replacing a source of that name left behind. */
  void registerMetrics() {
    MetricsSystem system = DefaultMetricsSystem.instance();
    system.unregisterSource(PowerMetrics.NAME);
    system.register(PowerMetrics.NAME, "EAFR power control of DataNode hosts", metrics);
    metricsRegistered = true;
  }

  /**
   * Stops the driver threads and unregisters the metrics source. Actions under way fail with a PowerException
   * saying so (a command already sent may still take effect; the next owner reads the state before acting).
   */
  @Override
  public void close() {
    scheduler.close();
    List<PowerAction> stopped = new ArrayList<>();
    synchronized (this) {
      for (NodeRecord record : records.values()) {
        if (record.inFlight != null) {
          stopped.add(record.inFlight);
          record.inFlight = null;
        }
      }
    }
    for (PowerAction action : stopped) {
      action.future.completeExceptionally(new PowerException(action.command.label() + " " + action.entry.host()
          + " stopped: the power manager was closed"));
    }
    if (metricsRegistered) {
      DefaultMetricsSystem.instance().unregisterSource(PowerMetrics.NAME);
      metricsRegistered = false;
    }
    hosts.close();
  }

  PowerState read(String host, PowerDriver driver) throws PowerException {
    metrics.stateReads.increment();
    PowerState state = driver.state();
    synchronized (this) {
      NodeRecord record = records.get(host);
      if (record != null) {
        record.lastKnown = state;
        record.lastReadMillis = scheduler.nowMillis();
      }
    }
    return state;
  }

  /** Runs {@code call} to {@code driver}'s endpoint at least {@code delayMillis} from now, in its BMC slot. */
  void callSoon(PowerDriver driver, long delayMillis, Runnable call) {
    long now = scheduler.nowMillis();
    long slot = gate.reserve(driver.endpoint(), now + delayMillis);
    scheduler.schedule(call, slot - now);
  }
}
