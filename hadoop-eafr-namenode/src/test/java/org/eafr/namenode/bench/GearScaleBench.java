package org.eafr.namenode.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.eafr.namenode.cluster.BlocksWithoutLiveReplica;
import org.eafr.namenode.gear.GearScaleProbe;
import org.eafr.namenode.relayout.RelayoutDryRun;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.gear.UnavailableBlock;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.relayout.RelayoutSettings;

/**
 * scripts/bench-gear-scale.sh: the gear service's block-map walks timed against a real, in-process NameNode holding
 * a synthetic block map ({@link SyntheticBlockMap}: one-block files, r = 3, on 12 DataNodes laid out equal-work with
 * p = 4 primaries and gear groups of g = 2, so gears 0..4 keep 4, 6, 8, 10, 12 on), with the longest namesystem lock
 * hold as HDFS's own lock reporting gives it ({@link LockHoldReports}).
 *
 * <p>At the first size every block is placed by the layout with every DataNode on; every later size adds blocks
 * placed with the top gear group asleep, so the replicas on the two DataNodes a gear-down from the top gear switches
 * off stay the same while the namespace grows: the check's cost against the namespace, with the work that changes
 * held fixed. Timed, each {@code --repeats} times (median reported):
 * <ul>
 *   <li>the gear-down availability check (the gear service's {@code NamespaceFloor}, which walks the block lists of
 *       the DataNodes that would leave) from the top gear to the next (2 DataNodes leave) and to gear 0 (8 leave);
 *       every block keeps a replica, so each walk visits all it would visit;</li>
 *   <li>as the baseline, the same question answered by a walk of the whole namespace ({@link
 *       NamespaceWalkBaseline});</li>
 *   <li>one scan of wake detection over HDFS's low-redundancy queue ({@link BlocksWithoutLiveReplica}, at most
 *       {@link GearScaleProbe#wakeScanLimit} blocks), the queue filled by raising the replication of twice that many
 *       files;</li>
 *   <li>one relayout planning pass over the whole map ({@link RelayoutDryRun}: the relayout service's first walk,
 *       planned and nothing moved), whole-namespace by nature, once per {@code --planning-batch-files} value of
 *       {@code eafr.relayout.batch-files} (by default 64, the setting's default, and 1000, one listing page).</li>
 * </ul>
 *
 * <pre>
 *   GearScaleBench --sizes 1000000,5000000 --repeats 3 --lock-threshold-ms 5 --planning-batch-files 64,1000
 *       --dir DIR --out FILE
 * </pre>
 */
public final class GearScaleBench {
  static final int DATANODES = 12;
  static final int PRIMARIES = 4;
  static final int GROUP = 2;
  static final int REPLICAS = 3;

  /** The JDK's per-thread allocation counts (HotSpot's ThreadMXBean). */
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private final NameNode nameNode;
  private final SyntheticBlockMap map;
  private final GearedLayout layout;
  private final LockHoldReports locks;
  private final int repeats;
  private final int[] planningBatches;
  private final List<Row> rows = new ArrayList<>();

  GearScaleBench(NameNode nameNode, SyntheticBlockMap map, LockHoldReports locks, int repeats,
      int[] planningBatches) {
    this.nameNode = nameNode;
    this.map = map;
    this.locks = locks;
    this.repeats = repeats;
    this.planningBatches = planningBatches.clone();
    List<Server> servers = new ArrayList<>();
    map.ids().forEach(id -> servers.add(Server.builder(id).build()));
    this.layout = new EqualWorkLayout(ExpansionChain.of(servers), PRIMARIES, GROUP, REPLICAS);
  }

  /**
   * A NameNode with no DataNodes for a run, its metadata (one name directory, edits included) under {@code baseDir}:
   * the synthetic map's settings, and every lock hold from {@code thresholdMillis} logged.
   */
  static MiniDFSCluster cluster(String baseDir, long thresholdMillis) throws IOException {
    Configuration conf = new HdfsConfiguration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDir);
    conf.set(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, Paths.get(baseDir, "name").toUri().toString());
    SyntheticBlockMap.configure(conf);
    LockHoldReports.configure(conf, thresholdMillis);
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(0).manageNameDfsDirs(false).build();
    cluster.waitActive();
    return cluster;
  }

  public static void main(String[] args) throws Exception {
    long[] sizes = {1_000_000, 5_000_000};
    int repeats = 3;
    long threshold = 5;
    String dir = "target/bench-gear-scale";
    String out = null;
    int[] planningBatches = {RelayoutSettings.defaults().batchFiles(), SyntheticBlockMap.FILES_PER_DIRECTORY};
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--sizes":
          sizes = Arrays.stream(args[i + 1].split(",")).mapToLong(Long::parseLong).sorted().toArray();
          break;
        case "--repeats":
          repeats = Integer.parseInt(args[i + 1]);
          break;
        case "--planning-batch-files":
          planningBatches = Arrays.stream(args[i + 1].split(",")).mapToInt(Integer::parseInt).toArray();
          break;
        case "--lock-threshold-ms":
          threshold = Long.parseLong(args[i + 1]);
          break;
        case "--dir":
          dir = args[i + 1];
          break;
        case "--out":
          out = args[i + 1];
          break;
        default:
          throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    MiniDFSCluster cluster = cluster(dir, threshold);
    try {
      LockHoldReports locks = LockHoldReports.attach(threshold);
      NameNode nameNode = cluster.getNameNode();
      GearScaleBench bench = new GearScaleBench(nameNode, SyntheticBlockMap.start(nameNode, DATANODES), locks,
          repeats, planningBatches);
      for (int s = 0; s < sizes.length; s++) {
        bench.measureAt(sizes[s], s == 0);
      }
      String report = bench.report();
      System.out.print(report);
      if (out != null) {
        Files.write(Paths.get(out), report.getBytes(StandardCharsets.UTF_8), StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING);
      }
    } finally {
      cluster.shutdown();
    }
  }

  /** Grows the map to {@code blocks} blocks (the first size with every DataNode on) and times each walk there. */
  void measureAt(long blocks, boolean first) throws IOException {
    int top = layout.maximumGear();
    ActiveSet everyone = layout.serversOn(top);
    ActiveSet belowTop = layout.serversOn(top - 1);
    ActiveSet placeOn = first ? everyone : belowTop;
    long built = System.nanoTime();
    map.growTo(blocks, n -> layout.place(BlockRequest.of("synthetic-" + n, REPLICAS), placeOn).holderIds());
    log("%,d blocks written in %.0f s", blocks, (System.nanoTime() - built) / 1e9);
    if (first) {
      queueForWakeScan();
    }
    Predicate<String> live = id -> {
      DatanodeDescriptor dn = map.descriptor(id);
      return dn != null && dn.isAlive() && dn.isInService();
    };
    NamespaceWalkBaseline namespaceWalk = new NamespaceWalkBaseline(nameNode, live);
    for (int gear : new int[] {top - 1, 0}) {
      ActiveSet staysOn = layout.serversOn(gear);
      long changing = replicasOn(everyone.minus(staysOn));
      Timing before = time(() -> {
        try {
          return namespaceWalk.firstUnavailable(staysOn);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      add(new Row(blocks, "namespace walk " + top + " -> " + gear, blocks, changing, before));
      long[] visited = new long[1];
      Timing timing = time(() -> GearScaleProbe.gearDownCheck(nameNode, live, staysOn, visited));
      add(new Row(blocks, "gear-down check " + top + " -> " + gear, visited[0] / repeats, changing, timing));
    }
    int[] examined = new int[1];
    Timing wake = time(() -> {
      examined[0] = BlocksWithoutLiveReplica.scan(nameNode.getNamesystem(), GearScaleProbe.wakeScanLimit(),
          (b, h) -> true);
      return Optional.<UnavailableBlock>empty();
    });
    add(new Row(blocks, "wake detection scan", examined[0], -1, wake));
    for (int batchFiles : planningBatches) {
      RelayoutSettings settings = RelayoutSettings.from(
          key -> key.equals(RelayoutSettings.BATCH_FILES.key()) ? String.valueOf(batchFiles) : null);
      RelayoutDryRun.Result[] plan = new RelayoutDryRun.Result[1];
      Timing planning = time(() -> {
        try {
          plan[0] = RelayoutDryRun.plan(nameNode, layout, settings);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        return Optional.empty();
      });
      log("relayout plan at %,d blocks, %d files a batch: %s", blocks, batchFiles, plan[0]);
      add(new Row(blocks, "relayout plan " + batchFiles + "/batch", plan[0].report().blocks(), -1, planning));
    }
  }

  /** Raises the replication of twice the wake scan's limit of files, so the scan visits its full limit. */
  private void queueForWakeScan() throws IOException {
    int files = (int) Math.min(map.files(), 2L * GearScaleProbe.wakeScanLimit());
    for (int n = 0; n < files; n++) {
      nameNode.getRpcServer().setReplication(SyntheticBlockMap.path(n), (short) (REPLICAS + 1));
    }
  }

  private long replicasOn(ActiveSet servers) {
    long replicas = 0;
    for (String id : servers.ids()) {
      replicas += map.descriptor(id).numBlocks();
    }
    return replicas;
  }

  private Timing time(Supplier<Optional<UnavailableBlock>> walk) {
    double[] seconds = new double[repeats];
    long longestRead = 0;
    long longHolds = 0;
    long allocated = 0;
    for (int r = 0; r < repeats; r++) {
      locks.reset();
      long allocatedBefore = THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
      long start = System.nanoTime();
      Optional<UnavailableBlock> gap = walk.get();
      seconds[r] = (System.nanoTime() - start) / 1e9;
      allocated += THREADS.getThreadAllocatedBytes(Thread.currentThread().getId()) - allocatedBefore;
      longestRead = Math.max(longestRead, locks.longestReadMillis());
      longHolds += locks.readReports();
      if (gap.isPresent()) {
        throw new IllegalStateException("the synthetic layout left a block without a live replica: " + gap.get());
      }
    }
    Arrays.sort(seconds);
    return new Timing(seconds[repeats / 2], longestRead, longHolds / repeats, allocated / repeats);
  }

  private void add(Row row) {
    rows.add(row);
    log("%s", line(row, locks.thresholdMillis()).trim());
  }

  private static String line(Row row, long thresholdMillis) {
    return String.format("%,12d  %-24s  %,12d  %14s  %10.3f  %,14.0f  %16s  %10d  %12.0f%n", row.blocks, row.walk,
        row.walked, row.changing < 0 ? "-" : String.format("%,d", row.changing), row.timing.seconds,
        row.timing.seconds * 1e9 / row.walked,
        row.timing.longestRead >= thresholdMillis ? row.timing.longestRead + " ms" : "< " + thresholdMillis + " ms",
        row.timing.longHolds, (double) row.timing.allocatedBytes / Math.max(1, row.walked));
  }

  /** The table: one row per walk and size, then each walk's cost at the largest size against the smallest. */
  String report() {
    long thresholdMillis = locks.thresholdMillis();
    StringBuilder text = new StringBuilder();
    text.append(String.format("%-12s  %-24s  %12s  %14s  %10s  %14s  %16s  %10s  %12s%n", "blocks", "walk",
        "blocks walked", "on changing DN", "s / walk", "ms / 10^6 blk", "longest read-lock",
        "holds >= " + thresholdMillis + "ms", "B alloc/blk"));
    for (Row row : rows) {
      text.append(line(row, thresholdMillis));
    }
    text.append(String.format("scaling (largest / smallest size, replicas on the changing DataNodes fixed):%n"));
    for (Row last : rows) {
      Row base = rows.stream().filter(row -> row.walk.equals(last.walk)).findFirst().orElseThrow();
      boolean largest = rows.stream().noneMatch(row -> row.walk.equals(last.walk) && row.blocks > last.blocks);
      if (last.blocks != base.blocks && largest) {
        text.append(String.format("  %-24s  namespace x%.2f, replicas on changing DataNodes x%.2f, time x%.2f%n",
            last.walk, (double) last.blocks / base.blocks, base.changing <= 0 ? 1.0
                : (double) last.changing / base.changing, last.timing.seconds / base.timing.seconds));
      }
    }
    return text.toString();
  }

  private static void log(String format, Object... args) {
    System.err.printf("[bench-gear-scale] " + format + "%n", args);
  }

  private static final class Timing {
    final double seconds;
    final long longestRead;
    /** Read-lock holds at or over the reporting threshold, per walk. */
    final long longHolds;
    /** Bytes the walking thread allocated (JDK's per-thread count), per walk. */
    final long allocatedBytes;

    Timing(double seconds, long longestRead, long longHolds, long allocatedBytes) {
      this.seconds = seconds;
      this.longestRead = longestRead;
      this.longHolds = longHolds;
      this.allocatedBytes = allocatedBytes;
    }
  }

  private static final class Row {
    final long blocks;
    final String walk;
    final long walked;
    final long changing;
    final Timing timing;

    Row(long blocks, String walk, long walked, long changing, Timing timing) {
      this.blocks = blocks;
      this.walk = walk;
      this.walked = walked;
      this.changing = changing;
      this.timing = timing;
    }
  }
}
