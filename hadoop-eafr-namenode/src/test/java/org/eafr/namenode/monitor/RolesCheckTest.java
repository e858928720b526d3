package org.eafr.namenode.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.testing.EafrCluster;
import org.junit.jupiter.api.Test;

/**
 * A roles file naming a host that is no DataNode, or making every DataNode standby, is treated at startup as a reload
 * treats it: refused with the same message, and the monitor does not act on it until a good file is reloaded.
 */
class RolesCheckTest {
  @Test
  void unknownHostAtStartup_pausesTheMonitorWithTheReloadsMessage_untilAGoodReload() throws Exception {
    assertPausedUntilAGoodReload("roles-check", "standby 10.9.9.9:1",
        "names hosts that are not DataNodes of this cluster: [10.9.9.9:1]");
  }

  @Test
  void everyDataNodeStandbyAtStartup_pausesTheMonitorNamingTheProblem_untilAGoodReload() throws Exception {
    assertPausedUntilAGoodReload("roles-all-standby", "standby 127.0.0.1",
        "registered DataNodes hot (each is standby), but eafr.min-hot-replicas = 1");
  }

  /**
   * Starts a cluster whose roles file is {@code unlisted hot} and {@code line}: the monitor reports {@code problem}
   * and runs no round until a good file is reloaded, then runs.
   */
  private static void assertPausedUntilAGoodReload(String name, String line, String problem) throws Exception {
    Configuration conf = EafrCluster.baseConf(name);
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    conf.set("eafr.interval.ms", "1000");
    Files.write(java.nio.file.Path.of(conf.get("eafr.roles.file")), List.of("unlisted hot", line),
        StandardCharsets.UTF_8);
    try (EafrCluster cluster = EafrCluster.start(conf)) {
      EafrRuntime runtime = cluster.runtime();
      GenericTestUtils.waitFor(() -> runtime.roles().problem().isPresent(), 100, 60_000);
      assertThat(runtime.roles().problem().get()).contains(problem);
      assertThat(runtime.monitorStats().rounds()).isZero();

      Files.write(cluster.rolesFile(), List.of("unlisted hot", "standby " + cluster.id(4)), StandardCharsets.UTF_8);
      runtime.roles().reload(cluster.rolesFile(), cluster.registeredNames());
      assertThat(runtime.roles().problem()).isEmpty();
      GenericTestUtils.waitFor(() -> runtime.monitorStats().rounds() > 0, 100, 60_000);
    }
  }
}
