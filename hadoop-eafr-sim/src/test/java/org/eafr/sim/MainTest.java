package org.eafr.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {
  @TempDir
  Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String errors() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void helpListsEveryScenarioAndPolicy() {
    assertThat(run("--help")).isZero();
    String help = out.toString(StandardCharsets.UTF_8);
    assertThat(help).contains("eafr ", "concurrency", "arrival-rate", "recovery", "tiny");
    assertThat(help).contains("hdfs", "cdrm", "scarlett", "aptstore", "eafr-no-ewma", "eafr-no-rate-control",
        "eafr-random-reads", "eafr-random-recovery", "sim.concurrency");
  }

  @Test
  void anUnknownPolicyIsAClearError() {
    assertThat(run("tiny", "--policies", "hdfs,lru", "--out", dir.toString())).isEqualTo(2);
    assertThat(errors()).startsWith("error: policy = lru is not allowed: unknown policy; known policies are [hdfs,");
  }

  @Test
  void anUnknownScenarioIsAClearError() {
    assertThat(run("nope")).isEqualTo(2);
    assertThat(errors()).startsWith("error: scenario = nope is not allowed: unknown scenario; known scenarios are");
  }

  @Test
  void aMissingTraceIsAClearError() {
    assertThat(run("tiny", "--trace", "swim:/no/such/trace.tsv.gz", "--out", dir.toString())).isEqualTo(2);
    assertThat(errors()).isEqualTo(
        "error: trace /no/such/trace.tsv.gz is not allowed: the file does not exist" + System.lineSeparator());
  }

  @Test
  void aNegativeSizeIsAClearError() {
    assertThat(run("tiny", "--set", "sim.file-size.max-bytes=-1", "--out", dir.toString())).isEqualTo(2);
    assertThat(errors()).isEqualTo("error: sim.file-size.max-bytes = -1 is not allowed: expected a number in"
        + " [1, +inf)" + System.lineSeparator());
  }

  @Test
  void aSingleRunIsLabelledByItsSimulatedTime() throws IOException {
    assertThat(run("tiny", "--policies", "hdfs", "--set", "sim.duration.hours=0.5", "--out", dir.toString(),
        "--no-progress", "--no-charts")).isZero();
    assertThat(Files.readAllLines(dir.resolve("tiny.csv")).get(1)).startsWith("tiny,0.5h,hdfs,");
  }

  @Test
  void aScenarioThatRunsItsOwnTracesRefusesAnotherTrace() {
    assertThat(run("gears", "--trace", "swim", "--out", dir.toString())).isEqualTo(2);
    assertThat(errors()).startsWith("error: --trace swim is not allowed: scenario gears runs its own traces");
  }

  @Test
  void overridingTheKeyAScenarioSweepsIsAClearError() {
    assertThat(run("concurrency", "--set", "sim.concurrency=5", "--out", dir.toString())).isEqualTo(2);
    assertThat(errors()).startsWith("error: --set sim.concurrency=5 is not allowed: the scenario sweeps"
        + " sim.concurrency (variant concurrency=10)");
  }

  /** The regression oracle: the tiny scenario's CSV, byte for byte, whatever the thread count. */
  @Test
  void tinyScenarioMatchesTheStoredOracleByteForByte() throws IOException {
    assertThat(run("tiny", "--out", dir.resolve("two").toString(), "--no-progress", "--threads", "2")).isZero();
    assertThat(run("tiny", "--out", dir.resolve("one").toString(), "--no-progress", "--threads", "1",
        "--no-charts")).isZero();
    String two = Files.readString(dir.resolve("two/tiny.csv"));
    String one = Files.readString(dir.resolve("one/tiny.csv"));
    assertThat(one).isEqualTo(two);
    try (InputStream oracle = MainTest.class.getResourceAsStream("/oracle/tiny.csv")) {
      assertThat(oracle).as("stored oracle").isNotNull();
      assertThat(two).isEqualTo(new String(oracle.readAllBytes(), StandardCharsets.UTF_8));
    }
    assertThat(dir.resolve("two/tiny-read_mean_ms.png")).isNotEmptyFile();
  }
}
