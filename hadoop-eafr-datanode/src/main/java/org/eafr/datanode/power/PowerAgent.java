package org.eafr.datanode.power;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.eafr.datanode.power.SleepAnswer.Decision;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The in-band power agent of one DataNode, for hosts only Wake-on-LAN can wake. Each {@link #pollOnce poll} asks the
 * NameNode whether the power manager marked this DataNode's host to sleep; the NameNode's answer is acted on only if
 * it is about this DataNode, carries a request and shows the DataNode IN_MAINTENANCE ({@link SleepAnswer#decideFor}).
 * Then the agent takes the request (the answer to the take is checked the same way), arms Wake-on-LAN, stops the
 * DataNode, and runs the host command (suspend or poweroff). Anything else is refused, saying why, and the DataNode
 * stays up: a failed Wake-on-LAN arming too, and one that does not finish in time (killed with its children), since
 * nothing could wake the host; then the agent tells the NameNode why (the timeout, the exit code, the command's output,
 * scrubbed of the process's secrets), which fails the power manager's attempt with that reason.
 */
final class PowerAgent {
  private static final Logger LOG = LoggerFactory.getLogger(PowerAgent.class);
  /** Longest wait for the arming command, and for the host command before the agent's thread moves on. */
  static final long COMMAND_TIMEOUT_MILLIS = 60_000;

  private final PowerAgentSettings settings;
  private final NameNodeSleepChannel channel;
  private final Supplier<String> dataNodeUuid;
  private final Runnable stopDataNode;
  private final AgentSecrets secrets;
  private final HostCommand arm;
  private final HostCommand hostCommand;
  private final AtomicBoolean hostCommandStarted = new AtomicBoolean();
  private volatile PowerAgentState state = PowerAgentState.IDLE;
  private volatile boolean goingDown;
  private String lastRefusal;
  final AtomicLong polls = new AtomicLong();
  final AtomicLong unansweredPolls = new AtomicLong();
  final AtomicLong refusals = new AtomicLong();
  final AtomicLong sleeps = new AtomicLong();

  /**
   * @param dataNodeUuid this DataNode's UUID once it registered (null or empty before)
   * @param stopDataNode stops the DataNode cleanly (its process then exits)
   * @param secrets what a report to the NameNode and every logged command line or output are scrubbed of
   */
  PowerAgent(PowerAgentSettings settings, NameNodeSleepChannel channel, Supplier<String> dataNodeUuid,
      Runnable stopDataNode, AgentSecrets secrets) {
    this.settings = settings;
    this.secrets = secrets;
    this.channel = channel;
    this.dataNodeUuid = dataNodeUuid;
    this.stopDataNode = stopDataNode;
    this.arm = new HostCommand(PowerAgentSettings.WOL_ARM_COMMAND_KEY, settings.wolArmCommand(), settings.dryRun(),
        false, secrets::scrub);
    this.hostCommand = new HostCommand(PowerAgentSettings.HOST_COMMAND_KEY, settings.hostCommand(),
        settings.dryRun(), true, secrets::scrub);
  }

  PowerAgentState state() {
    return state;
  }

  /** Whether the agent has begun to take the host down (then stopping the plugin must not interrupt it). */
  boolean goingDown() {
    return goingDown;
  }

  /** One poll, and the sleep sequence when the NameNode asks for it; never throws. */
  void pollOnce() {
    try {
      String uuid = dataNodeUuid.get();
      if (goingDown || uuid == null || uuid.isEmpty()) {
        return; // down already, or not registered with a NameNode yet
      }
      state = PowerAgentState.POLLING;
      polls.incrementAndGet();
      List<SleepAnswer> answers = channel.ask(SleepAnswer.POLL, uuid);
      state = PowerAgentState.IDLE;
      if (answers.isEmpty()) {
        unansweredPolls.incrementAndGet();
      }
      for (SleepAnswer answer : answers) {
        if (act(answer.decideFor(uuid)) == Decision.Action.SLEEP) {
          take(uuid);
          return;
        }
      }
    } catch (RuntimeException e) { // keep the schedule alive
      LOG.error("EAFR power agent: poll failed", e);
    } finally {
      if (!goingDown) {
        state = PowerAgentState.IDLE;
      }
    }
  }

  /** Logs and counts a decision; returns its action. */
  private Decision.Action act(Decision decision) {
    switch (decision.action()) {
      case IGNORE:
        LOG.warn("EAFR power agent: ignoring the NameNode's answer: {}", decision.reason());
        break;
      case REFUSE:
        refusals.incrementAndGet();
        if (!decision.reason().equals(lastRefusal)) { // once per reason, not on every poll
          LOG.warn("EAFR power agent refuses: {}", decision.reason());
        }
        lastRefusal = decision.reason();
        break;
      default:
        lastRefusal = null;
    }
    return decision.action();
  }

  private void take(String uuid) {
    for (SleepAnswer answer : channel.ask(SleepAnswer.TAKE, uuid)) {
      Decision decision = answer.decideFor(uuid);
      if (act(decision) == Decision.Action.SLEEP) {
        goToSleep(uuid, decision);
        return;
      }
    }
    LOG.info("EAFR power agent: the sleep request was gone when taken (another agent of the host took it, or it"
        + " expired); staying up");
  }

  private void goToSleep(String uuid, Decision decision) {
    goingDown = true;
    LOG.warn("EAFR power agent: {}: arming Wake-on-LAN, stopping the DataNode, then running {} = {}",
        decision.reason(), PowerAgentSettings.HOST_COMMAND_KEY,
        secrets.scrub(String.join(" ", settings.hostCommand())));
    state = PowerAgentState.ARMING;
    if (arm.run(COMMAND_TIMEOUT_MILLIS) != HostCommand.Outcome.DONE) { // a hanging arm is a failure too
      refusals.incrementAndGet();
      LOG.error("EAFR power agent: the DataNode stays up: Wake-on-LAN could not be armed ({} failed or did not"
          + " finish within {} ms), so nothing could wake the host", PowerAgentSettings.WOL_ARM_COMMAND_KEY,
          COMMAND_TIMEOUT_MILLIS);
      channel.reportFailure(uuid, secrets.scrub("Wake-on-LAN could not be armed: " + arm.failure()));
      goingDown = false;
      state = PowerAgentState.IDLE;
      return;
    }
    state = PowerAgentState.STOPPING;
    sleeps.incrementAndGet();
    Thread exitHook = new Thread(this::runHostCommandOnce, "eafr-power-agent-host-command");
    if (!settings.dryRun()) { // the DataNode's process exits once it has stopped: the host command must still run
      Runtime.getRuntime().addShutdownHook(exitHook);
    }
    LOG.info("EAFR power agent: stopping the DataNode");
    stopDataNode.run();
    LOG.info("EAFR power agent: DataNode stopped");
    runHostCommandOnce();
    if (!settings.dryRun()) {
      removeHook(exitHook);
    }
  }

  private void runHostCommandOnce() {
    if (hostCommandStarted.compareAndSet(false, true)) {
      hostCommand.run(COMMAND_TIMEOUT_MILLIS);
      state = PowerAgentState.HOST_COMMAND_RUN;
    }
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) { // the JVM is exiting: the hook runs (and finds the command started)
      Objects.requireNonNull(hook);
    }
  }
}
