package org.eafr.placement.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real shell children: the whole tree dies on a timeout, on an interrupt and when a grandchild keeps the output open
 * after its parent exited; the child sees only PATH, LANG and what the caller adds.
 */
class ChildProcessTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  @TempDir
  Path dir;

  /** A shell that records the pid of a background sleep (its child) in {@code pidFile}, then runs {@code rest}. */
  private static List<String> shellWithChild(Path pidFile, String rest) {
    return List.of("/bin/sh", "-c", "sleep 300 & echo $! > '" + pidFile + "'; " + rest);
  }

  private static long pid(Path pidFile) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(pidFile) && !Files.readString(pidFile).isBlank()) {
        return Long.parseLong(Files.readString(pidFile).trim());
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
    throw new AssertionError("no pid in " + pidFile);
  }

  private static boolean gone(long pid) throws Exception {
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    if (handle.isEmpty()) {
      return true;
    }
    try {
      handle.get().onExit().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    }
  }

  @Test
  void timeout_killsTheProcessAndItsChildren() throws Exception {
    Path pidFile = dir.resolve("child.pid");
    ChildProcess.Result result = new ChildProcess(shellWithChild(pidFile, "echo started; sleep 300"), Map.of())
        .run(1_000);

    assertThat(result.timedOut()).isTrue();
    assertThat(result.output()).contains("started");
    assertThat(gone(pid(pidFile))).as("the shell's background child").isTrue();
  }

  @Test
  void outputHeldOpenByAChild_afterTheParentExited_isATimeout_andKillsTheChild() throws Exception {
    Path pidFile = dir.resolve("child.pid");
    // the parent exits at once; its background sleep keeps stdout open, so the output never ends
    ChildProcess.Result result = new ChildProcess(shellWithChild(pidFile, "sleep 0.3; exit 0"), Map.of())
        .run(1_500);

    assertThat(result.timedOut()).isTrue();
    assertThat(gone(pid(pidFile))).isTrue();
  }

  @Test
  void interrupt_killsTheTree_andIsRethrown() throws Exception {
    Path pidFile = dir.resolve("child.pid");
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread caller = new Thread(() -> {
      try {
        new ChildProcess(shellWithChild(pidFile, "sleep 300"), Map.of()).run(120_000);
      } catch (Throwable t) {
        thrown.set(t);
      }
    });
    caller.start();
    long pid = pid(pidFile);
    caller.interrupt();
    caller.join(WAIT.toMillis());

    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    assertThat(gone(pid)).isTrue();
  }

  @Test
  void environment_isPathAndLangFromTheParent_plusTheCallersOnly() throws Exception {
    Map<String, String> parent = Map.of("PATH", "/usr/bin:/bin", "LANG", "C.UTF-8", "HOME", "/home/hdfs",
        "HADOOP_CREDSTORE_PASSWORD", "store-pw");
    assertThat(ChildProcess.environment(parent, Map.of("IPMI_PASSWORD", "bmc-pw"))).containsExactly(
        Map.entry("PATH", "/usr/bin:/bin"), Map.entry("LANG", "C.UTF-8"), Map.entry("IPMI_PASSWORD", "bmc-pw"));

    ChildProcess.Result result = new ChildProcess(List.of("/usr/bin/env"), Map.of("TOOL_SETTING", "x")).run(10_000);
    assertThat(result.exitCode()).isZero();
    assertThat(result.output().lines().map(line -> line.substring(0, line.indexOf('='))))
        .isSubsetOf("PATH", "LANG", "TOOL_SETTING").contains("TOOL_SETTING");
  }

  @Test
  void normalExit_returnsCodeAndOutput() throws Exception {
    ChildProcess.Result result = new ChildProcess(List.of("/bin/sh", "-c", "echo one; echo two >&2; exit 3"),
        Map.of()).run(10_000);

    assertThat(result.timedOut()).isFalse();
    assertThat(result.exitCode()).isEqualTo(3);
    assertThat(result.oneLine()).isEqualTo("one; two");
  }
}
