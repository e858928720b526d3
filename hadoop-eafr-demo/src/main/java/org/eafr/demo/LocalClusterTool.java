package org.eafr.demo;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;

/**
 * What {@code scripts/local-cluster.sh} asks of Java (the script only builds, starts and stops processes):
 * <ul>
 *   <li>{@code ports STATE N RACKS}: keeps the ports of STATE/cluster.env when every one is free, else picks new ones;
 *   <li>{@code conf STATE REPO INTERVAL_MS NAME_DIR}: the cluster's configuration ({@link SiteFiles}, as the demo's);
 *   <li>{@code wait STATE up|ready|eafr SECONDS}: the NameNode's web server; N live DataNodes and out of safe mode
 *       (JMX, {@link NameNodeJmx}); the EAFR plugin answering {@code hdfs eafr status};
 *   <li>{@code status STATE}: each DataNode as the NameNode sees it and EAFR's metrics;
 *   <li>{@code smoke STATE}: one EAFR round checked ({@link LocalClusterSmoke}).
 * </ul>
 * A wait that times out names what it waited for and exits 1.
 */
public final class LocalClusterTool {
  private final Path state;
  private final Properties env;

  private LocalClusterTool(Path state, Properties env) {
    this.state = state;
    this.env = env;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: LocalClusterTool ports|conf|wait|status|smoke STATE ...");
      System.exit(2);
    }
    Path state = Paths.get(args[1]).toAbsolutePath();
    if (args[0].equals("ports")) {
      ports(state, Integer.parseInt(args[2]), Integer.parseInt(args[3]));
      return;
    }
    LocalClusterTool cluster = new LocalClusterTool(state, load(state.resolve("cluster.env")));
    switch (args[0]) {
      case "conf":
        cluster.writeConf(Paths.get(args[2]), args[3], Paths.get(args[4]));
        break;
      case "wait":
        System.exit(cluster.await(args[2], Integer.parseInt(args[3])) ? 0 : 1);
        break;
      case "status":
        cluster.status();
        break;
      case "smoke":
        System.exit(new LocalClusterSmoke(cluster, new HdfsConfiguration()).run() ? 0 : 1);
        break;
      default:
        System.err.println("LocalClusterTool: unknown command '" + args[0] + "'");
        System.exit(2);
    }
  }

  private static Properties load(Path file) throws IOException {
    Properties env = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      env.load(in);
    }
    return env;
  }

  /** Keeps the stored ports when all are free (a restart), else picks 2 + 3N free ones below the ephemeral range. */
  private static void ports(Path state, int dataNodes, int racks) throws IOException {
    Path file = state.resolve("cluster.env");
    if (Files.exists(file)) {
      Properties stored = load(file);
      if (stored.stringPropertyNames().stream().filter(k -> k.startsWith("NN_") || k.startsWith("DN_"))
          .allMatch(k -> Ports.free(Integer.parseInt(stored.getProperty(k))))) {
        return;
      }
      log("some stored ports are taken: picking new ones");
    }
    Ports ports = new Ports(20000 + ThreadLocalRandom.current().nextInt(12000));
    List<String> lines = new ArrayList<>(List.of("N=" + dataNodes, "RACKS=" + racks, "NN_RPC=" + ports.tcp(),
        "NN_HTTP=" + ports.tcp()));
    for (int i = 0; i < dataNodes; i++) {
      lines.add("DN_XFER_" + i + "=" + ports.tcp());
      lines.add("DN_IPC_" + i + "=" + ports.tcp());
      lines.add("DN_HTTP_" + i + "=" + ports.tcp());
    }
    Files.createDirectories(state);
    Files.write(file, lines);
  }

  int dataNodes() {
    return Integer.parseInt(env.getProperty("N"));
  }

  int racks() {
    return Integer.parseInt(env.getProperty("RACKS"));
  }

  int port(String key) {
    return Integer.parseInt(env.getProperty(key));
  }

  static String host(int i) {
    return "dn" + i + ".eafr.local";
  }

  String rack(int i) {
    return "/rack" + (i % racks());
  }

  /** The standby DataNode of each rack is its last one, when the rack has two or more; all others are hot. */
  boolean standby(int i) {
    int last = dataNodes() - 1 - ((dataNodes() - 1 - i) % racks());
    return i == last && i >= racks();
  }

  NameNodeJmx jmx() {
    return new NameNodeJmx("127.0.0.1:" + port("NN_HTTP"));
  }

  private void writeConf(Path repository, String intervalMillis, Path nameDir) throws IOException {
    Path conf = state.resolve("conf");
    Map<String, String> racks = new LinkedHashMap<>();
    List<Integer> transferPorts = new ArrayList<>();
    List<String> hot = new ArrayList<>(List.of("hot"));
    List<String> standby = new ArrayList<>(List.of("standby"));
    for (int i = 0; i < dataNodes(); i++) {
      racks.put(host(i), rack(i));
      transferPorts.add(port("DN_XFER_" + i));
      (standby(i) ? standby : hot).add(host(i));
    }
    Configuration core = SiteFiles.coreSite(port("NN_RPC"), state.resolve("tmp"), racks);
    String log4j = SiteFiles.log4j("scripts/local-cluster.sh", List.of(
        "# The audit log (cmd=open: what EAFR counts as reads) goes to logs/hdfs-audit.log with -Dhdfs.audit.logger.",
        "hadoop.log.dir=.",
        "log4j.appender.RFAAUDIT=org.apache.log4j.FileAppender",
        "log4j.appender.RFAAUDIT.File=${hadoop.log.dir}/hdfs-audit.log",
        "log4j.appender.RFAAUDIT.layout=org.apache.log4j.PatternLayout",
        "log4j.appender.RFAAUDIT.layout.ConversionPattern=%d{ISO8601} %m%n"));
    Configuration eafr = SiteFiles.eafrNameNodeSite(repository);
    eafr.set("dfs.hosts", conf.resolve("dfs.hosts.json").toString());
    eafr.set("eafr.roles.file", conf.resolve("eafr-roles").toString());
    eafr.set("eafr.interval.ms", intervalMillis);
    // All DataNodes share one disk here: a reserve (Eq. 8) could put every standby to sleep at once.
    eafr.set("eafr.storage-reserve.bytes", "0");
    Configuration stock = new Configuration(false);
    for (Configuration site : List.of(eafr, stock)) {
      SiteFiles.quickCluster(site);
      SiteFiles.nameNode(site, port("NN_RPC"), port("NN_HTTP"), nameDir);
    }
    for (Path dir : List.of(conf, state.resolve("conf-stock"))) {
      SiteFiles.write(core, dir.resolve("core-site.xml"));
      Files.writeString(dir.resolve("log4j.properties"), log4j);
    }
    SiteFiles.write(eafr, conf.resolve("hdfs-site.xml"));
    SiteFiles.write(stock, state.resolve("conf-stock").resolve("hdfs-site.xml"));
    Files.write(conf.resolve("dfs.hosts.json"), SiteFiles.hostsFile(transferPorts));
    Files.write(conf.resolve("eafr-roles"), List.of("# Written by scripts/local-cluster.sh: the last DataNode of each"
        + " rack with two or more is standby.", String.join(" ", hot), standby.size() > 1 ? String.join(" ", standby)
        : "", "unlisted hot"));
    for (int i = 0; i < dataNodes(); i++) {
      Path dir = state.resolve("dn" + i);
      SiteFiles.write(core, dir.resolve("conf").resolve("core-site.xml"));
      Files.writeString(dir.resolve("conf").resolve("log4j.properties"), log4j);
      SiteFiles.write(SiteFiles.dataNodeSite(eafr, host(i), new int[] {port("DN_XFER_" + i), port("DN_IPC_" + i),
          port("DN_HTTP_" + i)}, dir.resolve("data")), dir.resolve("conf").resolve("hdfs-site.xml"));
    }
  }

  private boolean await(String what, int seconds) throws InterruptedException {
    NameNodeJmx jmx = jmx();
    switch (what) {
      case "up":
        return poll(seconds, "the NameNode's web server on port " + port("NN_HTTP"), jmx::up);
      case "ready":
        return jmx.ready("[local-cluster]", dataNodes(), seconds);
      case "eafr":
        Configuration client = new HdfsConfiguration();
        return poll(seconds, "the replication monitor plugin to answer 'hdfs eafr status'",
            () -> ClusterProbe.admin(client, "status").code() == 0);
      default:
        throw new IllegalArgumentException("wait " + what + " is not allowed: expected up, ready or eafr");
    }
  }

  static boolean poll(int seconds, String what, BooleanSupplier condition) throws InterruptedException {
    return NameNodeJmx.poll("[local-cluster]", seconds, what, condition);
  }

  static void log(String line) {
    System.err.println("[local-cluster] " + line);
  }

  private void status() throws IOException {
    for (int i = 0; i < dataNodes(); i++) {
      System.out.printf("DataNode %d  %s  127.0.0.1:%d  %s  %s%n", i, host(i), port("DN_XFER_" + i), rack(i),
          standby(i) ? "standby" : "hot");
    }
    NameNodeJmx jmx = jmx();
    if (!jmx.up()) {
      System.out.println("NameNode not answering on http://127.0.0.1:" + port("NN_HTTP"));
      return;
    }
    System.out.println();
    try (DistributedFileSystem fs = (DistributedFileSystem) org.apache.hadoop.fs.FileSystem.get(
        new HdfsConfiguration())) {
      System.out.println("live DataNodes as the NameNode sees them:");
      for (DatanodeInfo node : fs.getDataNodeStats(DatanodeReportType.LIVE)) {
        System.out.printf("  %s  %s  %s  %s  used %d bytes, %d blocks%n", node.getXferAddr(), node.getHostName(),
            node.getNetworkLocation(), node.getAdminState(), node.getDfsUsed(), node.getNumBlocks());
      }
    }
    System.out.println("EAFR metrics (" + NameNodeJmx.EAFR_BEAN + "):");
    jmx.bean(NameNodeJmx.EAFR_BEAN).ifPresentOrElse(bean -> List.of("RoundsTotal", "HotFiles", "NormalFiles",
        "ColdFiles", "HotNodes", "StandbyNodes", "ColdNodes", "ReplicasAddedTotal", "ReplicasRemovedTotal",
        "ReplicasMigratedTotal", "MovedBytesTotal").forEach(name -> System.out.printf("  %s = %s%n", name,
        bean.path(name).asText())), () -> System.out.println("  (not registered)"));
  }
}
