package org.eafr.placement.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Runs one external tool (ipmitool, an operator's power script, a host command) without a shell, time-bound, in a
 * minimal environment, with its output read on a thread of its own. On every path that does not end in a normal exit
 * with all output read (timeout, interrupt, an error while waiting, output still open past the time bound) the
 * whole process tree is killed: the process and every descendant seen while it ran (a child that outlives its
 * parent is re-parented, so the tree is recorded while waiting, not looked up at the end).
 *
 * <p>The environment is {@link #BASE_VARIABLES} copied from this JVM's plus what the caller adds for the tool (a
 * password variable only that tool reads): never the rest of the daemon's environment, which may hold other secrets
 * (e.g. HADOOP_CREDSTORE_PASSWORD).
 */
public final class ChildProcess {
  /** The only variables a child inherits from this JVM's environment. */
  public static final List<String> BASE_VARIABLES = List.of("PATH", "LANG");
  /** Most output kept from one run; tools that print more are cut (their first lines carry the error). */
  public static final int MAX_OUTPUT = 4096;
  private static final long TREE_SAMPLE_MILLIS = 50;

  private final List<String> command;
  private final Map<String, String> environment;
  private final boolean killOnTimeout;

  /** {@code extraEnvironment}: variables the tool needs beyond {@link #BASE_VARIABLES}. */
  public ChildProcess(List<String> command, Map<String, String> extraEnvironment) {
    this(command, environment(System.getenv(), extraEnvironment), true);
  }

  private ChildProcess(List<String> command, Map<String, String> environment, boolean killOnTimeout) {
    this.command = List.copyOf(command);
    this.environment = environment;
    this.killOnTimeout = killOnTimeout;
  }

  /**
   * The same command, left running when it passes the time bound (still killed on an interrupt or an error): for a
   * command that returns only after its effect is over, such as a suspend that returns when the host wakes.
   */
  public ChildProcess leftRunningPastTimeout() {
    return new ChildProcess(command, environment, false);
  }

  /** The child's whole environment: {@link #BASE_VARIABLES} from {@code parent}, then {@code extra}. */
  static Map<String, String> environment(Map<String, String> parent, Map<String, String> extra) {
    Map<String, String> environment = new LinkedHashMap<>();
    for (String name : BASE_VARIABLES) {
      if (parent.get(name) != null) {
        environment.put(name, parent.get(name));
      }
    }
    environment.putAll(extra);
    return environment;
  }

  /** How a run ended. */
  public static final class Result {
    private final int exitCode;
    private final String output;
    private final boolean timedOut;

    Result(int exitCode, String output, boolean timedOut) {
      this.exitCode = exitCode;
      this.output = output;
      this.timedOut = timedOut;
    }

    /** The exit code; -1 when the run timed out. */
    public int exitCode() {
      return exitCode;
    }

    /** What the tool printed (stdout and stderr together), at most {@link #MAX_OUTPUT} bytes. */
    public String output() {
      return output;
    }

    /** Whether the tool (or its output) was still open at the time bound; its tree was then killed. */
    public boolean timedOut() {
      return timedOut;
    }

    /** The output on one line, for messages. */
    public String oneLine() {
      return output.trim().replaceAll("\\s*\\n\\s*", "; ");
    }
  }

  /**
   * Runs the command for at most {@code timeoutMillis}. A run past the bound is killed with its tree (unless
   * {@link #leftRunningPastTimeout}) and returned with {@link Result#timedOut()}; an interrupt kills the tree and is
   * rethrown.
   *
   * @throws IOException the command could not be started
   */
  public Result run(long timeoutMillis) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().clear();
    builder.environment().putAll(environment);
    Process process = builder.start();
    Set<ProcessHandle> tree = new LinkedHashSet<>();
    boolean clean = false;
    try {
      closeStdin(process); // a tool that asks for input (a password prompt) gets EOF instead of hanging
      OutputReader reader = new OutputReader(process.getInputStream());
      reader.start();
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
      if (!waitRecordingTree(process, tree, deadline)) {
        clean = !killOnTimeout;
        return new Result(-1, reader.text(), true);
      }
      reader.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      if (reader.isAlive()) { // a descendant holds the output open past the bound
        return new Result(-1, reader.text(), true);
      }
      clean = true;
      return new Result(process.exitValue(), reader.text(), false);
    } finally {
      if (!clean) {
        kill(process, tree);
      }
    }
  }

  /** Waits until {@code process} exits or {@code deadline}, recording its descendants as it goes. */
  private static boolean waitRecordingTree(Process process, Set<ProcessHandle> tree, long deadline)
      throws InterruptedException {
    while (true) {
      process.descendants().forEach(tree::add);
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left <= 0) {
        return !process.isAlive();
      }
      if (process.waitFor(Math.min(left, TREE_SAMPLE_MILLIS), TimeUnit.MILLISECONDS)) {
        return true;
      }
    }
  }

  private static void kill(Process process, Set<ProcessHandle> tree) {
    process.descendants().forEach(tree::add);
    process.destroyForcibly();
    for (ProcessHandle handle : tree) {
      handle.descendants().forEach(ProcessHandle::destroyForcibly);
      handle.destroyForcibly();
    }
  }

  private static void closeStdin(Process process) {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // nothing to close: the tool has exited already
    }
  }

  /** Reads at most {@link #MAX_OUTPUT} bytes and drains the rest, so a talkative tool never blocks on a full pipe. */
  private static final class OutputReader extends Thread {
    private final InputStream in;
    private final byte[] buffer = new byte[MAX_OUTPUT];
    private int length;

    OutputReader(InputStream in) {
      super("child-process-output");
      setDaemon(true);
      this.in = in;
    }

    @Override
    public void run() {
      try {
        int read;
        while (length < buffer.length && (read = in.read(buffer, length, buffer.length - length)) > 0) {
          synchronized (this) {
            length += read;
          }
        }
        in.transferTo(OutputStream.nullOutputStream());
      } catch (IOException e) {
        // the process was killed: keep what was read
      }
    }

    synchronized String text() {
      return new String(buffer, 0, length, StandardCharsets.UTF_8);
    }
  }
}
