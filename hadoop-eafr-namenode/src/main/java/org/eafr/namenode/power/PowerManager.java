package org.eafr.namenode.power;

import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
  private final Configuration conf;
  private final HostView hosts;
  private final SleepRequests sleepRequests;
  private final PowerScheduler scheduler;
  private final BmcGate gate;
  private final PowerMetrics metrics;
  private final MeasuredPower measured;
  private final Map<String, NodeRecord> records = new HashMap<>();
  private volatile PowerInventory inventory = PowerInventory.EMPTY;
  private volatile Map<String, PowerDriver> drivers = Map.of();
  private boolean metricsRegistered;

  /**
   * A manager over the inventory named by {@code eafr.power.inventory.file} in {@code conf} (none: an empty one),
   * with a pool of {@code threads} for driver calls. Throws naming the key, file, entry or alias that is wrong.
   */
  public static PowerManager start(Configuration conf, HostView hosts, int threads) {
    return start(conf, hosts, new SleepRequests(), threads);
  }

  /**
   * As {@link #start(Configuration, HostView, int)}, recording Wake-on-LAN hosts' power-offs in {@code sleepRequests}:
   * inside a NameNode, its {@code EafrRuntime.sleepRequests()}, which the admin handler answers the DataNodes' power
   * agents from.
   */
  public static PowerManager start(Configuration conf, HostView hosts, SleepRequests sleepRequests, int threads) {
    PowerSettings settings = PowerSettings.from(conf::get);
    PowerScheduler scheduler = PowerScheduler.threads(threads);
    try {
      NameNodeHostView.checkMaintenanceMinimum(conf);
      PowerManager manager = new PowerManager(settings, conf, hosts, sleepRequests, scheduler);
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
      PowerScheduler scheduler) {
    this.settings = settings;
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
  public PowerInventory reload(java.util.Set<String> asleep) {
    String file = settings.inventoryFile();
    PowerInventory next = file.isEmpty() ? PowerInventory.EMPTY : PowerInventory.read(Paths.get(file));
    Map<String, PowerDriver> built = PowerDrivers.build(next, settings, conf, sleepRequests, hosts);
    synchronized (this) {
      InventoryReload.refuseStranding(inventory, next, host -> phase(host, asleep));
      return install(next, built);
    }
  }

  /** "asleep", "powering off", "waking", or null for a host that is none of these. */
  private String phase(String host, java.util.Set<String> asleep) {
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
    return install(next, PowerDrivers.build(next, settings, conf, sleepRequests, hosts));
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
    PowerAction action = new PowerAction(entry, drivers.get(host), command, record, readOnly);
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

  private PowerState read(String host, PowerDriver driver) throws PowerException {
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
  private void callSoon(PowerDriver driver, long delayMillis, Runnable call) {
    long now = scheduler.nowMillis();
    long slot = gate.reserve(driver.endpoint(), now + delayMillis);
    scheduler.schedule(call, slot - now);
  }

  /** What the manager remembers of one host across actions. */
  private static final class NodeRecord {
    PowerAction inFlight;
    /** A background read for a status is queued or running ({@link #refreshState}). */
    boolean refreshing;
    PowerState lastKnown = PowerState.UNKNOWN;
    long lastReadMillis = Long.MIN_VALUE;
    int failures;
    boolean quarantined;
    /** What quarantined the node: the failures, driver, command and last error. */
    String quarantineReason;
    /** The state the command that quarantined the node asked for: reaching it late ends the quarantine. */
    PowerState quarantinedFor;
    /** Whether a refusal for this quarantine has been logged (once per quarantine, not every gear step). */
    boolean refusalLogged;
    String lastError;

    void lift() {
      quarantined = false;
      quarantineReason = null;
      quarantinedFor = null;
      refusalLogged = false;
    }
  }

  /** One action: attempts of read, command, poll until the target state, as a chain of scheduled steps. */
  private final class PowerAction {
    final InventoryEntry entry;
    final PowerDriver driver;
    final PowerCommand command;
    final NodeRecord record;
    /** The node is quarantined: read its state, and succeed if it is there already, else refuse; send nothing. */
    final boolean readOnly;
    final CompletableFuture<PowerResult> future = new CompletableFuture<>();
    final long started;
    int attempt = 1;
    int poll;
    long deadline;
    String lastReadError;
    WakeResends resends;

    PowerAction(InventoryEntry entry, PowerDriver driver, PowerCommand command, NodeRecord record,
        boolean readOnly) {
      this.entry = entry;
      this.driver = driver;
      this.command = command;
      this.record = record;
      this.readOnly = readOnly;
      this.started = scheduler.nowMillis();
    }

    void start() {
      if (!readOnly) {
        LOG.info("EAFR power: {} {} through {} {}", command.label(), entry.host(), driver.name(),
            driver.endpoint());
      }
      callSoon(driver, 0, () -> step(this::checkBefore));
    }

    /**
     * Runs one step unless this NameNode has left the active state (then the action ends, refused, with nothing more
     * sent); anything a step throws fails the attempt (or refuses the action), never the scheduler thread.
     */
    private void step(Step step) {
      if (!hosts.active()) {
        refuse(new PowerRefusedException(command.label() + " " + entry.host() + " cancelled at attempt " + attempt
            + ": this NameNode is no longer active, so it sends nothing more (a command already sent may still take"
            + " effect; the active NameNode reads the host's state before it acts)"));
        return;
      }
      try {
        step.run();
      } catch (PowerRefusedException e) {
        refuse(e);
      } catch (PowerException e) {
        attemptFailed(e.getMessage());
      } catch (RuntimeException e) {
        attemptFailed(e.toString());
      }
    }

    private void checkBefore() throws PowerException {
      PowerRefusedException unlessThere = readOnly ? null : guardRefusal();
      PowerState state = readOnly || unlessThere != null ? readBeforeNoCommand() : read(entry.host(), driver);
      if (state == command.target()) {
        succeed(false);
        return;
      }
      if (unlessThere != null) {
        throw unlessThere;
      }
      if (readOnly) {
        throw new QuarantineRefusal(entry.host() + " is quarantined (" + record.quarantineReason + ") and is "
            + state + ", not " + command.target() + ": an automatic " + command.label() + " is not sent to it;"
            + " once its BMC works, clear it with 'hdfs eafr power clear " + entry.host() + "' (or switch it by hand"
            + " with 'hdfs eafr power " + (command.target() == PowerState.ON ? "on" : "off") + " " + entry.host()
            + "', which ends the quarantine once its BMC has carried it out)");
      }
      callSoon(driver, 0, () -> step(this::sendCommand));
    }

    /**
     * For a power-off, the guard's refusal now, or null when it passes: a host found OFF needs no command, so a
     * refused power-off of a host already OFF succeeds (e.g. asleep since before a NameNode restart, its DataNode
     * never registered with this NameNode).
     */
    private PowerRefusedException guardRefusal() {
      if (command.target() != PowerState.OFF) {
        return null;
      }
      try {
        hosts.checkMayPowerOff(entry);
        return null;
      } catch (PowerRefusedException e) {
        return e;
      }
    }

    /**
     * The state of a node that gets no command (quarantined, or a power-off the guard refuses now); UNKNOWN when it
     * cannot be read (a refusal then, not one more failed attempt).
     */
    private PowerState readBeforeNoCommand() {
      try {
        return read(entry.host(), driver);
      } catch (PowerException | RuntimeException e) {
        return PowerState.UNKNOWN;
      }
    }

    private void sendCommand() throws PowerException {
      if (command.target() == PowerState.OFF) {
        hosts.checkMayPowerOff(entry); // again, right before the command: things change while it waits its slot
      }
      metrics.commands.increment();
      driver.send(command);
      deadline = scheduler.nowMillis() + settings.stateTimeoutMillis();
      resends = WakeResends.after(driver, command, scheduler.nowMillis(), settings.wolResendIntervalMillis());
      poll = 0;
      lastReadError = null;
      schedulePoll();
    }

    private void schedulePoll() throws PowerException {
      long now = scheduler.nowMillis();
      long wait = Math.min(settings.pollDelayMillis(poll++), Math.max(0, deadline - now));
      callSoon(driver, resends.resendIfDue(now, wait), () -> step(this::checkAfter));
    }

    private void checkAfter() throws PowerException {
      PowerState state;
      try {
        state = read(entry.host(), driver);
      } catch (PowerRefusedException | AttemptFailedException e) {
        throw e;
      } catch (PowerException e) {
        state = PowerState.UNKNOWN; // one failed read while the host changes state is not yet a failure
        lastReadError = e.getMessage();
      }
      if (state == command.target()) {
        succeed(true);
      } else if (scheduler.nowMillis() >= deadline) {
        throw new PowerException(entry.host() + " did not reach " + command.target() + " within "
            + settings.stateTimeoutMillis() + " ms (" + PowerSettings.STATE_TIMEOUT_MS.key() + ") after "
            + command.label() + "; last state " + state + (lastReadError == null ? "" : ", last read error: "
            + lastReadError));
      } else {
        schedulePoll();
      }
    }

    private void succeed(boolean changed) {
      PowerResult result = new PowerResult(entry.host(), command, changed, attempt,
          scheduler.nowMillis() - started);
      String lifted = null;
      synchronized (PowerManager.this) {
        record.inFlight = null;
        record.failures = 0;
        if (record.quarantined && (changed || command.target() == record.quarantinedFor)) {
          lifted = record.quarantineReason;
          record.lift();
        }
      }
      if (lifted != null) {
        LOG.info("EAFR power: quarantine of {} lifted: {} (was: {})", entry.host(), changed ? "an operator's "
            + command.label() + " through " + driver.name() + " " + driver.endpoint() + " reached " + command.target()
            : "it is " + command.target() + " now, the state its failed command asked for (it took effect late)",
            lifted);
      }
      if (changed) {
        (command.target() == PowerState.ON ? metrics.poweredOn : metrics.poweredOff).increment();
      }
      LOG.info("EAFR power: {}", result);
      future.complete(result);
    }

    private void refuse(PowerRefusedException e) {
      boolean logged;
      synchronized (PowerManager.this) {
        record.inFlight = null;
        logged = e instanceof QuarantineRefusal && record.refusalLogged;
        record.refusalLogged |= e instanceof QuarantineRefusal;
      }
      metrics.refusals.increment();
      if (logged) {
        LOG.debug("EAFR power: {} {} refused: {}", command.label(), entry.host(), e.getMessage());
      } else {
        LOG.warn("EAFR power: {} {} refused: {}", command.label(), entry.host(), e.getMessage());
      }
      future.completeExceptionally(e);
    }

    private void attemptFailed(String error) {
      metrics.failedAttempts.increment();
      boolean quarantine;
      boolean retry;
      synchronized (PowerManager.this) {
        record.failures++;
        record.lastError = error;
        quarantine = !record.quarantined && record.failures >= settings.quarantineAfter();
        record.quarantined |= quarantine;
        if (quarantine) {
          record.quarantinedFor = command.target();
          record.quarantineReason = "after " + record.failures + " consecutive failed attempts; last: "
              + command.label() + " through " + driver.name() + " " + driver.endpoint() + " failed: " + error;
          record.refusalLogged = false;
        }
        retry = !record.quarantined && attempt <= settings.retries();
        if (!retry) {
          record.inFlight = null;
        }
      }
      if (quarantine) {
        metrics.quarantines.increment();
        LOG.error("EAFR power: node {} quarantined after {} consecutive failed attempts: driver {} ({}), command {},"
            + " error: {}; it will not be powered automatically until an operator clears it", entry.host(),
            record.failures, driver.name(), driver.endpoint(), command.label(), error);
      } else {
        LOG.warn("EAFR power: attempt {} of {} {} through {} failed: {}", attempt, command.label(), entry.host(),
            driver.name(), error);
      }
      if (retry) {
        attempt++;
        metrics.retries.increment();
        callSoon(driver, 0, () -> step(this::checkBefore));
        return;
      }
      future.completeExceptionally(new PowerException(command.label() + " " + entry.host() + " through "
          + driver.name() + " " + driver.endpoint() + " failed after " + attempt + " attempt" + (attempt == 1 ? ""
          : "s") + (quarantine || record.quarantined ? " (node quarantined)" : "") + ": " + error));
    }
  }

  /** An automatic request refused because the node is quarantined and not in the state asked for. */
  private static final class QuarantineRefusal extends PowerRefusedException {
    private static final long serialVersionUID = 1L;

    QuarantineRefusal(String message) {
      super(message);
    }
  }

  /** A step of an action. */
  @FunctionalInterface
  private interface Step {
    void run() throws PowerException;
  }
}
