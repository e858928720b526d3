package org.eafr.namenode.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.replication.MonitorStats;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.replication.ReplicaAction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code hdfs eafr plan} on the monitor's test cluster (nine DataNodes, 2, 5 and 8 standby; thresholds of
 * {@link ReplicationMonitorTest}): a file read 40 times (hot and overloaded: ADD), an unread file with 3 replicas
 * (cold above r = 2: DELETE) and an unread file with 2 (cold at r with 2 hot replicas: MIGRATE). The plan lists
 * exactly the actions the following round then starts, with the same sources and targets, and running it (twice, by
 * a user who is not the superuser) changes no count, no read statistic and no replica.
 */
class PlanTest {
  private EafrCluster cluster;

  @AfterEach
  void stop() throws Exception {
    if (cluster != null) {
      cluster.verifyChecksumsAndClose();
    }
  }

  @Test
  void planListsExactlyTheActionsOfTheNextRound_andRunningItTwiceChangesNothing() throws Exception {
    cluster = EafrCluster.start(ReplicationMonitorTest.monitorConf("plan", 3_600_000));
    cluster.standby(2, 5, 8);
    cluster.write("/data/hot", 2, 4000, 1);
    cluster.write("/data/cold-three", 3, 4000, 2);
    cluster.write("/data/cold-two", 2, 4000, 3);
    cluster.read("/data/hot", 40);
    // A DataNode keeps a reader's connection a few seconds for reuse: until every heartbeat shows the reads' transfers
    // gone, the queues h (so each file's source by Eq. 7) still move between a plan and the round after it.
    GenericTestUtils.waitFor(() -> cluster.datanodeManager().getDatanodeListForReport(DatanodeReportType.LIVE)
        .stream().allMatch(dn -> dn.getXceiverCount() == 0), 100, 60_000);
    EafrRuntime runtime = cluster.runtime();
    String before = counts(runtime);

    UserGroupInformation alice = UserGroupInformation.createUserForTesting("alice", new String[] {"users"});
    AdminRun denied = alice.doAs((PrivilegedExceptionAction<AdminRun>) () -> AdminRun.run(cluster.conf(), "plan"));
    assertThat(denied.code).as("the plan names files: superuser only").isEqualTo(1);
    assertThat(denied.err).contains("user alice may not run 'hdfs eafr plan'");
    AdminRun first = AdminRun.run(cluster.conf(), "plan", "-json");
    AdminRun second = AdminRun.run(cluster.conf(), "plan", "-json");
    AdminRun text = AdminRun.run(cluster.conf(), "plan");

    assertThat(first.code).as(first.err).isZero();
    assertThat(second.out).isEqualTo(first.out);
    assertThat(counts(runtime)).as("counts after two plans").isEqualTo(before);
    JsonNode plan = new ObjectMapper().readTree(first.out);
    List<String> planned = new ArrayList<>();
    for (JsonNode action : plan.get("actions")) {
      planned.add(action.get("action").asText() + " " + action.get("file").asText() + " "
          + action.get("source").asText() + " -> " + action.get("target").asText());
    }
    assertThat(planned).hasSize(3);
    assertThat(plan.get("actions").get(0).get("reason").asText()).isNotEmpty();
    assertThat(plan.get("files").get("HOT").asInt()).isEqualTo(1);
    assertThat(plan.get("gears").get("mode").asText()).isEqualTo("off (eafr.layout = random)");
    assertThat(text.out).contains("ADD     /data/hot (4000 bytes): HOT (40 reads this interval)")
        .contains("DELETE  /data/cold-three (4000 bytes): COLD (0 reads this interval) with 3 replicas, above r = 2")
        .contains("MIGRATE /data/cold-two (4000 bytes): COLD (0 reads this interval) at r = 2");

    List<String> done = new ArrayList<>();
    for (ReplicaAction action : cluster.monitor().round().actions()) {
      done.add(action.kind() + " " + action.fileId() + " " + action.source() + " -> " + action.target());
    }
    assertThat(done).as("the round after the plan").containsExactlyElementsOf(planned);
    assertThat(cluster.monitor().inFlight()).hasSize(3);
  }

  /** Every count a plan must not move: monitor counters, the interval's reads, opens, actions and replicas. */
  private String counts(EafrRuntime runtime) throws Exception {
    MonitorStats stats = runtime.monitorStats();
    StringBuilder counts = new StringBuilder();
    counts.append("rounds ").append(stats.rounds()).append(" added ").append(stats.added()).append(" removed ")
        .append(stats.removed()).append(" migrated ").append(stats.migrated()).append(" tracked ")
        .append(runtime.reads().trackedFiles()).append(" hot reads ")
        .append(runtime.reads().currentInterval().reads("/data/hot")).append(" opens ")
        .append(runtime.attribution().opens()).append(" in flight ").append(cluster.monitor().inFlight());
    for (String file : cluster.files()) {
      counts.append(' ').append(file).append(' ').append(cluster.fs().getFileStatus(new Path(file)).getReplication())
          .append(' ').append(runtime.pending().targetOf(file));
    }
    return counts.toString();
  }
}
