package org.eafr.namenode.gear;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.GearedLayout;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A primary that dies while the NameNode is down never registers with the restarted one (12 DataNodes on 3 racks,
 * equal-work p = 4, g = 2, gear 0), and its blocks' other replicas sleep, so HDFS stays in safe mode. Once HDFS's dead
 * interval (2 x recheck 5 s + 10 x heartbeat 1 s = 20 s) has passed since the NameNode became active, the gear
 * service counts it dead and powers on its recovery group, which holds those replicas, with nothing written (safe
 * mode keeps the namespace read-only); HDFS leaves safe mode by itself once they are reported, and the next step takes
 * the group out of maintenance, the wake counted once; every file reads back with its checksum and fsck is healthy. The other groups sleep
 * on, and no block the dead primary did not hold gets a replica it did not have (no copy storm).
 */
class GearRestartDeadPrimaryTest {
  private static final Logger LOG = LoggerFactory.getLogger(GearRestartDeadPrimaryTest.class);
  private static final int FILES = 12;
  private static final int RECHECK_MILLIS = 5_000;
  /** HDFS's heartbeat expiry with these settings: 2 x 5 s + 10 x 1 s. */
  private static final long DEAD_INTERVAL_MILLIS = 20_000;
  private static final int REDUNDANCY_INTERVALS = 20;

  @Test
  void aPrimaryDeadWhileTheNameNodeWasDown_wakesItsGroupAfterTheDeadInterval_andNothingElseIsCopied()
      throws Exception {
    Configuration conf = GearTestCluster.conf("gear-restart-dead-primary");
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_KEY, RECHECK_MILLIS);
    EafrCluster cluster = GearTestCluster.start(conf);
    try {
      List<String> files = new ArrayList<>();
      for (int i = 0; i < FILES; i++) {
        files.add("/data/f" + i);
        cluster.write(files.get(i), 3, 2 * EafrCluster.BLOCK_SIZE, 500 + i);
      }
      GearTestCluster.gears(cluster).service().requestGear(0);
      GearTestCluster.awaitGear(cluster, 0);
      GearedLayout layout = GearTestCluster.layout(cluster);
      String primary = layout.chain().id(0);
      ActiveSet group = layout.recoveryGroup(0);
      Map<String, List<List<String>>> before = holders(cluster, files);
      assertThat(before.values().stream().flatMap(List::stream).filter(h -> h.contains(primary)))
          .as("blocks on the primary that dies").isNotEmpty()
          .allSatisfy(holders -> assertThat(group.ids()).containsAll(othersThan(primary, holders)));

      long restarted = System.currentTimeMillis();
      GearTestCluster.restartNameNode(cluster, null, () -> cluster.mini().stopDataNode(primary));
      // The dead primary's blocks have no replica reported (the others sleep): HDFS stays in safe mode, the namespace
      // read-only, until the gear service powers on the group and its DataNodes report them. Nobody leaves it by hand.
      assertThat(cluster.namesystem().isInSafeMode()).isTrue();
      failedOnlyOnceTheDeadIntervalHasPassed(cluster, layout, primary);

      // While HDFS stays in safe mode (at least its 2 s extension once the group has reported), status shows the
      // power-on and what it is for.
      String line = "powering on in safe mode: " + String.join(", ", new TreeSet<>(group.ids())) + " for dead "
          + primary;
      String[] json = new String[1];
      GenericTestUtils.waitFor(() -> {
        json[0] = safeModeWakeInStatus(cluster, line);
        return json[0] != null;
      }, 100, 120_000);
      assertThat(json[0]).isEqualTo(line.substring("powering on in safe mode: ".length()));
      assertThat(GearTestCluster.gears(cluster).counters().wakesForFailures.get()).isEqualTo(1);
      long wokenAfter = System.currentTimeMillis() - restarted;
      LOG.info("the dead primary's group powered on {} ms after the NameNode restart began", wokenAfter);
      assertThat(wokenAfter).as("ms from the restart to the wake").isGreaterThanOrEqualTo(DEAD_INTERVAL_MILLIS);
      GenericTestUtils.waitFor(() -> !cluster.namesystem().isInSafeMode(), 100, 120_000);
      LOG.info("safe mode left by itself {} ms after the NameNode restart began",
          System.currentTimeMillis() - restarted);
      // The woken event (NodesWokenTotal) follows the persisted state: wait for the event.
      GenericTestUtils.waitFor(() -> GearTestCluster.gears(cluster).counters().nodesWoken.get() == group.size(), 100,
          120_000);
      assertThat(GearTestCluster.gears(cluster).state().sleeping()).doesNotContainAnyElementsOf(group.ids());
      assertThat(GearTestCluster.gears(cluster).state().waking()).isEmpty();
      assertThat(AdminRun.run(cluster.conf(), "status").out).as("taken over by the wake")
          .doesNotContain("in safe mode:");
      assertThat(new ObjectMapper().readTree(AdminRun.run(cluster.conf(), "status", "-json").out).get("gears")
          .get("gearSafeModeWake").isNull()).isTrue();
      assertThat(GearTestCluster.gears(cluster).counters().wakesForFailures.get())
          .as("wakes counted: the one powered on in safe mode, not again once persisted").isEqualTo(1);
      List<String> on = new ArrayList<>(layout.serversOn(0).ids());
      on.remove(primary);
      on.addAll(group.ids());
      assertThat(GearTestCluster.running(cluster)).containsExactlyInAnyOrderElementsOf(on);
      assertThat(GearTestCluster.gears(cluster).counters().wakesForBlocks.get()).isZero();

      GearRestartNoCopyStormTest.awaitRedundancyIntervals(cluster, REDUNDANCY_INTERVALS);
      Map<String, List<List<String>>> after = holders(cluster, files);
      long copied = 0;
      for (String file : files) {
        for (int b = 0; b < before.get(file).size(); b++) {
          List<String> was = before.get(file).get(b);
          if (!was.contains(primary)) {
            copied += after.get(file).get(b).stream().filter(h -> !was.contains(h)).count() * EafrCluster.BLOCK_SIZE;
          }
        }
      }
      assertThat(copied).as("bytes copied, %d redundancy intervals after the restart, of blocks the dead primary did"
          + " not hold", REDUNDANCY_INTERVALS).isZero();
      assertThat(GearRestartNoCopyStormTest.fsck(cluster)).as("fsck exit code").isZero();
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
    }
  }

  /**
   * The gears count the primary, which never registered with the restarted NameNode, failed from HDFS's dead interval
   * after it became active on, not a millisecond before (the autopilot's and the wakes' rule alike); the DataNodes of
   * gear 0 awake meanwhile have registered (polled for: the restart returns once the NameNode is active).
   */
  private static void failedOnlyOnceTheDeadIntervalHasPassed(EafrCluster cluster, GearedLayout layout,
      String primary) throws Exception {
    GearService service = GearTestCluster.gears(cluster).service();
    GenericTestUtils.waitFor(() -> service.activeSinceMillis() != Long.MAX_VALUE, 50, 60_000);
    long due = service.activeSinceMillis() + service.deadIntervalMillis();
    assertThat(service.deadIntervalMillis()).isEqualTo(DEAD_INTERVAL_MILLIS);
    assertThat(service.failed(layout, due - 1).ids()).as("failed a millisecond before the dead interval").isEmpty();
    GenericTestUtils.waitFor(() -> service.failed(layout, due).ids().equals(List.of(primary)), 50, 60_000);
  }

  /**
   * The gears' safe-mode wake as {@code hdfs eafr status -json} shows it ({@code gearSafeModeWake}) when both it and
   * the text status show it, the text as {@code line}; else null.
   */
  private static String safeModeWakeInStatus(EafrCluster cluster, String line) {
    try {
      AdminRun text = AdminRun.run(cluster.conf(), "status");
      JsonNode wake = new ObjectMapper().readTree(AdminRun.run(cluster.conf(), "status", "-json").out).get("gears")
          .get("gearSafeModeWake");
      return text.out.contains(line + "\n") && wake != null && !wake.isNull() ? wake.asText() : null;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, List<List<String>>> holders(EafrCluster cluster, List<String> files) throws Exception {
    Map<String, List<List<String>>> holders = new LinkedHashMap<>();
    for (String file : files) {
      holders.put(file, cluster.blockHolders(file));
    }
    return holders;
  }

  private static List<String> othersThan(String id, List<String> holders) {
    List<String> others = new ArrayList<>(holders);
    others.remove(id);
    return others;
  }
}
