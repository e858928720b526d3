package org.eafr.datanode.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The configuration files of scripts/bench/incast.sh's nodes. Node K (0 = the NameNode, 1.. = DataNodes) has the
 * address NET.(K+2) and its own conf dir STATE/nodeK/conf: the scenario's shared core-site.xml, rack table and
 * log4j.properties, and an hdfs-site.xml with the bench's properties plus the node's own.
 */
public final class IncastConf {
  private static final String LOG4J = String.join("\n",
      "log4j.rootLogger=INFO,console",
      "log4j.appender.console=org.apache.log4j.ConsoleAppender",
      "log4j.appender.console.target=System.err",
      "log4j.appender.console.layout=org.apache.log4j.PatternLayout",
      "log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n",
      "log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR",
      "log4j.logger.http.requests=WARN",
      "# The receiver's throttler: one line per round, rates granted against bytes used (for the analysis in"
          + " datanode.md).",
      "log4j.logger.org.eafr.datanode.rate.SenderThrottler.trace=DEBUG",
      "# The NameNode's timed copies and the destination speeds they give (EAFR Eq. 9).",
      "log4j.logger.org.eafr.namenode.transfer.TransferTracker=DEBUG", "");

  private final Path state;
  private final String net;

  /** @param net the first three octets of the bench's /24, e.g. 10.213.0 */
  public IncastConf(Path state, String net) {
    this.state = state;
    this.net = net;
  }

  /** Address of node {@code k}. */
  public String ip(int k) {
    return net + "." + (k + 2);
  }

  /**
   * Fresh state for a scenario of {@code nodes} nodes: node dirs removed, the shared conf written; DataNodes from
   * {@code remoteFrom} on are on rack /r2, the others on /r1.
   */
  public void scenario(int nodes, int remoteFrom) throws IOException {
    try (var dirs = Files.list(state)) {
      for (Path dir : (Iterable<Path>) dirs::iterator) {
        String name = dir.getFileName().toString();
        if (name.startsWith("node") && Files.isDirectory(dir) || name.equals("conf")) {
          deleteTree(dir);
        }
      }
    }
    Path conf = Files.createDirectories(state.resolve("conf"));
    List<String> racks = new ArrayList<>();
    for (int k = 1; k < nodes; k++) {
      racks.add(ip(k) + (k >= remoteFrom ? " /r2" : " /r1"));
    }
    Files.write(conf.resolve("racks"), racks, StandardCharsets.UTF_8);
    Map<String, String> core = new LinkedHashMap<>();
    core.put("fs.defaultFS", "hdfs://" + ip(0) + ":8020");
    core.put("hadoop.tmp.dir", state.resolve("tmp").toString());
    core.put("net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping");
    core.put("net.topology.table.file.name", conf.resolve("racks").toString());
    write(conf.resolve("core-site.xml"), core);
    Files.write(conf.resolve("log4j.properties"), LOG4J.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Node {@code k}'s conf dir: the shared files and an hdfs-site.xml of the bench's properties, then {@code extra}
   * (later entries win).
   */
  public void node(int k, long blockBytes, Map<String, String> bench, Map<String, String> extra) throws IOException {
    Path node = state.resolve("node" + k);
    Path dir = Files.createDirectories(node.resolve("conf"));
    Files.createDirectories(node.resolve("data"));
    for (String name : List.of("core-site.xml", "log4j.properties")) {
      Files.copy(state.resolve("conf").resolve(name), dir.resolve(name),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    Map<String, String> p = new LinkedHashMap<>();
    p.put("dfs.namenode.rpc-address", ip(0) + ":8020");
    p.put("dfs.namenode.http-address", ip(0) + ":9870");
    p.put("dfs.namenode.name.dir", "file://" + state.resolve("node0/name"));
    p.put("dfs.datanode.data.dir", "file://" + node.resolve("data"));
    p.put("dfs.datanode.address", ip(k) + ":9866");
    p.put("dfs.datanode.ipc.address", ip(k) + ":9867");
    p.put("dfs.datanode.http.address", ip(k) + ":9864");
    p.put("dfs.blocksize", Long.toString(blockBytes));
    p.put("dfs.replication", "1");
    // A quick small cluster: 1 s heartbeats and redundancy checks, no safe-mode extension, block reports at once.
    p.put("dfs.heartbeat.interval", "1");
    p.put("dfs.namenode.redundancy.interval.seconds", "1");
    p.put("dfs.namenode.safemode.extension", "0");
    p.put("dfs.blockreport.initialDelay", "0");
    // One copy at a time per source, so that N sources make N concurrent flows; no load-based exclusion.
    p.put("dfs.namenode.replication.max-streams", "1");
    p.put("dfs.namenode.replication.max-streams-hard-limit", "2");
    p.put("dfs.namenode.redundancy.considerLoad", "false");
    // No DNS inside the namespaces: DataNodes are known by address.
    p.put("dfs.namenode.datanode.registration.ip-hostname-check", "false");
    p.put("dfs.datanode.plugins", "org.eafr.datanode.rate.ReceiveRatePlugin");
    p.putAll(bench);
    p.putAll(extra);
    write(dir.resolve("hdfs-site.xml"), p);
  }

  /** KEY=VALUE arguments as properties, in order. */
  public static Map<String, String> properties(List<String> pairs) {
    Map<String, String> properties = new LinkedHashMap<>();
    for (String pair : pairs) {
      int eq = pair.indexOf('=');
      if (eq < 1) {
        throw new IllegalArgumentException("property '" + pair + "' is malformed: expected KEY=VALUE");
      }
      properties.put(pair.substring(0, eq), pair.substring(eq + 1));
    }
    return properties;
  }

  static String xml(Map<String, String> properties) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?><configuration>\n");
    properties.forEach((name, value) -> xml.append("  <property><name>").append(escape(name))
        .append("</name><value>").append(escape(value)).append("</value></property>\n"));
    return xml.append("</configuration>\n").toString();
  }

  private static void write(Path file, Map<String, String> properties) throws IOException {
    Files.write(file, xml(properties).getBytes(StandardCharsets.UTF_8));
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static void deleteTree(Path root) throws IOException {
    try (var paths = Files.walk(root)) {
      List<Path> all = new ArrayList<>();
      paths.forEach(all::add);
      for (int i = all.size() - 1; i >= 0; i--) {
        Files.delete(all.get(i));
      }
    }
  }
}
