package org.eafr.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoWaitTest {
  @TempDir
  Path dir;

  @Test
  void aWaitForADaemonThatExited_endsAtOnce_showingItsErrorLinesAndNamingItsLog() throws Exception {
    DemoState state = state();
    Process exited = new ProcessBuilder("true").start();
    exited.waitFor();
    Files.writeString(state.dir().resolve("pids/bmc-farm.pid"), exited.pid() + "\n");
    Files.write(state.logs().resolve("bmc-farm.log"), List.of("INFO starting", "2026 ERROR bind failed",
        "java.net.BindException: Address already in use", "INFO stopping"));

    String err = stderrOf(() -> assertThat(new DemoWait(state).await("bmcs", 60)).isFalse());

    assertThat(err).contains("2026 ERROR bind failed", "java.net.BindException").doesNotContain("INFO")
        .contains("the bmc-farm did not start: the error is in " + state.logs().resolve("bmc-farm.log"));
  }

  @Test
  void aWaitForARunningDaemon_holdsWhenItsStepIsDone() throws Exception {
    DemoState state = state();
    Files.writeString(state.dir().resolve("pids/bmc-farm.pid"), String.valueOf(ProcessHandle.current().pid()));
    Files.createDirectories(state.dir().resolve("bmc"));
    Files.createFile(state.dir().resolve("bmc/ready"));

    assertThat(new DemoWait(state).await("bmcs", 60)).isTrue();
  }

  @Test
  void aWaitThatTimesOut_namesWhatItWaitedFor() throws Exception {
    DemoState state = state();
    Files.writeString(state.dir().resolve("pids/bmc-farm.pid"), String.valueOf(ProcessHandle.current().pid()));

    String err = stderrOf(() -> assertThat(new DemoWait(state).await("bmcs", 0)).isFalse());

    assertThat(err).contains("timed out after 0 s waiting for the simulated BMCs");
  }

  private DemoState state() throws Exception {
    Files.createDirectories(dir.resolve("pids"));
    Files.createDirectories(dir.resolve("logs"));
    Files.writeString(dir.resolve("demo.properties"), "nn.http=1\n");
    return new DemoState(dir);
  }

  interface Step {
    void run() throws Exception;
  }

  private static String stderrOf(Step step) throws Exception {
    PrintStream saved = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      step.run();
    } finally {
      System.setErr(saved);
    }
    return err.toString(StandardCharsets.UTF_8);
  }
}
