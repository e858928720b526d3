package org.eafr.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.eafr.sim.stats.DoubleList;

/**
 * {@code TraceReplay STATE_DIR}: the demo's workload on the running cluster (scripts/demo.sh run). Writes the file
 * catalog, then replays the {@link ReplayPlan} through HDFS clients ({@code demo.clients} threads), timing every read
 * and checking its bytes; meanwhile shifts gears by schedule (manual mode), samples the cluster every
 * {@code demo.sample.ms} into a live status line, the energy ledger and the timeline; at the end reads every file back
 * against its checksum, writes the report and the PNG, and exits 1 naming each check that failed.
 */
public final class TraceReplay {
  private final DemoState state;
  private final DemoSettings settings;
  private final DemoHosts hosts;
  private final ClusterProbe probe;
  private final FileSystem fs;
  private final HdfsConfiguration conf;
  private final ReplayPlan plan;
  private final DemoSettings.GearMode mode;
  private final long seed;
  private final Map<String, String> checksums = new ConcurrentHashMap<>();
  private final AtomicLong readsServed = new AtomicLong();
  private final AtomicLong readsFailed = new AtomicLong();
  private final AtomicLong writesDone = new AtomicLong();
  private final AtomicLong writesFailed = new AtomicLong();
  private final DoubleList readMillis = new DoubleList();
  /** Each served read: milliseconds into the replay at its open, its latency, its host (reads-RUN.tsv). */
  private final List<String> readTimes = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();
  private final Timeline timeline = new Timeline();
  private final PowerLedger ledger;
  private final GearOperator operator;
  private final boolean tty = System.console() != null;
  private long startNanos;
  private long settleMillis;
  private boolean settled;
  private long replayStartEpochMillis;

  private TraceReplay(DemoState state) throws IOException {
    this.state = state;
    this.settings = DemoSettings.load(state.dir().resolve("settings.txt"), List.of());
    this.hosts = state.hosts();
    this.conf = new HdfsConfiguration();
    this.probe = new ClusterProbe(conf, state);
    this.fs = FileSystem.get(conf);
    this.plan = ReplayPlan.of(settings);
    this.mode = settings.gearMode();
    this.seed = settings.longValue("demo.seed");
    this.ledger = new PowerLedger(hosts.hosts().stream().map(DemoHosts.Host::name).toArray(String[]::new));
    this.operator = new GearOperator(probe, mode == DemoSettings.GearMode.MANUAL ? settings.gearSchedule()
        : new GearSchedule(List.of()), plan.durationMillis());
  }

  public static void main(String[] args) throws Exception {
    DemoState state = new DemoState(Paths.get(args[0]));
    int code;
    try {
      code = new TraceReplay(state).run();
    } catch (Exception e) { // the run stopped before its checks: say so on the script's last line
      e.printStackTrace();
      Report.writeVerdict(state, "FAIL: the replay stopped before its checks: " + e);
      code = 1;
    }
    System.exit(code);
  }

  private int run() throws Exception {
    say(String.format(Locale.ROOT, "trace %s, hours %s-%d compressed into %d s: %d reads, %d writes; %d files; gears %s",
        settings.get("demo.trace"), settings.get("demo.trace.start-hour"), settings.integer("demo.trace.start-hour")
            + settings.integer("demo.trace.hours"), plan.durationMillis() / 1000, plan.reads(), plan.writes(),
        plan.fileBytes().length, mode.name().toLowerCase(Locale.ROOT)));
    long began = System.nanoTime();
    if (mode == DemoSettings.GearMode.AUTO && !operator.handOver("before writing the files")) {
      throw new IOException("hdfs eafr gear auto was refused: " + operator.commands().get(0).answer());
    }
    writeCatalog();
    say(String.format(Locale.ROOT, "wrote %d files in %.0f s; waiting for the power state to settle",
        plan.fileBytes().length, (System.nanoTime() - began) / 1e9));
    long eventsBefore = System.currentTimeMillis();
    settleMillis = settle();
    operator.replayStartsAfter(settleMillis);
    replayStartEpochMillis = System.currentTimeMillis();
    replay();
    say("replay done; reading every file back against its checksum");
    int verified = verifyAll();
    Report report = new Report(state, settings, hosts, plan, mode);
    int code = report.write(new Report.Outcome(readsServed.get(), readsFailed.get(), writesDone.get(),
        writesFailed.get(), readMillis, verified, checksums.size(), ledger, operator, timeline, failures,
        eventsBefore, lastView, gearUp, settleMillis, settled, replayStartEpochMillis));
    writeReadTimes();
    return code;
  }

  /** reads-RUN.tsv beside the report: when each read began and how long it took, to see where the slow ones fall. */
  private void writeReadTimes() throws IOException {
    Path results = Paths.get(state.plan().getProperty("root")).resolve("target").resolve("demo-results");
    List<String> lines = new ArrayList<>(List.of(
        "# ms into the replay at open\tlatency ms (open to last byte)\thost that served it"));
    synchronized (readMillis) {
      lines.addAll(readTimes);
    }
    Files.write(results.resolve("reads-" + settings.runName() + ".tsv"), lines);
  }

  private void writeCatalog() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(settings.integer("demo.clients"));
    List<Future<?>> writes = new ArrayList<>();
    for (int i = 0; i < plan.fileBytes().length; i++) {
      int file = i;
      writes.add(pool.submit(() -> write(catalogPath(file), plan.fileBytes()[file], true)));
    }
    for (Future<?> write : writes) {
      write.get();
    }
    pool.shutdown();
    if (writesFailed.get() > 0) {
      throw new IOException(writesFailed.get() + " of the catalog's files could not be written: " + failures);
    }
    writesDone.set(0);
  }

  /**
   * Waits until the cluster's power state has settled ({@link SettleWatch}: the start-up gear-down or the cold
   * servers' power-off done, then a window unchanged), at most {@code demo.settle.max.s}; returns the milliseconds
   * waited. The replay, its energy account and its timeline start after it, from the state a cluster that runs on
   * would be in at the start of the trace slice; every policy, every node on included, waits the same way.
   */
  private long settle() throws InterruptedException {
    long most = settings.longValue("demo.settle.max.s") * 1000;
    SettleWatch watch = new SettleWatch(SettleWatch.windowMillis(conf));
    List<String> ids = hosts.hosts().stream().map(DemoHosts.Host::id).toList();
    // a controller switches hosts: the gears' in auto mode, or the monitor that turns the random layout's cold servers
    boolean controlled = mode == DemoSettings.GearMode.AUTO || !settings.geared();
    long began = System.nanoTime();
    while (true) {
      long now = (System.nanoTime() - began) / 1_000_000;
      ClusterProbe.View view;
      try {
        view = probe.view();
      } catch (IOException e) {
        view = null;
      }
      operator.tick(now, 0, view);
      boolean[] on = probe.hostsOn(hosts.hosts());
      if (view != null && watch.settled(now, SettleWatch.signature(view, ids, on), SettleWatch.steady(view),
          controlled ? view.decisions() : -1)) {
        settled = true;
        say(String.format(Locale.ROOT, "settled in %.0f s: gear %d, %d of %d hosts on; replaying", now / 1000.0,
            view.gear(), count(on), on.length));
        return now;
      }
      if (now >= most) {
        say(String.format(Locale.ROOT, "not settled after %d s (demo.settle.max.s); replaying", most / 1000));
        return now;
      }
      Thread.sleep(settings.longValue("demo.sample.ms"));
    }
  }

  private static int count(boolean[] on) {
    int n = 0;
    for (boolean b : on) {
      n += b ? 1 : 0;
    }
    return n;
  }

  private void replay() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(settings.integer("demo.clients"));
    java.util.concurrent.ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    startNanos = System.nanoTime();
    long sampleMs = settings.longValue("demo.sample.ms");
    sampler.scheduleAtFixedRate(this::sampleQuietly, 0, sampleMs, TimeUnit.MILLISECONDS);
    List<Future<?>> submitted = new ArrayList<>();
    for (ReplayPlan.Op op : plan.ops()) {
      long wait = op.atMillis() - elapsedMillis();
      if (wait > 0) {
        Thread.sleep(wait);
      }
      submitted.add(pool.submit(() -> {
        if (op.read()) {
          read(catalogPath(op.file()));
        } else {
          write(outputPath(op.file()), op.bytes(), false);
        }
      }));
    }
    long rest = plan.durationMillis() - elapsedMillis();
    if (rest > 0) {
      Thread.sleep(rest);
    }
    for (Future<?> op : submitted) {
      op.get();
    }
    pool.shutdown();
    sampler.shutdown();
    sampler.awaitTermination(60, TimeUnit.SECONDS);
    sample();
    if (tty) {
      System.err.println();
    }
  }

  private long elapsedMillis() {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }

  private static String catalogPath(int file) {
    return String.format(Locale.ROOT, "/demo/data/file-%05d", file);
  }

  private static String outputPath(int output) {
    return String.format(Locale.ROOT, "/demo/out/out-%05d", output);
  }

  private void write(String path, long bytes, boolean catalog) {
    // Not NO_LOCAL_WRITE: every DataNode here shares the client's address 127.0.0.1, so the NameNode takes the client
    // for a DataNode drawn at random, and with NO_LOCAL_WRITE HDFS excludes that one from the block's targets; when it
    // was the layout's primary (1 block in 9), no replica landed on a primary and gear 0 was refused (docs/demo.md).
    try (OutputStream out = fs.create(new org.apache.hadoop.fs.Path(path), true)) {
      checksums.put(path, FileContent.write(out, seed, path, bytes));
      writesDone.incrementAndGet();
    } catch (IOException | RuntimeException e) {
      writesFailed.incrementAndGet();
      failure("write " + path + (catalog ? " (catalog)" : "") + ": " + e);
    }
  }

  private void read(String path) {
    long began = System.nanoTime();
    long at = elapsedMillis();
    try (InputStream in = fs.open(new org.apache.hadoop.fs.Path(path))) {
      FileContent.Read read = FileContent.read(in);
      String servedBy = servedBy(in);
      if (!read.md5().equals(checksums.get(path))) {
        throw new IOException("checksum " + read.md5() + " of " + read.length() + " bytes is not the "
            + checksums.get(path) + " written");
      }
      double millis = (System.nanoTime() - began) / 1e6;
      synchronized (readMillis) {
        readMillis.add(millis);
        readTimes.add(String.format(Locale.ROOT, "%d\t%.1f\t%s", at, millis, servedBy));
      }
      readsServed.incrementAndGet();
    } catch (IOException | RuntimeException e) {
      readsFailed.incrementAndGet();
      failure("read " + path + " at " + elapsedMillis() / 1000 + " s: " + e);
    }
  }

  /** The host whose DataNode served the read's last bytes (each file here is one block), by its transfer port. */
  private String servedBy(InputStream in) {
    if (in instanceof org.apache.hadoop.hdfs.client.HdfsDataInputStream hdfs && hdfs.getCurrentDatanode() != null) {
      int port = hdfs.getCurrentDatanode().getXferPort();
      for (DemoHosts.Host host : hosts.hosts()) {
        if (host.xferPort() == port) {
          return host.name().replace(".eafr.local", "");
        }
      }
    }
    return "?";
  }

  private int verifyAll() {
    int verified = 0;
    for (Map.Entry<String, String> file : new java.util.TreeMap<>(checksums).entrySet()) {
      try (InputStream in = fs.open(new org.apache.hadoop.fs.Path(file.getKey()))) {
        if (FileContent.read(in).md5().equals(file.getValue())) {
          verified++;
        } else {
          failure("verify " + file.getKey() + ": checksum differs from the one written");
        }
      } catch (IOException | RuntimeException e) {
        failure("verify " + file.getKey() + ": " + e);
      }
    }
    return verified;
  }

  private void failure(String what) {
    synchronized (failures) {
      if (failures.size() < 20) {
        failures.add(what);
      }
    }
  }

  private long lastReads;
  private long lastWrites;
  private long lastSampleMillis;
  private ClusterProbe.View lastView;
  private final GearUpThroughput gearUp = new GearUpThroughput();
  private boolean gearingUp;
  private long readsAtLastSample;

  private void sampleQuietly() {
    try {
      sample();
    } catch (Exception | Error e) {
      failure("sample at " + elapsedMillis() / 1000 + " s: " + e);
    }
  }

  private synchronized void sample() {
    long now = elapsedMillis();
    ClusterProbe.View view;
    try {
      view = probe.view();
      lastView = view;
    } catch (IOException e) {
      view = null;
    }
    operator.tick(now, view);
    boolean[] on = probe.hostsOn(hosts.hosts());
    double[] utilization = new double[on.length];
    int hostsOn = 0;
    for (int i = 0; i < on.length; i++) {
      hostsOn += on[i] ? 1 : 0;
      utilization[i] = view == null ? 0 : view.loadById().getOrDefault(hosts.hosts().get(i).id(), 0.0);
    }
    double kwhBefore = ledger.kilowattHours();
    ledger.record(now, on, utilization);
    gearUp.add(gearingUp, readsServed.get() - readsAtLastSample, (ledger.kilowattHours() - kwhBefore) * 3.6e6);
    readsAtLastSample = readsServed.get();
    gearingUp = view != null && GearOperator.gearingUp(view);
    double seconds = (now - lastSampleMillis) / 1000.0;
    long reads = readsServed.get() + readsFailed.get();
    long writes = writesDone.get() + writesFailed.get();
    // a rate over less than half a sample period (the first sample, the closing one) would be noise
    boolean rated = seconds * 1000 >= settings.longValue("demo.sample.ms") / 2.0;
    double readRate = rated ? (reads - lastReads) / seconds : 0;
    double writeRate = rated ? (writes - lastWrites) / seconds : 0;
    int buckets = (int) Math.max(1, plan.durationMillis() / 10_000);
    int[] planned = plan.opsPerWindow(buckets);
    int bucket = (int) Math.min(buckets - 1, now * buckets / plan.durationMillis());
    double plannedRate = planned[bucket] / (plan.durationMillis() / 1000.0 / buckets);
    if (rated || now == 0) {
      lastReads = reads;
      lastWrites = writes;
      lastSampleMillis = now;
    }
    int gear = view == null ? -1 : GearOperator.inService(view);
    timeline.add(new Timeline.Sample(now / 1000.0, readRate, writeRate, plannedRate, gear, hostsOn,
        ledger.wattsNow(), ledger.wattsAllOnNow()));
    String line = String.format(Locale.ROOT,
        "[%2d:%02d / %d:%02d %3.0f%%] gear %s%s | DataNodes on %d/%d | reads/s %5.1f writes/s %5.1f | %4.0f W"
            + " (all on %4.0f W) | reads %d, failed %d", now / 60000, now / 1000 % 60,
        plan.durationMillis() / 60000, plan.durationMillis() / 1000 % 60, Math.min(100.0, 100.0 * now
            / plan.durationMillis()), gear < 0 ? "n/a" : String.valueOf(gear), phaseLabel(view), hostsOn, on.length, readRate, writeRate, ledger.wattsNow(),
        ledger.wattsAllOnNow(), readsServed.get(), readsFailed.get());
    if (tty) {
      System.err.print("\r" + line + "   ");
    } else if (timeline.samples().size() % 10 == 1) {
      System.err.println(line);
    }
    System.err.flush();
  }

  /** Empty when steady; the shift's phase and target while one is under way. */
  private static String phaseLabel(ClusterProbe.View view) {
    if (view == null || view.phase().equals("STEADY")) {
      return "";
    }
    String phase = view.phase().toLowerCase(Locale.ROOT).replace('_', ' ');
    return view.phase().equals("REFLECTING") ? " (reflecting)" : " (" + phase + " to " + view.targetGear() + ")";
  }

  private void say(String message) {
    System.err.println((tty ? "\n" : "") + "[demo] " + message);
  }

  static Properties load(Path file) throws IOException {
    Properties properties = new Properties();
    if (Files.exists(file)) {
      try (InputStream in = Files.newInputStream(file)) {
        properties.load(in);
      }
    }
    return properties;
  }
}
