package org.eafr.datanode.power;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DatanodeAdminProperties;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.server.blockmanagement.CombinedHostFileManager;
import org.apache.hadoop.hdfs.server.blockmanagement.HostConfigManager;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.util.CombinedHostsFileWriter;
import org.eafr.namenode.monitor.ReplicationMonitorPlugin;

/** A MiniDFSCluster for the power agent: the NameNode's EAFR plugin, a JSON hosts file, the agent on each DataNode. */
final class AgentClusters {
  private AgentClusters() {
  }

  /** The settings: cluster files under {@code dir}, the JSON hosts file {@code hostsFile}, the agent polling fast. */
  static Configuration conf(Path dir, Path hostsFile) {
    Configuration conf = new HdfsConfiguration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("dfs").toString());
    conf.setInt(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 1);
    conf.setClass(DFSConfigKeys.DFS_NAMENODE_HOSTS_PROVIDER_CLASSNAME_KEY, CombinedHostFileManager.class,
        HostConfigManager.class);
    conf.set(DFSConfigKeys.DFS_HOSTS, hostsFile.toString());
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    conf.set(DFSConfigKeys.DFS_DATANODE_PLUGINS_KEY, PowerAgentPlugin.class.getName());
    conf.set(PowerAgentSettings.ENABLED_KEY, "true");
    conf.set(PowerAgentSettings.POLL_MS.key(), "200");
    return conf;
  }

  /** Writes {@code hostsFile} with {@code dataNode} alone, IN_MAINTENANCE, and has the NameNode read it. */
  static void maintenance(MiniDFSCluster cluster, Configuration conf, Path hostsFile, DataNode dataNode)
      throws IOException {
    DatanodeAdminProperties entry = new DatanodeAdminProperties();
    entry.setHostName(dataNode.getDatanodeId().getIpAddr());
    entry.setPort(dataNode.getDatanodeId().getXferPort());
    entry.setAdminState(AdminStates.IN_MAINTENANCE);
    entry.setMaintenanceExpireTimeInMS(Long.MAX_VALUE);
    CombinedHostsFileWriter.writeFile(hostsFile.toString(), Set.of(entry));
    cluster.getNamesystem().getBlockManager().getDatanodeManager().refreshNodes(conf);
  }
}
