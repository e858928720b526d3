package org.eafr.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * The Hadoop configuration files a cluster of real daemons on 127.0.0.1 needs, shared by the demo ({@link
 * ClusterConfig}) and {@code scripts/local-cluster.sh} ({@link LocalClusterTool}): core-site.xml with the rack
 * mapping, the NameNode's hdfs-site.xml starting from {@code conf/hdfs-site.eafr.xml} exactly as an operator merges it,
 * one hdfs-site.xml per DataNode, the JSON hosts file and log4j.properties.
 */
final class SiteFiles {
  private SiteFiles() {
  }

  /**
   * core-site.xml. Every DataNode has 127.0.0.1: Hadoop's script and table mappings resolve by IP and cannot tell them
   * apart, so host names (dfs.datanode.hostname) are mapped to racks with StaticMapping, as MiniDFSCluster does.
   */
  static Configuration coreSite(int nameNodeRpcPort, Path tmp, Map<String, String> rackOfHost) {
    Configuration core = new Configuration(false);
    core.set("fs.defaultFS", "hdfs://127.0.0.1:" + nameNodeRpcPort);
    core.set("hadoop.tmp.dir", tmp.toString());
    core.set("net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.StaticMapping");
    List<String> mapping = new ArrayList<>();
    rackOfHost.forEach((host, rack) -> mapping.add(host + "=" + rack));
    core.set("hadoop.configured.node.mapping", String.join(",", mapping));
    return core;
  }

  /** The NameNode's hdfs-site.xml as an operator starts it: {@code conf/hdfs-site.eafr.xml} of the repository. */
  static Configuration eafrNameNodeSite(Path repository) {
    Configuration site = new Configuration(false);
    site.addResource(new org.apache.hadoop.fs.Path(repository.resolve("conf/hdfs-site.eafr.xml").toUri()));
    return site;
  }

  /** The NameNode's own addresses and metadata directory. */
  static void nameNode(Configuration site, int rpcPort, int httpPort, Path nameDir) {
    site.set("dfs.namenode.rpc-address", "127.0.0.1:" + rpcPort);
    site.set("dfs.namenode.http-address", "127.0.0.1:" + httpPort);
    site.set("dfs.namenode.name.dir", nameDir.toUri().toString());
  }

  /** Test speed: 1 MiB blocks, 1 s heartbeats and redundancy checks, no safe-mode extension, block reports at once. */
  static void quickCluster(Configuration site) {
    site.set("dfs.blocksize", "1048576");
    site.set("dfs.heartbeat.interval", "1");
    site.set("dfs.namenode.redundancy.interval.seconds", "1");
    site.set("dfs.namenode.safemode.extension", "0");
    site.set("dfs.blockreport.initialDelay", "0");
  }

  /** A DataNode's hdfs-site.xml: the NameNode's plus its host name, ports and data directory. */
  static Configuration dataNodeSite(Configuration nameNode, String hostName, int[] xferIpcHttp, Path dataDir) {
    Configuration site = new Configuration(nameNode);
    site.set("dfs.datanode.hostname", hostName);
    site.set("dfs.datanode.address", "127.0.0.1:" + xferIpcHttp[0]);
    site.set("dfs.datanode.ipc.address", "127.0.0.1:" + xferIpcHttp[1]);
    site.set("dfs.datanode.http.address", "127.0.0.1:" + xferIpcHttp[2]);
    site.set("dfs.datanode.data.dir", dataDir.toUri().toString());
    return site;
  }

  /**
   * CombinedHostFileManager's JSON hosts file: each DataNode by IP and transfer port. NORMAL entries make it an
   * allow-list (an empty list would let any DataNode register); EAFR lays its sleeping servers over it.
   */
  static List<String> hostsFile(List<Integer> transferPorts) {
    List<String> lines = new ArrayList<>();
    lines.add("[");
    for (int i = 0; i < transferPorts.size(); i++) {
      lines.add("  {\"hostName\": \"127.0.0.1\", \"port\": " + transferPorts.get(i) + ", \"adminState\": \"NORMAL\"}"
          + (i < transferPorts.size() - 1 ? "," : ""));
    }
    lines.add("]");
    return lines;
  }

  /** log4j.properties: daemons log to stderr (the scripts redirect it to logs/NAME.log), then {@code extra}. */
  static String log4j(String writer, List<String> extra) {
    List<String> lines = new ArrayList<>(List.of(
        "# Written by " + writer + ": daemons log to stderr, redirected to logs/NAME.log by the scripts.",
        "hadoop.root.logger=INFO,console",
        "hdfs.audit.logger=INFO,NullAppender",
        "log4j.rootLogger=${hadoop.root.logger}",
        "log4j.appender.console=org.apache.log4j.ConsoleAppender",
        "log4j.appender.console.target=System.err",
        "log4j.appender.console.layout=org.apache.log4j.PatternLayout",
        "log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n",
        "log4j.appender.NullAppender=org.apache.log4j.varia.NullAppender",
        "log4j.logger.org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit=${hdfs.audit.logger}",
        "log4j.additivity.org.apache.hadoop.hdfs.server.namenode.FSNamesystem.audit=false",
        "log4j.logger.org.apache.hadoop.util.NativeCodeLoader=ERROR",
        "log4j.logger.http.requests=WARN"));
    lines.addAll(extra);
    lines.add("");
    return String.join("\n", lines);
  }

  static void write(Configuration conf, Path file) throws IOException {
    Files.createDirectories(file.getParent());
    try (OutputStream out = Files.newOutputStream(file)) {
      conf.writeXml(out);
    }
  }
}
