package org.eafr.datanode.power;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeEach;
import org.apache.hadoop.test.GenericTestUtils;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The agent's host commands as real processes: an arming command that hangs is a failure and is killed with its
 * children (the agent then keeps the DataNode up), a sleep command past its bound is left running, a failing command
 * fails, and a command sees none of the DataNode's environment.
 */
class HostCommandTest {
  private static final long WAIT_MILLIS = 20_000;

  private Path dir;

  @BeforeEach
  void makeDir() throws Exception {
    Path tmp = Paths.get(System.getProperty("java.io.tmpdir"));
    Files.createDirectories(tmp);
    dir = Files.createTempDirectory(tmp, "host-command");
  }

  /** A shell that starts a background sleep (its pid in {@code pidFile}) and waits for it. */
  private List<String> hanging(Path pidFile) {
    return List.of("/bin/sh", "-c", "sleep 300 & echo $! > '" + pidFile + "'; wait");
  }

  private static long pid(Path pidFile) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
    while (System.nanoTime() < deadline) {
      if (Files.exists(pidFile) && !Files.readString(pidFile).isBlank()) {
        return Long.parseLong(Files.readString(pidFile).trim());
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
    }
    throw new AssertionError("no pid in " + pidFile);
  }

  private static boolean alive(long pid) throws Exception {
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    if (handle.isEmpty()) {
      return false;
    }
    try {
      handle.get().onExit().get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
      return false;
    } catch (java.util.concurrent.TimeoutException e) {
      return true;
    }
  }

  @Test
  void armingThatHangs_isAFailure_andItsProcessTreeIsKilled() throws Exception {
    Path pidFile = dir.resolve("arm.pid");
    HostCommand arm = new HostCommand(PowerAgentSettings.WOL_ARM_COMMAND_KEY, hanging(pidFile), false, false);

    assertThat(arm.run(500)).isEqualTo(HostCommand.Outcome.FAILED);
    assertThat(alive(pid(pidFile))).as("the arming command's child").isFalse();
  }

  @Test
  void sleepCommandPastItsBound_isLeftRunning() throws Exception {
    Path pidFile = dir.resolve("sleep.pid");
    HostCommand sleep = new HostCommand(PowerAgentSettings.HOST_COMMAND_KEY, hanging(pidFile), false, true);

    assertThat(sleep.run(500)).isEqualTo(HostCommand.Outcome.STILL_RUNNING);
    long pid = pid(pidFile);
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
  }

  @Test
  void failingCommand_fails_andACommandSeesOnlyAMinimalEnvironment() throws Exception {
    HostCommand failing = new HostCommand(PowerAgentSettings.WOL_ARM_COMMAND_KEY, List.of("/bin/sh", "-c",
        "echo 'Cannot set new wake-on-lan settings'; exit 75"), false, false);
    assertThat(failing.run(10_000)).isEqualTo(HostCommand.Outcome.FAILED);

    Path seen = dir.resolve("env");
    HostCommand env = new HostCommand(PowerAgentSettings.WOL_ARM_COMMAND_KEY, List.of("/bin/sh", "-c",
        "env | cut -d= -f1 > '" + seen + "'"), false, false);
    assertThat(env.run(10_000)).isEqualTo(HostCommand.Outcome.DONE);
    assertThat(Files.readAllLines(seen)).isSubsetOf("PATH", "LANG", "PWD");
  }

  @Test
  void aFailingCommandsLogLines_carryItsCommandLineAndOutputScrubbed() {
    GenericTestUtils.LogCapturer logs =
        GenericTestUtils.LogCapturer.captureLogs(LoggerFactory.getLogger(HostCommand.class));
    try {
      HostCommand failing = new HostCommand(PowerAgentSettings.WOL_ARM_COMMAND_KEY, List.of("/bin/sh", "-c",
          "echo 'keystore password is s3cret'; exit 3"), false, false, text -> text.replace("s3cret", "*****"));
      assertThat(failing.run(10_000)).isEqualTo(HostCommand.Outcome.FAILED);

      assertThat(logs.getOutput()).contains("failed with exit 3").contains("keystore password is *****")
          .doesNotContain("s3cret");
      assertThat(failing.failure()).doesNotContain("s3cret");
    } finally {
      logs.stopCapturing();
    }
  }
}
