package org.eafr.datanode.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/** Waits for a daemon's log to show a line, e.g. a restarted DataNode's registration with the NameNode. */
final class LogWait {
  private static final long POLL_MILLIS = 200;

  private LogWait() {
  }

  /** Whether a line after the first {@code fromLine} of {@code log} matched {@code regex} within the timeout. */
  static boolean await(Path log, long fromLine, String regex, long timeoutSeconds) throws IOException {
    try {
      return firstMatch(log, fromLine, Pattern.compile(regex), timeoutSeconds).isPresent();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * The first line after the first {@code fromLine} of {@code log} that {@code pattern} finds, polled every
   * {@value #POLL_MILLIS} ms until the timeout; empty when none appeared by then.
   */
  static Optional<String> firstMatch(Path log, long fromLine, Pattern pattern, long timeoutSeconds)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    while (true) {
      if (Files.exists(log)) {
        try (var lines = Files.lines(log, StandardCharsets.ISO_8859_1)) {
          Optional<String> found = lines.skip(fromLine).filter(line -> pattern.matcher(line).find()).findFirst();
          if (found.isPresent()) {
            return found;
          }
        }
      }
      if (System.nanoTime() >= deadline) {
        return Optional.empty();
      }
      Thread.sleep(POLL_MILLIS);
    }
  }
}
