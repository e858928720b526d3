package org.eafr.namenode.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeAdminProperties;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.server.blockmanagement.CombinedHostFileManager;
import org.apache.hadoop.hdfs.server.blockmanagement.HostConfigManager;
import org.apache.hadoop.hdfs.util.CombinedHostsFileWriter;

/** The JSON hosts file of CombinedHostFileManager, with which a test puts DataNodes into maintenance. */
public final class MaintenanceHosts {
  private final Path file;

  private MaintenanceHosts(Path file) {
    this.file = file;
  }

  /** Points {@code conf} at an empty hosts file (every DataNode allowed) next to the cluster's files. */
  public static MaintenanceHosts configure(Configuration conf) throws IOException {
    Path file = Path.of(conf.get("eafr.roles.file")).resolveSibling("dfs.hosts.json");
    Files.writeString(file, "[]");
    conf.setClass(DFSConfigKeys.DFS_NAMENODE_HOSTS_PROVIDER_CLASSNAME_KEY, CombinedHostFileManager.class,
        HostConfigManager.class);
    conf.set(DFSConfigKeys.DFS_HOSTS, file.toString());
    return new MaintenanceHosts(file);
  }

  /** Writes {@code host:port} entries in maintenance with no expiry. */
  public void maintenance(String... hostAndPorts) throws IOException {
    Set<DatanodeAdminProperties> entries = new HashSet<>();
    for (String hostAndPort : hostAndPorts) {
      DatanodeAdminProperties entry = new DatanodeAdminProperties();
      entry.setHostName(hostAndPort.substring(0, hostAndPort.lastIndexOf(':')));
      entry.setPort(Integer.parseInt(hostAndPort.substring(hostAndPort.lastIndexOf(':') + 1)));
      entry.setAdminState(AdminStates.IN_MAINTENANCE);
      entry.setMaintenanceExpireTimeInMS(Long.MAX_VALUE);
      entries.add(entry);
    }
    CombinedHostsFileWriter.writeFile(file.toString(), entries);
  }
}
