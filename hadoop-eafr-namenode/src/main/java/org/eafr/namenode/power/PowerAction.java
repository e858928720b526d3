package org.eafr.namenode.power;

import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One action of the {@link PowerManager}: attempts of read, command, poll until the target state, as a chain of
 * steps on the manager's scheduler, each in its BMC's slot; the host's {@link NodeRecord} is changed under the
 * manager's lock.
 */
final class PowerAction {
  private static final Logger LOG = LoggerFactory.getLogger(PowerManager.class);
  private final PowerManager owner;
  private final PowerScheduler scheduler;
  private final HostView hosts;
  private final PowerSettings settings;
  private final PowerMetrics metrics;
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

  PowerAction(PowerManager owner, InventoryEntry entry, PowerDriver driver, PowerCommand command, NodeRecord record,
      boolean readOnly) {
    this.owner = owner;
    this.scheduler = owner.scheduler;
    this.hosts = owner.hosts;
    this.settings = owner.settings();
    this.metrics = owner.metrics();
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
    owner.callSoon(driver, 0, () -> step(this::checkBefore));
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
    PowerState state = readOnly || unlessThere != null ? readBeforeNoCommand() : owner.read(entry.host(), driver);
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
    owner.callSoon(driver, 0, () -> step(this::sendCommand));
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
      return owner.read(entry.host(), driver);
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
    owner.callSoon(driver, resends.resendIfDue(now, wait), () -> step(this::checkAfter));
  }

  private void checkAfter() throws PowerException {
    PowerState state;
    try {
      state = owner.read(entry.host(), driver);
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
    synchronized (owner) {
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
    synchronized (owner) {
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
    synchronized (owner) {
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
      owner.callSoon(driver, 0, () -> step(this::checkBefore));
      return;
    }
    future.completeExceptionally(new PowerException(command.label() + " " + entry.host() + " through "
        + driver.name() + " " + driver.endpoint() + " failed after " + attempt + " attempt" + (attempt == 1 ? ""
        : "s") + (quarantine || record.quarantined ? " (node quarantined)" : "") + ": " + error));
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
