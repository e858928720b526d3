package org.eafr.namenode.power.driver;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.eafr.namenode.power.PowerException;
import org.eafr.placement.process.ChildProcess;

/**
 * Runs one external tool (ipmitool, an operator's power script) through {@link ChildProcess}: time-bound, output read
 * on its own thread, the whole process tree killed on timeout, interrupt or error, and a minimal environment (PATH,
 * LANG and what the tool needs), never the NameNode's. Secrets go in through a variable only the tool reads, never the
 * command line (which every user of the host can read in ps).
 */
final class ProcessRunner {
  private final long timeoutMillis;

  ProcessRunner(long timeoutMillis) {
    this.timeoutMillis = timeoutMillis;
  }

  /**
   * Runs {@code command} with {@code environment} added to the minimal one; {@code what} names the call in errors
   * (e.g. "ipmitool chassis power on to 10.0.1.11:623").
   */
  ChildProcess.Result run(List<String> command, Map<String, String> environment, String what)
      throws PowerException {
    ChildProcess.Result result;
    try {
      result = new ChildProcess(command, environment).run(timeoutMillis);
    } catch (IOException e) {
      throw new PowerException(what + " could not be started: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PowerException(what + " was interrupted (its process tree was killed)", e);
    }
    if (result.timedOut()) {
      throw new PowerException(what + " did not finish within " + timeoutMillis + " ms"
          + " (eafr.power.command-timeout.ms) and was killed with its child processes");
    }
    return result;
  }
}
