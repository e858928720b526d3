package org.eafr.namenode.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.security.UserGroupInformation;
import org.eafr.namenode.monitor.ReplicationMonitorPlugin;
import org.eafr.namenode.power.PowerManager;
import org.eafr.namenode.power.PowerTestSupport;
import org.eafr.namenode.testing.EafrCluster;
import org.junit.jupiter.api.Test;

/**
 * {@code hdfs eafr power status HOST} never holds an IPC handler on a BMC: with a BMC that hangs (its status call never
 * returns within the test), the answer comes at once from the state the manager keeps, again and again, with at most
 * one read of that BMC queued; and it is for the HDFS superuser only (it shows BMC endpoints and errors), as are
 * {@code status} and {@code nodes} (DataNode hosts, BMC endpoints, paths), text and JSON.
 */
class PowerStatusTest {
  /** Far below the 30 s a power command's answer waits, and the hung BMC's 120 s command timeout. */
  private static final Duration PROMPTLY = Duration.ofSeconds(10);

  @Test
  void powerStatus_answersFromKeptStateWhileTheBmcHangs_andIsForTheSuperuserOnly() throws Exception {
    Configuration clusterConf = EafrCluster.baseConf("power-status");
    clusterConf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    try (EafrCluster cluster = EafrCluster.start(clusterConf, new String[] {"/r1"});
        PowerManager power = hungManager(Files.createTempDirectory("hung-bmc"))) {
      cluster.runtime().gears().power(power);
      try {
        for (int i = 0; i < 3; i++) {
          AdminRun status = assertTimeoutPreemptively(PROMPTLY,
              () -> AdminRun.run(cluster.conf(), "power", "status", "dn8", "-json"));
          assertThat(status.code).as(status.err).isZero();
          assertThat(new ObjectMapper().readTree(status.out).get("state").asText()).isEqualTo("UNKNOWN");
        }
        assertThat(power.refreshState("dn8")).as("the first status's read still hangs: no second one").isFalse();

        UserGroupInformation alice = UserGroupInformation.createUserForTesting("alice", new String[] {"users"});
        AdminRun denied = alice.doAs((PrivilegedExceptionAction<AdminRun>) () -> AdminRun.run(cluster.conf(),
            "power", "status", "dn8"));
        assertThat(denied.code).isEqualTo(1);
        assertThat(denied.err).contains("user alice may not run 'hdfs eafr power status'");
        // every reading verb shows DataNode hosts, BMC endpoints or paths: refused alike, text and JSON
        for (String[] verb : new String[][] {{"status"}, {"status", "-json"}, {"nodes"}, {"nodes", "-json"}}) {
          AdminRun read = alice.doAs((PrivilegedExceptionAction<AdminRun>) () -> AdminRun.run(cluster.conf(), verb));
          assertThat(read.code).as(String.join(" ", verb)).isEqualTo(1);
          assertThat(read.out).as("nothing revealed").isEmpty();
          assertThat(read.err).contains("user alice may not run 'hdfs eafr " + verb[0] + "': only ");
        }
        assertThat(AdminRun.run(cluster.conf(), "nodes").code).as("the superuser").isZero();
      } finally {
        cluster.runtime().gears().power(null);
      }
    }
  }

  /** A manager over dn8, whose BMC script hangs on every call. */
  private static PowerManager hungManager(Path dir) throws Exception {
    return PowerTestSupport.scriptedManager(dir, "dn8", List.of("#!/bin/sh", "exec sleep 600"),
        Map.of("eafr.power.min-command-interval.ms", "0", "eafr.power.command-timeout.ms", "120000"));
  }
}
