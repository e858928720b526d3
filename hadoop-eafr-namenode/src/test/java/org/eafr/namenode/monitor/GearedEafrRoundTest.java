package org.eafr.namenode.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.gear.GearTestCluster;
import org.eafr.namenode.read.EafrNetworkTopology;
import org.eafr.namenode.read.ReadCountingAuditLogger;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.GearedLayout;
import org.eafr.placement.replication.ReplicaAction;
import org.eafr.placement.replication.ReplicationPlan;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The replication monitor with {@code eafr.layout = eafr-geared} on the gear tests' cluster (12 DataNodes on 3 racks,
 * p = 4, g = 2, r = 3: gears 0..4 keep 4, 6, 8, 10 and 12 DataNodes on), running the core's geared planner each round:
 * EAFR's thresholds scaled down as in {@link ReplicationMonitorTest} (c_c = 4, so tens of reads overload a replica
 * server), eps = 1, and d = 2, so a hot file's extra replica goes to gear 0 whenever gear 0 has two eligible
 * DataNodes. Rounds are run by the test; the monitor's own schedule is an hour.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GearedEafrRoundTest {
  private static final int BYTES = 4000;
  private EafrCluster cluster;

  @BeforeAll
  void startCluster() throws Exception {
    Configuration conf = GearTestCluster.conf("geared-eafr-rounds");
    conf.set("eafr.layout", "eafr-geared");
    conf.set(DFSConfigKeys.DFS_NET_TOPOLOGY_IMPL_KEY, EafrNetworkTopology.class.getName());
    conf.set(DFSConfigKeys.DFS_NAMENODE_AUDIT_LOGGERS_KEY, "default," + ReadCountingAuditLogger.class.getName());
    ReplicationMonitorTest.scaleDown(conf);
    conf.set("eafr.destination.sample-size", "2");
    cluster = GearTestCluster.start(conf);
  }

  @AfterAll
  void stopCluster() {
    GearTestCluster.stop(cluster);
  }

  /**
   * At the top gear: a hot file (40 reads over its 3 replicas, each overloaded) gains one replica in gear 0; a cold
   * file written with 4 replicas (one above r) loses one and keeps its gear-0 replica; a cold file at r has no gear
   * above to migrate to and is left alone. The next round, with no reads, the hot file has cooled and loses its extra.
   */
  @Test
  @Order(1)
  void atTheTopGear_hotFileGainsAReplicaInGearZero_coldExtrasShrink() throws Exception {
    GearedLayout layout = GearTestCluster.layout(cluster);
    cluster.write("/top/hot", 3, BYTES, 1);
    cluster.write("/top/cold", 4, BYTES, 2);
    cluster.write("/top/even", 3, BYTES, 3);
    waitForHolders("/top/cold", 4);
    List<String> hotBefore = cluster.holders("/top/hot");
    List<String> evenBefore = cluster.holders("/top/even");

    cluster.read("/top/hot", 40);
    ReplicationPlan plan = monitor().round();

    assertThat(plan.actions()).as("%s", plan).extracting(ReplicaAction::kind, ReplicaAction::fileId)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(ReplicaAction.Kind.ADD, "/top/hot"),
            org.assertj.core.groups.Tuple.tuple(ReplicaAction.Kind.DELETE, "/top/cold"));
    String target = plan.actions().get(0).target();
    assertThat(hotBefore).doesNotContain(target);
    assertThat(layout.gearOf(layout.chain().requirePosition(target))).as("gear of the hot extra on %s", target)
        .isZero();
    waitForHolders("/top/hot", 4);
    assertThat(cluster.holders("/top/hot")).contains(target).containsAll(hotBefore);
    waitForHolders("/top/cold", 3);
    assertThat(inGear(layout, 0, "/top/cold")).isPositive();
    assertThat(cluster.holders("/top/even")).containsExactlyInAnyOrderElementsOf(evenBefore);

    plan = monitor().round(); // no reads: the hot file has cooled
    assertThat(plan.actions()).as("%s", plan).extracting(ReplicaAction::kind, ReplicaAction::fileId)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(ReplicaAction.Kind.DELETE, "/top/hot"));
    waitForHolders("/top/hot", 3);
    assertThat(inGear(layout, 0, "/top/hot")).isPositive();
    monitor().round();
    assertThat(cluster.runtime().monitorStats().added()).isEqualTo(1);
    assertThat(cluster.runtime().monitorStats().removed()).isEqualTo(2);
    cluster.verifyChecksums();
  }

  /**
   * In gear 3 (DataNodes 10 and 11 asleep): each cold file with more than eps = 1 replica on DataNodes on owes a
   * migration to gear 4, and nothing is moved; after the gear-up the owed migrations are made, one at a time per
   * DataNode, each leaving the file with r replicas, one of them in gear 4 and one in gear 0.
   */
  @Test
  @Order(2)
  void inALowGear_coldMigrationsAreOwed_andMadeOnceTheirGearRuns() throws Exception {
    for (String file : cluster.files()) {
      cluster.delete(file);
    }
    GearedLayout layout = GearTestCluster.layout(cluster);
    List<String> paths = List.of("/low/a", "/low/b");
    for (int i = 0; i < paths.size(); i++) {
      cluster.write(paths.get(i), 3, BYTES, 10 + i);
    }
    int top = layout.maximumGear();
    GearTestCluster.gears(cluster).service().requestGear(top - 1);
    GearTestCluster.awaitGear(cluster, top - 1);
    Map<String, Integer> onTopGear = new LinkedHashMap<>();
    List<String> owing = new ArrayList<>();
    for (String path : paths) {
      onTopGear.put(path, inGear(layout, top, path));
      if (cluster.holders(path).size() - onTopGear.get(path) > 1) {
        owing.add(path);
      }
    }
    assertThat(owing).as("files with two replicas on DataNodes on in gear %d", top - 1).isNotEmpty();
    long migratedBefore = cluster.runtime().monitorStats().migrated();
    long bytesBefore = cluster.runtime().monitorStats().bytesMigrated();

    ReplicationPlan plan = monitor().round();

    assertThat(plan.actions()).as("%s", plan).isEmpty();
    assertThat(cluster.runtime().monitorStats().owedMigrations()).isEqualTo(owing.size());
    AdminRun status = AdminRun.run(cluster.conf(), "status", "-json");
    JsonNode json = new ObjectMapper().readTree(status.out);
    assertThat(json.at("/monitor/migrationsOwed").asInt()).isEqualTo(owing.size());

    GearTestCluster.gears(cluster).service().requestGear(top);
    GearTestCluster.awaitGear(cluster, top);
    // A round every 2 s: an action not done within 3 rounds is given up, and HDFS's excess deletion takes a heartbeat
    // or two after the drain.
    GenericTestUtils.waitFor(() -> {
      try {
        monitor().round();
        return cluster.runtime().monitorStats().migrated() - migratedBefore == owing.size();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }, 2_000, 60_000);
    assertThat(cluster.runtime().monitorStats().owedMigrations()).isZero();
    assertThat(cluster.runtime().monitorStats().bytesMigrated() - bytesBefore).isEqualTo((long) BYTES * owing.size());
    assertThat(cluster.eafrMetrics().get("MigratedBytesTotal").longValue())
        .isEqualTo(cluster.runtime().monitorStats().bytesMigrated());
    assertThat(cluster.eafrMetrics()).containsEntry("MigrationsOwed", 0L);
    for (String path : owing) {
      waitForHolders(path, 3);
      assertThat(inGear(layout, top, path)).as("replicas of %s in gear %d", path, top)
          .isEqualTo(onTopGear.get(path) + 1);
      assertThat(inGear(layout, 0, path)).isPositive();
    }
    cluster.verifyChecksums();
  }

  private ReplicationMonitor monitor() {
    return cluster.monitor();
  }

  /** The replicas of {@code path}'s block on DataNodes whose own gear is {@code gear}. */
  private int inGear(GearedLayout layout, int gear, String path) throws IOException {
    return (int) cluster.holders(path).stream()
        .filter(id -> layout.gearOf(layout.chain().requirePosition(id)) == gear).count();
  }

  private void waitForHolders(String path, int count) throws Exception {
    ReplicationMonitorTest.waitForHolders(cluster, path, holders -> holders.size() == count);
  }
}
