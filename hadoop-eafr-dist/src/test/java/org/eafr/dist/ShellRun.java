package org.eafr.dist;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** One finished command: its exit code and its output (stdout and stderr merged). */
final class ShellRun {
  private static final long TIMEOUT_SECONDS = 120;

  private final int exitCode;
  private final String output;

  private ShellRun(int exitCode, String output) {
    this.exitCode = exitCode;
    this.output = output;
  }

  /** Runs {@code command} in {@code dir} with {@code environment} added; kills it after two minutes. */
  static ShellRun run(Path dir, List<String> command, Map<String, String> environment)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile(dir, "run-", ".out");
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(out.toFile());
    builder.environment().putAll(environment);
    Process process = builder.start();
    if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError(command + " did not end within " + TIMEOUT_SECONDS + " s:\n" + read(out));
    }
    ShellRun run = new ShellRun(process.exitValue(), read(out));
    Files.delete(out);
    return run;
  }

  /** Runs {@code script} with bash -euo pipefail in {@code dir}. */
  static ShellRun bash(Path dir, String script, Map<String, String> environment)
      throws IOException, InterruptedException {
    return run(dir, List.of("bash", "-euo", "pipefail", "-c", script), environment);
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(path);
      }
    }
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }

  int exitCode() {
    return exitCode;
  }

  String output() {
    return output;
  }
}
