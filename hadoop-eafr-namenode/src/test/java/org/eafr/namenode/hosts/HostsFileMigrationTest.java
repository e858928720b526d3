package org.eafr.namenode.hosts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeAdminProperties;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.HostConfigManager;
import org.apache.hadoop.hdfs.util.CombinedHostsFileWriter;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.monitor.ReplicationMonitorPlugin;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.namenode.testing.MaintenanceHosts;
import org.junit.jupiter.api.Test;

/**
 * What docs/operations.md (step 2a) tells an operator who already has a hosts setup, checked on a NameNode whose
 * hosts provider is {@link EafrHostConfigManager}: it reads only the JSON file {@code dfs.hosts}, so an old
 * {@code dfs.hosts.exclude} is ignored; a DataNode listed DECOMMISSIONED is decommissioned; the same DataNode listed
 * NORMAL (a file that lists every DataNode NORMAL) is recommissioned at the next refreshNodes; a DataNode left out
 * of a file that lists others is refused.
 */
class HostsFileMigrationTest {
  @Test
  void excludeFileIgnored_decommissionedEntryDecommissions_normalEntryRecommissions_missingEntryIsRefused()
      throws Exception {
    Configuration conf = EafrCluster.baseConf("hosts-migration");
    MaintenanceHosts.configure(conf);
    conf.setClass(DFSConfigKeys.DFS_NAMENODE_HOSTS_PROVIDER_CLASSNAME_KEY, EafrHostConfigManager.class,
        HostConfigManager.class);
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    conf.set("eafr.interval.ms", "3600000");
    Path hosts = Path.of(conf.get(DFSConfigKeys.DFS_HOSTS));
    Path exclude = Files.writeString(hosts.resolveSibling("dfs.exclude"), "127.0.0.1\nlocalhost\n");
    conf.set(DFSConfigKeys.DFS_HOSTS_EXCLUDE, exclude.toString()); // an old setup's exclude file: every DataNode
    try (EafrCluster cluster = EafrCluster.start(conf)) {
      int n = EafrCluster.RACKS.length;
      write(hosts, cluster, n, 1, AdminStates.DECOMMISSIONED);
      refresh(cluster);
      DatanodeDescriptor leaving = cluster.descriptor(1);
      GenericTestUtils.waitFor(() -> leaving.isDecommissionInProgress() || leaving.isDecommissioned(), 100, 60_000);
      for (int i = 0; i < n; i++) {
        if (i != 1) {
          assertThat(cluster.descriptor(i).isInService()).as("the exclude file is ignored: " + cluster.id(i))
              .isTrue();
        }
      }

      write(hosts, cluster, n, -1, AdminStates.NORMAL);
      refresh(cluster);
      assertThat(leaving.isInService()).as("listed NORMAL: recommissioned").isTrue();

      write(hosts, cluster, n - 1, -1, AdminStates.NORMAL);
      refresh(cluster);
      assertThat(cluster.descriptor(n - 1).isDisallowed()).as("left out of a file that lists others").isTrue();
    }
  }

  /**
   * What {@code hdfs dfsadmin -refreshNodes} does on a NameNode: re-read the hosts file named by the configuration
   * (the RPC reads hdfs-site.xml anew, which a MiniDFSCluster's in-memory configuration is not).
   */
  private static void refresh(EafrCluster cluster) throws Exception {
    cluster.datanodeManager().refreshNodes(cluster.conf());
  }

  /** Lists the first {@code count} DataNodes NORMAL, the one at {@code index} in {@code state}. */
  private static void write(Path hosts, EafrCluster cluster, int count, int index, AdminStates state)
      throws Exception {
    Set<DatanodeAdminProperties> entries = new HashSet<>();
    for (int i = 0; i < count; i++) {
      DatanodeAdminProperties entry = new DatanodeAdminProperties();
      String id = cluster.id(i);
      entry.setHostName(id.substring(0, id.lastIndexOf(':')));
      entry.setPort(Integer.parseInt(id.substring(id.lastIndexOf(':') + 1)));
      entry.setAdminState(i == index ? state : AdminStates.NORMAL);
      entries.add(entry);
    }
    CombinedHostsFileWriter.writeFile(hosts.toString(), entries);
  }
}
