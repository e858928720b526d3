package org.eafr.datanode.power;

import java.io.IOException;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.Map;
import org.eafr.placement.process.ChildProcess;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One configured host command (arming Wake-on-LAN, suspending the host), run without a shell from its words through
 * {@link ChildProcess} (a minimal environment, output read on its own thread, the process tree killed on an interrupt
 * or error), bounded by a timeout, its output logged with every secret the agent knows scrubbed; in dry run only
 * logged.
 */
final class HostCommand {
  private static final Logger LOG = LoggerFactory.getLogger(HostCommand.class);

  /** How a run ended. */
  enum Outcome {
    /** Exited 0 (or dry run). */
    DONE,
    /** Still running at the time bound (only for a command left running past it). */
    STILL_RUNNING,
    /** Exited non-zero, could not start, was interrupted, or passed the time bound and was killed. */
    FAILED
  }

  private final String key;
  private final List<String> words;
  private final boolean dryRun;
  private final boolean leftRunningPastTimeout;
  private final UnaryOperator<String> scrub;
  /** Why the last run failed, in the agent's own words (no command output), or null. */
  private volatile String failure;

  /**
   * {@code leftRunningPastTimeout}: a command that returns only once its effect is over (a suspend returns when the
   * host wakes) is left running at the time bound; any other is killed with its children there, and that is a
   * failure.
   */
  HostCommand(String key, List<String> words, boolean dryRun, boolean leftRunningPastTimeout) {
    this(key, words, dryRun, leftRunningPastTimeout, UnaryOperator.identity());
  }

  /** {@code scrub} replaces every secret in a text before it is logged or reported. */
  HostCommand(String key, List<String> words, boolean dryRun, boolean leftRunningPastTimeout,
      UnaryOperator<String> scrub) {
    this.key = key;
    this.words = words;
    this.dryRun = dryRun;
    this.leftRunningPastTimeout = leftRunningPastTimeout;
    this.scrub = scrub;
  }

  /** Runs the command and waits at most {@code timeoutMillis} for it. */
  Outcome run(long timeoutMillis) {
    failure = null;
    if (dryRun) {
      LOG.info("EAFR power agent (dry run): would run {}: {}", key, commandLine());
      return Outcome.DONE;
    }
    LOG.info("EAFR power agent: running {}: {}", key, commandLine());
    ChildProcess process = new ChildProcess(words, Map.of());
    ChildProcess.Result result;
    try {
      result = (leftRunningPastTimeout ? process.leftRunningPastTimeout() : process).run(timeoutMillis);
    } catch (IOException e) {
      LOG.error("EAFR power agent: {} ({}) could not be started: {}", key, commandLine(), scrub.apply(e.toString()));
      return failed(key + " could not be started: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      LOG.error("EAFR power agent: {} was interrupted; its process tree was killed", key);
      return failed(key + " was interrupted (the DataNode stopped?); its process tree was killed");
    }
    if (result.timedOut()) {
      if (leftRunningPastTimeout) {
        LOG.info("EAFR power agent: {} still runs after {} ms; leaving it to finish", key, timeoutMillis);
        return Outcome.STILL_RUNNING;
      }
      LOG.error("EAFR power agent: {} ({}) did not finish within {} ms and was killed with its child processes{}",
          key, commandLine(), timeoutMillis, result.output().isBlank() ? "" : ": " + output(result));
      return failed(key + " did not finish within " + timeoutMillis + " ms and was killed with its child processes"
          + (result.output().isBlank() ? "" : "; its output: " + output(result)));
    }
    if (result.exitCode() != 0) {
      LOG.error("EAFR power agent: {} ({}) failed with exit {}: {}", key, commandLine(),
          result.exitCode(), output(result));
      return failed(key + " failed with exit " + result.exitCode() + (result.output().isBlank() ? ""
          : "; its output: " + output(result)));
    }
    LOG.info("EAFR power agent: {} done{}", key, result.output().isBlank() ? "" : ": " + output(result));
    return Outcome.DONE;
  }

  private String commandLine() {
    return scrub.apply(String.join(" ", words));
  }

  private String output(ChildProcess.Result result) {
    return scrub.apply(result.oneLine());
  }

  private Outcome failed(String why) {
    failure = scrub.apply(why);
    return Outcome.FAILED;
  }

  /**
   * Why the last run failed: the key, then a timeout, the exit code or why it did not start, and the command's
   * output (which may hold anything: scrub it before it leaves the host); null after a run that did not fail.
   */
  String failure() {
    return failure;
  }
}
