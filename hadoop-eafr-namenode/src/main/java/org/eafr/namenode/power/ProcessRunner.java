package org.eafr.namenode.power;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one external tool (ipmitool, an operator's power script) with a hard time bound: past the timeout the process
 * and its children are killed and the call fails. Secrets go in through the environment only, never the command line
 * (which every user of the host can read in ps).
 */
final class ProcessRunner {
  /** Most output kept from one run; tools that print more are cut (their first lines carry the error). */
  private static final int MAX_OUTPUT = 4096;

  private final long timeoutMillis;

  ProcessRunner(long timeoutMillis) {
    this.timeoutMillis = timeoutMillis;
  }

  /** What a finished run printed (stdout and stderr together) and its exit code. */
  static final class Result {
    final int exitCode;
    final String output;

    Result(int exitCode, String output) {
      this.exitCode = exitCode;
      this.output = output;
    }

    /** The output on one line, for messages. */
    String oneLine() {
      return output.trim().replaceAll("\\s*\\n\\s*", "; ");
    }
  }

  /**
   * Runs {@code command} with {@code environment} added to the NameNode's; {@code what} names the call in errors
   * (e.g. "ipmitool chassis power on to 10.0.1.11:623").
   */
  Result run(List<String> command, Map<String, String> environment, String what) throws PowerException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(environment);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new PowerException(what + " could not be started: " + e.getMessage(), e);
    }
    closeStdin(process); // a tool that asks for input (a password prompt) gets EOF instead of hanging

    CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> readBounded(process.getInputStream()));
    try {
      if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw new PowerException(what + " did not finish within " + timeoutMillis + " ms"
            + " (eafr.power.command-timeout.ms) and was killed");
      }
      return new Result(process.exitValue(), output.get(timeoutMillis, TimeUnit.MILLISECONDS));
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new PowerException(what + " was interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new PowerException(what + " output could not be read: " + e, e);
    }
  }

  private static void closeStdin(Process process) {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // nothing to close: the tool has exited already
    }
  }

  private static String readBounded(InputStream in) {
    byte[] buffer = new byte[MAX_OUTPUT];
    int length = 0;
    try {
      int read;
      while ((read = in.read(buffer, length, buffer.length - length)) > 0) {
        length += read;
        if (length == buffer.length) {
          in.transferTo(java.io.OutputStream.nullOutputStream()); // drain the rest so the tool never blocks on a full pipe
          break;
        }
      }
    } catch (IOException e) {
      // the process was killed; keep what was read
    }
    return new String(buffer, 0, length, StandardCharsets.UTF_8);
  }
}
