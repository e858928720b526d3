package org.eafr.datanode.power;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One configured host command (arming Wake-on-LAN, suspending the host), run without a shell from its words, bounded
 * by a timeout, its output logged; in dry run only logged.
 */
final class HostCommand {
  private static final Logger LOG = LoggerFactory.getLogger(HostCommand.class);
  private static final int MAX_OUTPUT_BYTES = 4096;

  private final String key;
  private final List<String> words;
  private final boolean dryRun;

  HostCommand(String key, List<String> words, boolean dryRun) {
    this.key = key;
    this.words = words;
    this.dryRun = dryRun;
  }

  /**
   * Runs the command and waits at most {@code timeoutMillis} for it: true when it exited 0 (or in dry run). A
   * command past the timeout is left running (a suspend returns only after the host wakes) and counts as started.
   */
  boolean run(long timeoutMillis) {
    if (dryRun) {
      LOG.info("EAFR power agent (dry run): would run {}: {}", key, String.join(" ", words));
      return true;
    }
    LOG.info("EAFR power agent: running {}: {}", key, String.join(" ", words));
    try {
      Process process = new ProcessBuilder(words).redirectErrorStream(true).start();
      process.getOutputStream().close();
      if (!process.waitFor(timeoutMillis, TimeUnit.MILLISECONDS)) {
        LOG.info("EAFR power agent: {} still runs after {} ms; leaving it to finish", key, timeoutMillis);
        return true;
      }
      String output = read(process.getInputStream()).trim();
      if (process.exitValue() != 0) {
        LOG.error("EAFR power agent: {} ({}) failed with exit {}: {}", key, String.join(" ", words),
            process.exitValue(), output);
        return false;
      }
      LOG.info("EAFR power agent: {} done{}", key, output.isEmpty() ? "" : ": " + output);
      return true;
    } catch (IOException e) {
      LOG.error("EAFR power agent: {} ({}) could not be started: {}", key, String.join(" ", words), e.toString());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static String read(InputStream in) throws IOException {
    byte[] bytes = in.readNBytes(MAX_OUTPUT_BYTES);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
