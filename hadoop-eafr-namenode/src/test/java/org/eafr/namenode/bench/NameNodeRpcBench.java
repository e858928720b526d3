package org.eafr.namenode.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.namenode.NNThroughputBenchmark;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;

/**
 * One run of scripts/bench-namenode-rpc.sh against a NameNode process over RPC, as a new user would measure it:
 * Hadoop's NNThroughputBenchmark in remote mode for {@code create}, {@code open} (first reads of the interval, then
 * repeat reads of the same files) and {@code fileStatus}, then {@code getBlockLocations} of files whose blocks lie on
 * several DataNodes (so the reader ordering runs), and the NameNode's live heap after a full GC before and after the
 * first reads. Each phase also gives the NameNode's CPU time per operation ({@link ProcessCpu}; it includes the
 * phase's untimed setup and clean-up, such as NNThroughputBenchmark's saveNamespace), which others' load on a shared
 * machine disturbs less than ops/s. Each figure is appended as a {@link PairedRuns} line.
 *
 * <pre>
 *   prepare --fs URI --blocks-dir D --block-files K     write K one-block files (replication 3) once, wait for them
 *   run --fs URI --pair N --label stock|eafr --files F --threads T --blocks-dir D --block-files K
 *       --gbl-ops N --passes P --nn-pid PID --out FILE   one run's figures, appended to FILE (repeat reads,
 *                                                        fileStatus and getBlockLocations: median of P passes)
 *   report FILE                                          every run's figures and the pairwise ratios
 * </pre>
 */
public final class NameNodeRpcBench {
  static final List<String> RATIO_METRICS =
      List.of("create", "open-first", "open-repeat", "fileStatus", "getBlockLocations");
  static final String CPU_PREFIX = "nn-cpu-us-per-op:";
  /** getBlockLocations calls before the first reads, untimed (the open path's JIT warm-up). */
  static final int WARM_UP_OPENS = 20_000;
  private static final String NNTB_DIR = "/nnThroughputBenchmark";
  /** NNThroughputBenchmark's base directory for the untimed first reads of other files before the timed ones. */
  private static final String WARM_UP_DIR = "/nnThroughputBenchmark-warm-up";
  private static final Pattern OPS_PER_SECOND = Pattern.compile("Ops per sec: ([0-9.]+)");

  private final Map<String, String> options;
  private final Configuration conf = new HdfsConfiguration();

  private NameNodeRpcBench(Map<String, String> options) {
    this.options = options;
    conf.set(FileSystem.FS_DEFAULT_NAME_KEY, option("fs"));
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      throw new IllegalArgumentException("expected a command: prepare, run or report");
    }
    switch (args[0]) {
      case "report":
        List<String> lines = Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8);
        List<String> ratioMetrics = new ArrayList<>(RATIO_METRICS);
        RATIO_METRICS.forEach(metric -> ratioMetrics.add(CPU_PREFIX + metric));
        System.out.print(PairedRuns.parse(lines).report(ratioMetrics));
        return;
      case "prepare":
        new NameNodeRpcBench(options(args)).prepare();
        return;
      case "run":
        new NameNodeRpcBench(options(args)).run();
        return;
      default:
        throw new IllegalArgumentException("command " + args[0] + " is not allowed: expected prepare, run or report");
    }
  }

  /** --key value pairs after the command. */
  static Map<String, String> options(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 1; i < args.length; i += 2) {
      if (!args[i].startsWith("--") || i + 1 == args.length) {
        throw new IllegalArgumentException("argument " + args[i] + " is not allowed: expected --key value");
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    return options;
  }

  private String option(String key) {
    String value = options.get(key);
    if (value == null) {
      throw new IllegalArgumentException("--" + key + " is missing");
    }
    return value;
  }

  private int intOption(String key) {
    try {
      int value = Integer.parseInt(option(key));
      if (value >= 1) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("--" + key + " " + option(key) + " is not allowed: expected an integer >= 1");
  }

  private void prepare() throws IOException, InterruptedException {
    DistributedFileSystem dfs = dfs();
    Path dir = new Path(option("blocks-dir"));
    byte[] data = new byte[1024];
    for (int i = 0; i < intOption("block-files"); i++) {
      Path file = blockFile(dir, i);
      if (!dfs.exists(file)) {
        try (FSDataOutputStream out = dfs.create(file, (short) 3)) {
          out.write(data);
        }
      }
    }
    locatedPaths(dfs.getClient().getNamenode(), 120_000);
  }

  private void run() throws Exception {
    int pair = intOption("pair");
    String label = option("label");
    int files = intOption("files");
    long pid = Long.parseLong(option("nn-pid"));
    DistributedFileSystem dfs = dfs();
    List<String> figures = new ArrayList<>();
    dfs.delete(new Path(NNTB_DIR), true);

    int passes = intOption("passes");
    Phase phase = new Phase(pair, label, pid, figures);
    // create and first reads happen once per file per run; the repeatable phases run --passes times (median kept).
    phase.add("create", () -> throughput("create", "-keepResults", "-close"), files, 1);
    // Untimed: the open path's first calls in this NameNode process (JIT compilation of getBlockLocations, the audit
    // loggers and, with EAFR, the read counting) on other files, so that open-first measures files read for the first
    // time in the interval, not the process's first opens (with the warm-up inside the timed pass, EAFR's first reads
    // measured 0.80x stock's while its repeat reads measured 1.02x).
    blockLocationsPerSecond(dfs, WARM_UP_OPENS);
    // Untimed as well: NNThroughputBenchmark's own open of --files other empty files, each read once (their first
    // reads), then deleted. The getBlockLocations above compile the path of files with blocks; without this, the
    // NameNode's JIT compiled the empty-file open path inside the timed first-read pass (JFR: C2 compiler
    // threads used more CPU than the IPC handlers during that 2 s pass, in both NameNodes; the repeat reads that
    // follow ran 3x faster).
    throughput("open", "-baseDirName", WARM_UP_DIR);
    long before = LiveHeap.measure(pid);
    int[] firstPass = {0};
    phase.add("open-first", () -> firstReads(dfs, ++firstPass[0], passes), files, passes);
    long after = LiveHeap.measure(pid);
    figures.add(PairedRuns.line(pair, label, "heap-bytes-per-opened-file",
        (double) (after - before) / files / passes));
    phase.add("open-repeat", () -> throughput("open", "-useExisting", "-keepResults"), files, passes);
    dfs.setSafeMode(SafeModeAction.SAFEMODE_LEAVE);
    dfs.rename(new Path(NNTB_DIR + "/open"), new Path(NNTB_DIR + "/create"));
    phase.add("fileStatus", () -> throughput("fileStatus", "-useExisting", "-keepResults"), files, passes);
    phase.add("getBlockLocations", () -> blockLocationsPerSecond(dfs, intOption("gbl-ops")), intOption("gbl-ops"),
        passes);

    Files.write(Paths.get(option("out")), figures, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    figures.forEach(System.out::println);
  }

  /**
   * Measures one phase's ops/s and the NameNode's CPU per op, and adds both figures: with several passes, the median
   * pass of each (a pass disturbed by a GC or a neighbour's burst moves a single figure by 20% on this VM).
   */
  private static final class Phase {
    private final int pair;
    private final String label;
    private final long pid;
    private final List<String> figures;

    Phase(int pair, String label, long pid, List<String> figures) {
      this.pair = pair;
      this.label = label;
      this.pid = pid;
      this.figures = figures;
    }

    void add(String metric, Callable<Double> opsPerSecond, int ops, int passes) throws Exception {
      double[] throughput = new double[passes];
      double[] cpuPerOp = new double[passes];
      for (int pass = 0; pass < passes; pass++) {
        long cpuBefore = ProcessCpu.micros(pid);
        throughput[pass] = opsPerSecond.call();
        cpuPerOp[pass] = (double) (ProcessCpu.micros(pid) - cpuBefore) / ops;
      }
      figures.add(PairedRuns.line(pair, label, metric, PairedRuns.median(throughput)));
      figures.add(PairedRuns.line(pair, label, CPU_PREFIX + metric, PairedRuns.median(cpuPerOp)));
    }
  }

  /**
   * First-read pass {@code pass} of {@code passes}: the files' directory is renamed first (untimed), so each pass
   * opens paths never read before in this interval (the read counter knows a file by its path); the last pass reads
   * them under NNThroughputBenchmark's own base directory, where the repeat reads follow. A single pass of 20,000
   * opens lasts about a second here, too short to be one pair's figure; the median of the passes is.
   */
  private double firstReads(DistributedFileSystem dfs, int pass, int passes) throws Exception {
    String from = pass == 1 ? NNTB_DIR : NNTB_DIR + "-first-" + (pass - 1);
    String to = pass == passes ? NNTB_DIR : NNTB_DIR + "-first-" + pass;
    if (!from.equals(to)) {
      dfs.setSafeMode(SafeModeAction.SAFEMODE_LEAVE); // NNThroughputBenchmark's clean-up entered it
      if (!dfs.rename(new Path(from), new Path(to))) {
        throw new IOException("could not rename " + from + " to " + to);
      }
    }
    return throughput("open", "-useExisting", "-keepResults", "-baseDirName", to);
  }

  /** NNThroughputBenchmark's ops/s for {@code op} over --files files from --threads threads. */
  private double throughput(String op, String... flags) throws Exception {
    List<String> args = new ArrayList<>(List.of("-op", op, "-threads", option("threads"), "-files", option("files")));
    args.addAll(List.of(flags));
    OpsPerSecond capture = new OpsPerSecond();
    Logger logger = Logger.getLogger(NNThroughputBenchmark.class);
    logger.setLevel(Level.INFO);
    logger.addAppender(capture);
    try {
      NNThroughputBenchmark.runBenchmark(new HdfsConfiguration(conf), args.toArray(new String[0]));
    } finally {
      logger.removeAppender(capture);
    }
    if (Double.isNaN(capture.opsPerSecond)) {
      throw new IOException("NNThroughputBenchmark " + args + " printed no 'Ops per sec'");
    }
    return capture.opsPerSecond;
  }

  /**
   * getBlockLocations calls per second from --threads threads, {@code calls} in all, over the prepared files round robin
   * (each thread starts at its own offset). Every call goes through the audit logger and orders the block's replicas.
   */
  private double blockLocationsPerSecond(DistributedFileSystem dfs, int calls) throws Exception {
    ClientProtocol namenode = dfs.getClient().getNamenode();
    List<String> paths = locatedPaths(namenode, 60_000);
    int threads = intOption("threads");
    int opsPerThread = calls / threads;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      long start = System.nanoTime();
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int offset = t * paths.size() / threads;
        done.add(pool.submit(() -> {
          for (int i = 0; i < opsPerThread; i++) {
            namenode.getBlockLocations(paths.get((offset + i) % paths.size()), 0, 1);
          }
          return null;
        }));
      }
      for (Future<?> thread : done) {
        thread.get();
      }
      return opsPerThread * (double) threads * 1e9 / (System.nanoTime() - start);
    } finally {
      pool.shutdownNow();
    }
  }

  /** The prepared files, once every one has a block on 3 DataNodes (the NameNode may have just restarted). */
  private List<String> locatedPaths(ClientProtocol namenode, long timeoutMillis)
      throws IOException, InterruptedException {
    Path dir = new Path(option("blocks-dir"));
    int count = intOption("block-files");
    List<String> paths = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      paths.add(blockFile(dir, i).toUri().getPath());
    }
    long deadline = System.currentTimeMillis() + timeoutMillis;
    int next = 0;
    while (next < count) {
      LocatedBlocks blocks = namenode.getBlockLocations(paths.get(next), 0, 1);
      if (blocks != null && blocks.locatedBlockCount() == 1 && blocks.get(0).getLocations().length == 3) {
        next++;
      } else if (System.currentTimeMillis() > deadline) {
        throw new IOException(paths.get(next) + " has no block on 3 DataNodes after " + timeoutMillis + " ms");
      } else {
        Thread.sleep(200);
      }
    }
    return paths;
  }

  private static Path blockFile(Path dir, int index) {
    return new Path(dir, String.format("f-%06d", index));
  }

  private DistributedFileSystem dfs() throws IOException {
    return (DistributedFileSystem) FileSystem.get(conf);
  }

  /** Keeps the last "Ops per sec" NNThroughputBenchmark logs. */
  private static final class OpsPerSecond extends AppenderSkeleton {
    volatile double opsPerSecond = Double.NaN;

    @Override
    protected void append(LoggingEvent event) {
      Matcher matcher = OPS_PER_SECOND.matcher(String.valueOf(event.getMessage()));
      if (matcher.find()) {
        opsPerSecond = Double.parseDouble(matcher.group(1));
      }
    }

    @Override
    public void close() {
    }

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }
}
