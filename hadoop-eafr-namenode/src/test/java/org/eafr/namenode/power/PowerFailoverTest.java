package org.eafr.namenode.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.eafr.namenode.power.PowerTestSupport.await;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.server.blockmanagement.HostConfigManager;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.hosts.EafrHostConfigManager;
import org.eafr.namenode.power.PowerOffGuardClusterTest.RecordingDriver;
import org.eafr.namenode.power.driver.PowerDrivers;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.namenode.testing.MaintenanceHosts;
import org.junit.jupiter.api.Test;

/**
 * An HA pair (MiniDFSNNTopology.simpleHATopology), each NameNode with its own power manager over the same host, as
 * the plugin starts them: the active NameNode's power-off fails its first attempt, the pair fails over before the
 * retry, and the demoted NameNode's manager sends nothing more (its retry ends, refused, and new requests are
 * refused); the standby's admin handler refuses a changing verb, saying it is standby; the new active NameNode's
 * manager powers the host off once its own guard passes.
 */
class PowerFailoverTest {

  @Test
  void failoverWhileAPowerOffIsRetrying_theDemotedNameNodeNeverSendsTheCommand() throws Exception {
    Configuration conf = EafrCluster.baseConf("power-failover");
    MaintenanceHosts hosts = MaintenanceHosts.configure(conf);
    conf.setClass(DFSConfigKeys.DFS_NAMENODE_HOSTS_PROVIDER_CLASSNAME_KEY, EafrHostConfigManager.class,
        HostConfigManager.class);
    try (EafrCluster cluster = EafrCluster.startHa(conf, new String[] {"/r1", "/r1", "/r1"})) {
      cluster.write("/data/f", 2, 4000, 1, cluster.dataNode(0), cluster.dataNode(1));
      hosts.maintenance(cluster.id(0));
      for (int nn = 0; nn < 2; nn++) {
        cluster.mini().getNamesystem(nn).getBlockManager().getDatanodeManager().refreshNodes(cluster.conf());
      }
      for (int nn = 0; nn < 2; nn++) {
        NameNode nameNode = cluster.mini().getNameNode(nn);
        GenericTestUtils.waitFor(() -> inMaintenance(nameNode, cluster), 100, 60_000);
      }
      cluster.mini().triggerBlockReports(); // a NameNode made active counts replicas once the DataNodes have reported
      GenericTestUtils.waitFor(() -> reported(cluster.mini().getNameNode(0)), 100, 60_000);
      String host = cluster.id(0);
      RecordingDriver first = new RecordingDriver();
      RecordingDriver second = new RecordingDriver();
      first.firstOffFails = cluster::failover; // the pair fails over while the first attempt fails
      try (PowerManager demoted = manager(cluster, 0, host, first);
          PowerManager promoted = manager(cluster, 1, host, second)) {
        assertThatThrownBy(() -> await(promoted.powerOff(host, false, Requester.AUTOMATIC)))
            .as("the standby's manager acts on nothing").isInstanceOf(PowerRefusedException.class)
            .hasMessageContaining("this NameNode is not active");
        org.apache.hadoop.ipc.RefreshResponse standbyAnswer = new org.eafr.namenode.admin.AdminHandler(
            cluster.mini().getNameNode(1), cluster.runtime(1)).handleRefresh(
                org.eafr.namenode.admin.AdminHandler.IDENTIFIER, new String[] {"power", "off", host});
        assertThat(standbyAnswer.getReturnCode()).isEqualTo(org.eafr.namenode.admin.AdminHandler.NOT_ACTIVE);
        assertThat(standbyAnswer.getMessage()).contains("'hdfs eafr power off' refused: this NameNode")
            .contains("is standby, not active");

        assertThatThrownBy(() -> await(demoted.powerOff(host, false, Requester.AUTOMATIC)))
            .isInstanceOf(PowerRefusedException.class)
            .hasMessageContaining("cancelled at attempt 2: this NameNode is no longer active");
        assertThat(first.commands).as("the first attempt's command only, no retry").containsExactly("graceful-off");
        assertThatThrownBy(() -> await(demoted.powerOff(host, false, Requester.OPERATOR)))
            .isInstanceOf(PowerRefusedException.class).hasMessageContaining("this NameNode is not active");
        assertThat(first.commands).hasSize(1);

        cluster.mini().triggerBlockReports();
        GenericTestUtils.waitFor(() -> reported(cluster.mini().getNameNode(1)), 100, 60_000);
        assertThat(await(promoted.powerOff(host, false, Requester.AUTOMATIC)).state()).isEqualTo(PowerState.OFF);
        assertThat(second.commands).containsExactly("graceful-off");
        assertThat(first.commands).hasSize(1);
      }
    }
  }

  private static PowerManager manager(EafrCluster cluster, int nn, String host, PowerDriver driver) {
    Configuration conf = new Configuration(cluster.conf());
    conf.set("eafr.power.min-command-interval.ms", "0");
    conf.set("eafr.power.poll.initial.ms", "20");
    conf.set("eafr.power.poll.max.ms", "100");
    conf.set("eafr.power.retries", "2");
    conf.set("eafr.power.quarantine-after", "5");
    PowerManager manager = new PowerManager(PowerSettings.from(conf::get), conf,
        new NameNodeHostView(cluster.mini().getNameNode(nn)), new SleepRequests(), PowerScheduler.threads(2),
        PowerDrivers::build);
    manager.install(PowerInventory.parse("test", "{\"nodes\": [{\"host\": \"" + host + "\", \"driver\":"
        + " \"command\", \"script\": \"/bin/true\"}]}"), Map.of(host, driver));
    return manager;
  }

  /** Whether every storage of every DataNode has reported to {@code nameNode} since it last became active. */
  private static boolean reported(NameNode nameNode) {
    for (org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor dn : nameNode.getNamesystem()
        .getBlockManager().getDatanodeManager().getDatanodeListForReport(
            org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType.LIVE)) {
      for (org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo storage : dn.getStorageInfos()) {
        if (storage.areBlockContentsStale()) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean inMaintenance(NameNode nameNode, EafrCluster cluster) {
    return nameNode.getNamesystem().getBlockManager().getDatanodeManager()
        .getDatanode(cluster.dataNode(0).getDatanodeUuid()).isInMaintenance();
  }
}
