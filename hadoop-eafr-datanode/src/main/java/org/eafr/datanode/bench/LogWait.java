package org.eafr.datanode.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/** Waits for a daemon's log to show a line, e.g. a restarted DataNode's registration with the NameNode. */
final class LogWait {
  private LogWait() {
  }

  /** Whether a line after the first {@code fromLine} of {@code log} matched {@code regex} within the timeout. */
  static boolean await(Path log, long fromLine, String regex, long timeoutSeconds) throws IOException {
    Pattern pattern = Pattern.compile(regex);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    while (true) {
      if (Files.exists(log)) {
        try (var lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
          if (lines.skip(fromLine).anyMatch(line -> pattern.matcher(line).find())) {
            return true;
          }
        }
      }
      if (System.nanoTime() >= deadline) {
        return false;
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
  }
}
