package org.eafr.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.hdfs.HdfsConfiguration;

/**
 * {@code DemoWait STATE_DIR namenode|bmcs|datanodes SECONDS} ({@code scripts/demo.sh}): waits for one step of the
 * demo's start, asking the cluster rather than its logs:
 * <ul>
 *   <li>{@code namenode}: the NameNode's web server answers and EAFR's plugin answers {@code hdfs eafr status};
 *   <li>{@code bmcs}: the BMC farm has written {@code bmc/ready} (every simulated BMC listens);
 *   <li>{@code datanodes}: the NameNode sees every host's DataNode live (its JMX, {@link NameNodeJmx}).
 * </ul>
 * A wait for a daemon ends as soon as its recorded pid has exited: it prints the error lines of that daemon's log,
 * names the log and exits 1; so does a wait that times out, naming what it waited for.
 */
public final class DemoWait {
  private static final String WHO = "[demo]";
  /** The lines of a daemon's log worth showing when it died at start. */
  private static final Pattern ERROR_LINE = Pattern.compile(" (ERROR|FATAL) |Exception");
  private static final int ERROR_LINES_SHOWN = 5;

  private final DemoState state;
  private final NameNodeJmx jmx;

  DemoWait(DemoState state) throws IOException {
    this.state = state;
    this.jmx = new NameNodeJmx("127.0.0.1:" + state.plan().getProperty("nn.http"));
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: DemoWait STATE_DIR namenode|bmcs|datanodes SECONDS");
      System.exit(2);
    }
    DemoWait wait = new DemoWait(new DemoState(Paths.get(args[0])));
    System.exit(wait.await(args[1], Integer.parseInt(args[2])) ? 0 : 1);
  }

  boolean await(String step, int seconds) throws IOException, InterruptedException {
    switch (step) {
      case "namenode":
        HdfsConfiguration client = new HdfsConfiguration();
        return whileRunning("namenode", seconds, "the NameNode and EAFR's plugin to answer 'hdfs eafr status'",
            () -> jmx.up() && ClusterProbe.admin(client, "status").code() == 0);
      case "bmcs":
        Path ready = state.dir().resolve("bmc").resolve("ready");
        return whileRunning("bmc-farm", seconds, "the simulated BMCs", () -> Files.exists(ready));
      case "datanodes":
        int hosts = state.hosts().hosts().size();
        if (NameNodeJmx.poll(WHO, seconds, hosts + " live DataNodes", () -> jmx.liveDataNodes() == hosts)) {
          return true;
        }
        System.err.println(WHO + " only " + jmx.liveDataNodes() + " of " + hosts + " DataNodes registered: see "
            + state.logs().resolve("datanode*.log"));
        return false;
      default:
        throw new IllegalArgumentException(
            "DemoWait " + step + " is not allowed: expected namenode, bmcs or datanodes");
    }
  }

  /** Polls {@code ready} while the daemon recorded in pids/NAME.pid runs; names its log when it has died. */
  private boolean whileRunning(String name, int seconds, String what, BooleanSupplier ready)
      throws InterruptedException, IOException {
    Path pidFile = state.dir().resolve("pids").resolve(name + ".pid");
    boolean[] died = {false};
    boolean done = NameNodeJmx.poll(WHO, seconds, what, () -> {
      died[0] = !runs(pidFile);
      return died[0] || ready.getAsBoolean();
    });
    if (!died[0]) {
      return done;
    }
    Path log = state.logs().resolve(name + ".log");
    errorLines(log).forEach(System.err::println);
    System.err.println(WHO + " ERROR: the " + name + " did not start: the error is in " + log);
    return false;
  }

  /** Whether the pid in {@code pidFile} is a live process (a zombie, exited but not yet reaped, is not). */
  static boolean runs(Path pidFile) {
    try {
      String pid = Files.readString(pidFile).trim();
      String stat = Files.readString(Path.of("/proc", pid, "stat"));
      // The state follows the command's name, which is in parentheses and may hold spaces: "pid (comm) S ...".
      return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** The first error lines of a log (Latin-1: any byte reads, whatever a daemon wrote). */
  static List<String> errorLines(Path log) throws IOException {
    if (!Files.exists(log)) {
      return List.of();
    }
    return Files.readAllLines(log, StandardCharsets.ISO_8859_1).stream().filter(l -> ERROR_LINE.matcher(l).find())
        .limit(ERROR_LINES_SHOWN).collect(Collectors.toList());
  }
}
