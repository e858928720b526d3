package org.eafr.namenode.hosts;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.server.blockmanagement.CombinedHostFileManager;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.cluster.ServerTranslator;

/**
 * HDFS's JSON hosts file ({@code dfs.hosts}, CombinedHostFileManager) with EAFR's sleeping servers laid over it
 * ({@code dfs.namenode.hosts.provider.classname}): a DataNode EAFR has turned cold (Eq. 8) is reported in maintenance
 * with no expiry, so HDFS drains nothing from it, sends it no reads or writes, and re-replicates nothing when it
 * stops. Everything else is the hosts file's. The overlay takes effect on the NameNode's next refreshNodes, which the
 * replication monitor triggers when it turns a server cold.
 */
public class EafrHostConfigManager extends CombinedHostFileManager {
  private EafrRuntime runtime;

  @Override
  public void setConf(Configuration conf) {
    super.setConf(conf);
    this.runtime = EafrRuntime.of(conf);
  }

  @Override
  public long getMaintenanceExpirationTimeInMS(DatanodeID dn) {
    if (runtime != null && runtime.roles().isSleeping(ServerTranslator.idOf(dn))) {
      return Long.MAX_VALUE;
    }
    return super.getMaintenanceExpirationTimeInMS(dn);
  }
}
