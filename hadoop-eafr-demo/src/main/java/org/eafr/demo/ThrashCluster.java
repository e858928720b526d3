package org.eafr.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.tools.DFSck;

/**
 * What the thrash test does to the demo's running cluster (started by scripts/demo.sh): gear commands and the
 * NameNode's view through {@link ClusterProbe}, DataNodes killed and started again through the hosts' own switch
 * (scripts/lib/demo-host.sh), simulated BMCs killed and started again with their own command line, the NameNode
 * restarted with its own command line, a sleeping host's blocks deleted, fsck, and the power manager's quarantines.
 * Every process it starts is detached and found again by scripts/demo.sh stop.
 */
final class ThrashCluster {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String NN_CLASS = "org.apache.hadoop.hdfs.server.namenode.NameNode";

  private final DemoState state;
  private final DemoHosts hosts;
  private final ClusterProbe probe;
  private final Configuration conf;
  private final Path root;

  ThrashCluster(DemoState state, Configuration conf) throws IOException {
    this.state = state;
    this.hosts = state.hosts();
    this.conf = conf;
    this.probe = new ClusterProbe(conf, state);
    this.root = Paths.get(state.plan().getProperty("root"));
  }

  DemoHosts hosts() {
    return hosts;
  }

  int maxGear() {
    return hosts.hosts().stream().mapToInt(DemoHosts.Host::gearGroup).max().orElse(0);
  }

  /** The NameNode's view, or empty while it does not answer (restarting). */
  Optional<ClusterProbe.View> view() {
    try {
      return Optional.of(probe.view());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  ClusterProbe.Answer gear(int gear) {
    return probe.admin("gear", String.valueOf(gear));
  }

  /** {@code hdfs eafr relayout VERB}: start, stop, or status (text). */
  ClusterProbe.Answer relayout(String verb) {
    return probe.admin("relayout", verb);
  }

  /**
   * Polls {@code hdfs eafr relayout status -json} until {@code done} holds for its relayout values (the NameNode may be
   * restarting meanwhile); those values, or a ThrashTimeout naming {@code what}.
   */
  JsonNode awaitRelayout(String what, Predicate<JsonNode> done, long timeoutSeconds)
      throws InterruptedException, ThrashTimeout {
    return poll(what, timeoutSeconds, this::relayoutStatus, status -> done.test(status.path("relayout")),
        status -> "last status: " + (status == null ? "the NameNode never answered" : status.path("message").asText()))
        .path("relayout");
  }

  private Optional<JsonNode> relayoutStatus() {
    ClusterProbe.Answer answer = probe.admin("relayout", "status", "-json");
    try {
      return answer.code() == 0 ? Optional.of(JSON.readTree(answer.text())) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * Favored nodes off the layout's homes for the {@code i}th file: one DataNode of a gear group (never a primary) on
   * each rack, taken in turn, so the file's blocks span the racks and have no replica in gear 0.
   */
  InetSocketAddress[] offHome(int i) {
    Map<String, List<DemoHosts.Host>> byRack = new TreeMap<>();
    hosts.hosts().stream().filter(host -> host.gearGroup() > 0)
        .forEach(host -> byRack.computeIfAbsent(host.rack(), r -> new ArrayList<>()).add(host));
    return byRack.values().stream().map(rack -> rack.get(i % rack.size()))
        .map(host -> new InetSocketAddress("127.0.0.1", host.xferPort()))
        .toArray(InetSocketAddress[]::new);
  }

  /** Polls the view until {@code done} holds; the last view, or a ThrashTimeout naming {@code what}. */
  ClusterProbe.View await(String what, long timeoutSeconds, Predicate<ClusterProbe.View> done)
      throws InterruptedException, ThrashTimeout {
    return poll(what, timeoutSeconds, this::view, done, last -> "last view: " + describe(last));
  }

  /**
   * Reads every 500 ms until a reading satisfies {@code done}; that reading, or a ThrashTimeout naming {@code what} and
   * the last reading ({@code describe} gets null when there was none).
   */
  private static <T> T poll(String what, long timeoutSeconds, Supplier<Optional<T>> read, Predicate<T> done,
      Function<T, String> describe) throws InterruptedException, ThrashTimeout {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    T last = null;
    while (true) {
      Optional<T> reading = read.get();
      if (reading.isPresent()) {
        last = reading.get();
        if (done.test(last)) {
          return last;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new ThrashTimeout(what + " not reached in " + timeoutSeconds + " s; " + describe.apply(last));
      }
      Thread.sleep(500);
    }
  }

  /** Waits until no shift is under way and every DataNode of the gear in force is alive. */
  ClusterProbe.View awaitSteady(long timeoutSeconds) throws InterruptedException, ThrashTimeout {
    return await("a steady gear with every awake DataNode alive", timeoutSeconds, this::steady);
  }

  boolean steady(ClusterProbe.View view) {
    return !view.safeMode() && view.phase().equals("STEADY") && view.gear() == view.targetGear()
        && awake(view.gear()).stream().allMatch(host -> view.aliveById().getOrDefault(host.id(), false));
  }

  static String describe(ClusterProbe.View view) {
    if (view == null) {
      return "the NameNode never answered";
    }
    long alive = view.aliveById().values().stream().filter(Boolean::booleanValue).count();
    return "gear " + view.gear() + " (target " + view.targetGear() + ", " + view.phase() + "), " + alive
        + " DataNodes alive, " + view.sleeping() + " sleeping" + (view.safeMode() ? ", NameNode in safe mode" : "");
  }

  /** The hosts on in {@code gear}: primaries and gear groups 1..gear. */
  List<DemoHosts.Host> awake(int gear) {
    return hosts.hosts().stream().filter(host -> host.gearGroup() <= gear).toList();
  }

  /** The hosts the NameNode has asleep in {@code view}: of a gear group above its gear, and not woken out of turn. */
  List<DemoHosts.Host> asleep(ClusterProbe.View view) {
    return hosts.hosts().stream().filter(host -> host.gearGroup() > view.gear() && view.asleep(host.id())).toList();
  }

  List<DemoHosts.Host> withDriver(DemoHosts.Driver driver) {
    return hosts.withDriver(driver);
  }

  boolean dataNodeRuns(DemoHosts.Host host) {
    return probe.hostsOn(List.of(host))[0];
  }

  /**
   * Waits up to {@code seconds} for the DataNode of a host switched off to have exited: the power manager verifies
   * OFF by the BMC's state, while the DataNode's JVM may still be shutting down. Whether it has.
   */
  boolean awaitDataNodeStopped(DemoHosts.Host host, long seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (dataNodeRuns(host)) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(500);
    }
    return true;
  }

  /** SIGKILL to the host's DataNode; returns once it is gone. */
  void killDataNode(DemoHosts.Host host) throws IOException, InterruptedException {
    long pid = Long.parseLong(Files.readString(state.dir().resolve("pids").resolve("datanode" + host.index()
        + ".pid")).trim());
    Optional<ProcessHandle> process = ProcessHandle.of(pid);
    if (process.isPresent()) {
      process.get().destroyForcibly();
      awaitExit(process.get(), 30);
    }
  }

  /** Waits up to {@code seconds} for {@code process} to exit; whether it did. */
  private static boolean awaitExit(ProcessHandle process, long seconds) throws InterruptedException {
    try {
      process.onExit().get(seconds, TimeUnit.SECONDS);
      return true;
    } catch (ExecutionException | TimeoutException e) {
      return false;
    }
  }

  void startDataNode(DemoHosts.Host host) throws IOException, InterruptedException {
    run(List.of(DemoState.hostScript(root).toString(), state.dir().toString(), String.valueOf(host.index()), "on",
        "thrash"));
  }

  /** The simulated BMC process of {@code host} (ipmi_sim or sushy-emulator), by its configuration directory. */
  Optional<ProcessHandle> bmcProcess(DemoHosts.Host host) {
    String dir = state.bmc(host) + "/";
    return ProcessHandle.allProcesses().filter(p -> {
      List<String> argv = commandLine(p.pid());
      return !argv.isEmpty() && argv.stream().anyMatch(arg -> arg.startsWith(dir))
          && argv.stream().anyMatch(arg -> arg.endsWith("ipmi_sim") || arg.endsWith("sushy-emulator"));
    }).findFirst();
  }

  /** Kills the host's BMC simulator; returns its command line, to start it again. */
  List<String> stopBmc(DemoHosts.Host host) throws IOException, InterruptedException {
    ProcessHandle bmc = bmcProcess(host).orElseThrow(() -> new IOException("no BMC simulator of " + host.name()
        + " runs"));
    List<String> argv = commandLine(bmc.pid());
    bmc.destroyForcibly();
    if (!awaitExit(bmc, 30)) {
      throw new IOException("the BMC simulator of " + host.name() + " did not exit in 30 s");
    }
    return argv;
  }

  void startBmc(DemoHosts.Host host, List<String> argv) throws IOException {
    detached(argv, state.bmc(host).resolve("bmc-restarted.log"));
  }

  /** Stops the NameNode (SIGTERM, SIGKILL after 60 s) and starts it again with the same command line and log. */
  void restartNameNode() throws IOException, InterruptedException {
    Path pidFile = state.dir().resolve("pids").resolve("namenode.pid");
    long pid = Long.parseLong(Files.readString(pidFile).trim());
    List<String> argv = commandLine(pid);
    if (argv.stream().noneMatch(NN_CLASS::equals)) {
      throw new IOException("pid " + pid + " in " + pidFile + " is no NameNode: " + argv);
    }
    ProcessHandle nameNode = ProcessHandle.of(pid).orElseThrow();
    nameNode.destroy();
    if (!awaitExit(nameNode, 60)) {
      nameNode.destroyForcibly();
      awaitExit(nameNode, 30);
    }
    Process started = detached(argv, state.logs().resolve("namenode.log"));
    Files.writeString(pidFile, started.pid() + "\n");
  }

  /** Deletes every block file of a stopped DataNode (its disks died while it slept); returns how many blocks. */
  long wipeBlocks(DemoHosts.Host host) throws IOException {
    List<Path> files = blockFiles(host);
    for (Path file : files) {
      Files.delete(file);
    }
    return files.stream().filter(f -> !f.getFileName().toString().endsWith(".meta")).count();
  }

  /** How many blocks the host's DataNode keeps on its disk. */
  long blocksOnDisk(DemoHosts.Host host) throws IOException {
    return blockFiles(host).stream().filter(f -> !f.getFileName().toString().endsWith(".meta")).count();
  }

  private List<Path> blockFiles(DemoHosts.Host host) throws IOException {
    Path data = state.dir().resolve("dn" + host.index()).resolve("data").resolve("current");
    try (Stream<Path> files = Files.walk(data)) {
      return files.filter(f -> f.getFileName().toString().startsWith("blk_")).toList();
    }
  }

  /** {@code hdfs fsck /}, in this JVM; its report in logs/thrash-fsck.txt. */
  ThrashVerdict.Fsck fsck() throws Exception {
    return fsck("thrash-fsck.txt");
  }

  private ThrashVerdict.Fsck fsck(String reportFile) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8)) {
      new DFSck(conf, print).run(new String[] {"/"});
    }
    String report = out.toString(StandardCharsets.UTF_8);
    Files.writeString(state.logs().resolve(reportFile), report);
    return ThrashVerdict.Fsck.parse(report);
  }

  /** fsck after a NameNode restart: HEALTHY after {@code seconds}, and its first unhealthy report (null: none). */
  record FsckAfterRestart(ThrashVerdict.Fsck firstUnhealthy, double seconds) {
    String describe() {
      String first = firstUnhealthy == null ? "" : String.format(Locale.ROOT, " (%s, %d missing blocks at first)",
          firstUnhealthy.status(), firstUnhealthy.missingBlocks());
      return String.format(Locale.ROOT, "fsck HEALTHY after %.0f s%s", seconds, first);
    }
  }

  /**
   * fsck until it is HEALTHY, else a ThrashTimeout after {@code timeoutSeconds}. A NameNode leaves safe mode once
   * 99.9% of the blocks have a reported replica (the demo sets no safe-mode extension), so right after a restart a
   * block whose DataNodes have not sent their first full report yet counts as missing; it must come back once they
   * have. The Nth report is kept in logs/thrash-fsck-{@code name}-N.txt.
   */
  FsckAfterRestart fsckAfterRestart(String name, long timeoutSeconds) throws InterruptedException, ThrashTimeout {
    long start = System.nanoTime();
    AtomicInteger reports = new AtomicInteger();
    AtomicReference<ThrashVerdict.Fsck> first = new AtomicReference<>();
    poll("fsck HEALTHY after the NameNode restart", timeoutSeconds, () -> {
      Optional<ThrashVerdict.Fsck> fsck = fsckOrEmpty(
          String.format(Locale.ROOT, "thrash-fsck-%s-%d.txt", name, reports.incrementAndGet()));
      fsck.filter(f -> !f.healthy()).ifPresent(f -> first.compareAndSet(null, f));
      return fsck;
    }, ThrashVerdict.Fsck::healthy, last -> last == null ? "fsck never answered"
        : String.format(Locale.ROOT, "last fsck %s, %d missing, %d corrupt blocks", last.status(),
            last.missingBlocks(), last.corruptBlocks()));
    return new FsckAfterRestart(first.get(), (System.nanoTime() - start) / 1e9);
  }

  private Optional<ThrashVerdict.Fsck> fsckOrEmpty(String reportFile) {
    try {
      return Optional.of(fsck(reportFile));
    } catch (Exception e) {
      return Optional.empty();
    }
  }

  /** The power manager's quarantine counter since the NameNode started (JMX EafrPower), -1 if unreadable. */
  long quarantinesCounted() {
    try (InputStream in = new URL("http://127.0.0.1:" + state.plan().getProperty("nn.http")
        + "/jmx?qry=Hadoop:service=NameNode,name=EafrPower").openStream()) {
      JsonNode beans = JSON.readTree(in).path("beans");
      return beans.size() == 0 ? -1 : beans.get(0).path("QuarantinesTotal").asLong(-1);
    } catch (IOException e) {
      return -1;
    }
  }

  /**
   * Blocks the DataNodes of {@code awake} have sent to another DataNode for re-replication since each started (JMX
   * DataNodeActivity {@code BlocksReplicated}, summed); an IOException when one does not answer.
   */
  long blocksReplicated(List<DemoHosts.Host> awake) throws IOException {
    long sum = 0;
    for (DemoHosts.Host host : awake) {
      try (InputStream in = new URL("http://127.0.0.1:" + host.httpPort()
          + "/jmx?qry=Hadoop:service=DataNode,name=DataNodeActivity-*").openStream()) {
        JsonNode beans = JSON.readTree(in).path("beans");
        if (beans.size() == 0) {
          throw new IOException("dn" + host.index() + " shows no DataNodeActivity bean");
        }
        sum += beans.get(0).path("BlocksReplicated").asLong();
      }
    }
    return sum;
  }

  /** HDFS's redundancy monitor interval as configured ({@code dfs.namenode.redundancy.interval.seconds}), in ms. */
  long redundancyIntervalMillis() {
    return conf.getTimeDuration("dfs.namenode.redundancy.interval.seconds", 3, TimeUnit.SECONDS,
        TimeUnit.MILLISECONDS);
  }

  /** Every quarantine line of the NameNode's log (all its runs). */
  List<String> quarantinesLogged() throws IOException {
    List<String> lines = new ArrayList<>();
    try (Stream<String> log = Files.lines(state.logs().resolve("namenode.log"), StandardCharsets.UTF_8)) {
      log.filter(line -> line.contains("EAFR power: node") && line.contains("quarantined after")).forEach(lines::add);
    }
    return lines;
  }

  /** The NameNode log's gear-down cancellations ("EAFR gears: gear-down to N cancelled ...") from {@code since} on. */
  List<String> cancellations(java.time.LocalDateTime since) throws IOException {
    return logLines(since, line -> line.contains("EAFR gears: gear-down to ") && line.contains(" cancelled "));
  }

  private List<String> logLines(java.time.LocalDateTime since, Predicate<String> wanted) throws IOException {
    String from = since.format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS"));
    List<String> lines = new ArrayList<>();
    try (Stream<String> log = Files.lines(state.logs().resolve("namenode.log"), StandardCharsets.UTF_8)) {
      log.filter(line -> line.length() > from.length() && line.substring(0, from.length()).compareTo(from) >= 0
          && wanted.test(line)).forEach(lines::add);
    }
    return lines;
  }

  /** The NameNode log's power lines about {@code host} from {@code since} on: failed attempts, results, quarantine. */
  List<String> powerLines(DemoHosts.Host host, java.time.LocalDateTime since) throws IOException {
    String name = " " + host.name() + " ";
    return logLines(since, line -> line.contains("EAFR power: ") && (line.contains(name)
        || line.contains("node " + host.name())));
  }

  Path state() {
    return state.dir();
  }

  private static List<String> commandLine(long pid) {
    try {
      byte[] raw = Files.readAllBytes(Paths.get("/proc", String.valueOf(pid), "cmdline"));
      return Arrays.asList(new String(raw, StandardCharsets.UTF_8).split("\0"));
    } catch (IOException e) {
      return List.of();
    }
  }

  /** Starts {@code argv} in its own session (it outlives this JVM), appending its output to {@code log}. */
  private static Process detached(List<String> argv, Path log) throws IOException {
    List<String> command = new ArrayList<>();
    command.add("setsid");
    command.addAll(argv);
    return new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).redirectInput(ProcessBuilder.Redirect.from(
            new java.io.File("/dev/null"))).start();
  }

  private static void run(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + output.trim());
    }
  }

  /** A wait that did not end: a shift that never finished, a DataNode that never came back. */
  static final class ThrashTimeout extends Exception {
    private static final long serialVersionUID = 1L;

    ThrashTimeout(String message) {
      super(message);
    }
  }
}
