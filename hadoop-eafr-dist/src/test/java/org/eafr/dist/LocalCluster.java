package org.eafr.dist;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The configuration of a one-NameNode, one-DataNode cluster on 127.0.0.1 with free ports: core-site.xml, and an
 * hdfs-site.xml that XIncludes the tarball's example NameNode and DataNode properties unchanged and overrides only
 * paths, addresses, the link capacity the example leaves to the operator and test-speed knobs, plus the roles file and the DataNode hosts file they point at, and a
 * log4j.properties that logs to the console (Hadoop's etc/hadoop has one).
 */
final class LocalCluster {
  private final int nameNodeRpcPort;
  private final int dataNodeTransferPort;
  private final Path rolesFile;

  private LocalCluster(int nameNodeRpcPort, int dataNodeTransferPort, Path rolesFile) {
    this.nameNodeRpcPort = nameNodeRpcPort;
    this.dataNodeTransferPort = dataNodeTransferPort;
    this.rolesFile = rolesFile;
  }

  /** Writes the configuration into {@code confDir}; state goes under {@code work}; examples come from {@code examples}. */
  static LocalCluster configure(Path confDir, Path work, Path examples) throws IOException {
    int rpc = freePort();
    int transfer = freePort();
    Path roles = work.resolve("eafr-roles");
    Files.writeString(roles, "hot 127.0.0.1\nunlisted standby\n");
    Path hosts = work.resolve("dfs.hosts.json");
    Files.writeString(hosts, "[{\"hostName\": \"127.0.0.1\", \"port\": " + transfer + ", \"adminState\": \"NORMAL\"}]\n");
    Files.writeString(confDir.resolve("log4j.properties"), "log4j.rootLogger=${hadoop.root.logger}\n"
        + "hadoop.root.logger=INFO,console\n"
        + "log4j.appender.console=org.apache.log4j.ConsoleAppender\n"
        + "log4j.appender.console.target=System.err\n"
        + "log4j.appender.console.layout=org.apache.log4j.PatternLayout\n"
        + "log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n\n");
    Files.writeString(confDir.resolve("core-site.xml"), "<configuration>\n"
        + property("fs.defaultFS", "hdfs://127.0.0.1:" + rpc) + "</configuration>\n");
    Files.writeString(confDir.resolve("hdfs-site.xml"), "<configuration xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n"
        + "  <xi:include href=\"" + examples.resolve("hdfs-site.eafr.xml") + "\"/>\n"
        + "  <xi:include href=\"" + examples.resolve("hdfs-site.eafr-datanode.xml") + "\"/>\n"
        + property("dfs.namenode.rpc-address", "127.0.0.1:" + rpc)
        + property("dfs.namenode.http-address", "127.0.0.1:" + freePort())
        + property("dfs.namenode.name.dir", "file://" + work.resolve("name"))
        + property("dfs.datanode.data.dir", "file://" + work.resolve("data"))
        + property("dfs.datanode.address", "127.0.0.1:" + transfer)
        + property("dfs.datanode.ipc.address", "127.0.0.1:" + freePort())
        + property("dfs.datanode.http.address", "127.0.0.1:" + freePort())
        + property("dfs.hosts", hosts.toString())
        + property("eafr.roles.file", roles.toString())
        + property("eafr.datanode.link.bytes-per-second", "1250000000")
        + property("dfs.replication", "1")
        + property("dfs.heartbeat.interval", "1")
        + property("dfs.namenode.safemode.extension", "0")
        + property("dfs.blockreport.initialDelay", "0")
        + "</configuration>\n");
    return new LocalCluster(rpc, transfer, roles);
  }

  private static String property(String name, String value) {
    return "  <property><name>" + name + "</name><value>" + value + "</value></property>\n";
  }

  /** A port free now; the daemons bind it a few seconds later (a rare clash fails the start, naming the port). */
  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  int nameNodeRpcPort() {
    return nameNodeRpcPort;
  }

  int dataNodeTransferPort() {
    return dataNodeTransferPort;
  }

  String dataNodeTransferAddress() {
    return "127.0.0.1:" + dataNodeTransferPort;
  }

  Path rolesFile() {
    return rolesFile;
  }
}
