package org.eafr.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;

/**
 * {@code scripts/local-cluster.sh smoke}: one EAFR round on the local cluster, judged by what the NameNode says
 * ({@code hdfs eafr status -json}, its JMX beans, the files' replication factors), never by its log text. Right after a
 * round ends (a fresh read interval) it writes three files with replication 3 and reads one of them 40 times; the next
 * round must find the two unread files COLD and lower them to r = 2 (Alg. 1 DELETE) while the read one keeps its
 * replicas (its reads counted), and every byte must read back.
 */
final class LocalClusterSmoke {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int READS = 40;
  private static final int KIB = 1024;

  private final LocalClusterTool cluster;
  private final Configuration conf;
  private final List<String> failed = new ArrayList<>();
  private int passed;

  LocalClusterSmoke(LocalClusterTool cluster, Configuration conf) {
    this.cluster = cluster;
    this.conf = conf;
  }

  boolean run() throws IOException, InterruptedException {
    if (cluster.dataNodes() < 3) {
      LocalClusterTool.log("smoke needs at least 3 DataNodes (files are written with replication 3)");
      return false;
    }
    int roundSeconds = (int) (conf.getLong("eafr.interval.ms", 20000) / 1000) + 60;
    Random random = new Random(1);
    byte[] hot = bytes(random, 512 * KIB);
    byte[] cold1 = bytes(random, 512 * KIB);
    byte[] cold2 = bytes(random, 2560 * KIB); // 3 blocks of at most 1 MiB
    Path run = new Path("/smoke/run-" + System.currentTimeMillis());
    try (DistributedFileSystem fs = (DistributedFileSystem) FileSystem.get(conf)) {
      long before = rounds();
      LocalClusterTool.log("smoke in " + run + ": waiting for a monitor round to end (the reads fall in one interval)");
      if (!LocalClusterTool.poll(roundSeconds, "a replication round", () -> rounds() > before)) {
        return false;
      }
      long synced = rounds();
      long removedBefore = removed();
      write(fs, new Path(run, "hot.bin"), hot);
      write(fs, new Path(run, "cold-1.bin"), cold1);
      write(fs, new Path(run, "cold-2.bin"), cold2);
      boolean readsEqual = true;
      for (int i = 0; i < READS; i++) {
        readsEqual &= Arrays.equals(hot, read(fs, new Path(run, "hot.bin")));
      }
      LocalClusterTool.log("wrote 3 files (replication 3) and read hot.bin " + READS + " times");
      System.out.println("the next round's plan for " + run + " (hdfs eafr plan):");
      ClusterProbe.admin(conf, "plan").text().lines().filter(line -> line.contains(run.toString()))
          .forEach(line -> System.out.println("  " + line.trim()));
      LocalClusterTool.poll(roundSeconds, "the next round", () -> rounds() > synced);
      LocalClusterTool.poll(30, "EAFR to lower the cold files' replication",
          () -> replication(fs, new Path(run, "cold-1.bin")) < 3 && replication(fs, new Path(run, "cold-2.bin")) < 3);
      // Right after this round: later rounds go on (the read file, unread since, turns cold; cold files migrate).
      short[] factors = {replication(fs, new Path(run, "hot.bin")), replication(fs, new Path(run, "cold-1.bin")),
          replication(fs, new Path(run, "cold-2.bin"))};
      LocalClusterTool.poll(roundSeconds, "the monitor to count both removals",
          () -> removed() - removedBefore >= 2);
      judge(fs, run, readsEqual, List.of(hot, cold1, cold2), factors, removedBefore);
    }
    System.out.println("smoke: " + passed + " passed, " + failed.size() + " failed");
    System.out.println(failed.isEmpty() ? "PASS" : "FAIL");
    return failed.isEmpty();
  }

  private void judge(DistributedFileSystem fs, Path run, boolean readsEqual, List<byte[]> contents, short[] factors,
      long removedBefore) throws IOException, InterruptedException {
    DatanodeInfo[] live = fs.getDataNodeStats(DatanodeReportType.LIVE);
    Set<String> racks = new TreeSet<>();
    Arrays.stream(live).forEach(node -> racks.add(node.getNetworkLocation()));
    check(cluster.dataNodes() + " live DataNodes on " + cluster.racks() + " racks (found " + live.length + " on "
        + racks + ")", live.length == cluster.dataNodes() && racks.size() == cluster.racks());
    check("the " + READS + " reads of hot.bin returned its bytes", readsEqual);
    JsonNode status = status();
    short hot = factors[0];
    short cold1 = factors[1];
    short cold2 = factors[2];
    long removed = status.path("monitor").path("replicasRemoved").asLong() - removedBefore;
    check("that round lowered the unread (COLD) files' replication 3 -> 2 (" + cold1 + ", " + cold2
        + "; replicas removed since the reads " + removed + ")", cold1 == 2 && cold2 == 2 && removed >= 2);
    check("hot.bin kept replication 3 or gained a replica in that round, so its reads were counted (" + hot + ")",
        hot >= 3);
    NameNodeJmx jmx = cluster.jmx();
    check("metrics source " + NameNodeJmx.EAFR_BEAN + " has RoundsTotal >= 1 (JMX caches values up to 10 s)",
        LocalClusterTool.poll(15, "RoundsTotal in JMX", () -> jmx.eafrMetric("RoundsTotal").orElse(0L) >= 1));
    check("hdfs eafr status shows no roles problem (" + status.path("rolesProblem").asText() + ")",
        status.path("rolesProblem").isNull());
    String[] names = {"hot.bin", "cold-1.bin", "cold-2.bin"};
    boolean same = true;
    for (int i = 0; i < names.length; i++) {
      same &= Arrays.equals(contents.get(i), read(fs, new Path(run, names[i])));
    }
    check("every file reads back byte for byte", same);
  }

  private void check(String what, boolean ok) {
    System.out.println((ok ? "  PASS  " : "  FAIL  ") + what);
    if (ok) {
      passed++;
    } else {
      failed.add(what);
    }
  }

  private JsonNode status() {
    ClusterProbe.Answer answer = ClusterProbe.admin(conf, "status", "-json");
    try {
      return answer.code() == 0 ? JSON.readTree(answer.text()) : JSON.createObjectNode();
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }

  private long rounds() {
    return status().path("monitor").path("rounds").asLong(-1);
  }

  private long removed() {
    return status().path("monitor").path("replicasRemoved").asLong(-1);
  }

  private static short replication(FileSystem fs, Path file) {
    try {
      return fs.getFileStatus(file).getReplication();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] bytes(Random random, int length) {
    byte[] data = new byte[length];
    random.nextBytes(data);
    return data;
  }

  private static void write(FileSystem fs, Path file, byte[] data) throws IOException {
    try (OutputStream out = fs.create(file, (short) 3)) {
      out.write(data);
    }
  }

  private static byte[] read(FileSystem fs, Path file) throws IOException {
    try (InputStream in = fs.open(file)) {
      return in.readAllBytes();
    }
  }
}
