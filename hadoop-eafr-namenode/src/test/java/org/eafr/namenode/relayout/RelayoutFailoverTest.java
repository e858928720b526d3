package org.eafr.namenode.relayout;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.gear.GearTestCluster;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.power.PowerDriver;
import org.eafr.namenode.runtime.EafrRuntime;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.shift.ShiftPhase;
import org.junit.jupiter.api.Test;

/**
 * An HA pair fails over in the middle of a relayout (12 DataNodes on 3 racks, 8 files of two 1 MiB blocks written under
 * the random layout, both NameNodes restarted with equal-work; one batch holds every file, two moves at a time, and the
 * test steps the relayout: the active one's, and the standby's only after the failover, its status read before as
 * metrics read it): the moves the old active started are in flight at the failover. The old active, standby now, drops
 * them and starts no more. The new active, which never stepped as standby, reads the record again (its read as standby
 * is older than the old active's batch), waits for a full block report from every DataNode after the failover (HDFS
 * marks their storages stale), gets them without the test asking, counts the cut batch's moves once, goes on from the
 * persisted cursor and finishes with the first walk's plan and lower bound; every move the DataNodes made is counted
 * exactly once, gear 0 then succeeds, fsck is healthy and every checksum matches.
 */
class RelayoutFailoverTest {

  @Test
  void failoverWithMovesInFlight_theNewActiveCountsThemOnceAndFinishes() throws Exception {
    long started = System.nanoTime();
    Configuration conf = RelayoutClusterTest.steppedByTheTest("relayout-failover", 2);
    EafrCluster cluster = EafrCluster.startHa(conf, GearTestCluster.RACKS);
    Map<String, PowerDriver> drivers = MiniClusterPower.drivers(cluster.mini(), null);
    try {
      for (int i = 0; i < 8; i++) {
        cluster.write("/data/f" + i, 3, 2 * EafrCluster.BLOCK_SIZE, 700 + i);
      }
      restartBoth(cluster, drivers, "equal-work");
      GenericTestUtils.waitFor(() -> gears(cluster, 0).layout().isPresent()
          && gears(cluster, 0).state().gear() == gears(cluster, 0).layout().get().maximumGear()
          && gears(cluster, 0).state().phase() == ShiftPhase.STEADY, 100, 60_000);
      RelayoutService first = relayout(cluster, 0);
      RelayoutService second = relayout(cluster, 1);
      first.start();
      GenericTestUtils.waitFor(() -> {
        Map<String, Object> values = step(first);
        second.values(); // the standby, read as its metrics are; its first step comes after the failover
        return count(values, "movedReplicas") >= 2 && count(values, "movesQueued") > 0;
      }, 50, 60_000);
      Map<String, Object> atFailover = first.values();
      long inFlight = count(atFailover, "movesInFlight");
      assertThat(inFlight).as("moves in flight at the failover").isPositive();
      // They finish on the DataNodes (counted by the old active or not); no step of the old active settles them.
      GenericTestUtils.waitFor(first::movesFinished, 50, 60_000);
      assertThat(atFailover).containsEntry("files", 8L).containsEntry("cursor", "/data/f7");
      long bound = count(atFailover, "lowerBoundBytes");
      long planned = count(atFailover, "plannedBytes");

      long cut = RelayoutCutBatchTest.replaceBlocks(cluster);
      assertThat(cut).as("moves done before the failover").isGreaterThanOrEqualTo(count(atFailover, "movedReplicas"));
      cluster.failover();
      assertThat(step(first)).as("the old active, standby now").containsEntry("movesInFlight", 0)
          .containsEntry("movesQueued", 0);
      assertThat(gears(cluster, 0).reflectionMoves()).as("the old active's moves, as the gears see them").isEmpty();
      // HDFS marks every storage stale on a failover: the relayout waits for full reports the test does not trigger.
      Set<String> waits = new LinkedHashSet<>();
      GenericTestUtils.waitFor(() -> {
        step(first);
        Object waiting = step(second).get("waitingFor");
        if (waiting != null) {
          waits.add(String.valueOf(waiting).replaceAll("DataNode \\S+", "DataNode *"));
        }
        return waiting == null;
      }, 100, 120_000);
      assertThat(waits).as("what the new active waited for").contains("the full block report of DataNode *");
      // The step that counts the cut batch may also finish a move it started again on a slow machine.
      long counted = count(second.values(), "movedReplicas");
      RelayoutCutBatchTest.awaitReplaceBlocks(cluster, counted);
      assertThat(counted).as("the cut batch's moves, counted by the new active")
          .isBetween(cut, RelayoutCutBatchTest.replaceBlocks(cluster));
      GenericTestUtils.waitFor(() -> {
        step(first);
        return "finished".equals(step(second).get("state"));
      }, 50, 120_000);
      assertThat(step(first)).containsEntry("movesInFlight", 0).containsEntry("movesQueued", 0);

      Map<String, Object> done = second.values();
      long movedReplicas = count(done, "movedReplicas");
      RelayoutCutBatchTest.awaitReplaceBlocks(cluster, movedReplicas);
      System.out.printf("relayout across a failover with %d moves in flight (waits after it: %s): %s%n", inFlight,
          waits, second.statusText());
      assertThat(movedReplicas).as("every move the DataNodes made, counted once")
          .isEqualTo(RelayoutCutBatchTest.replaceBlocks(cluster));
      assertThat(done).containsEntry("movedBytes", movedReplicas * EafrCluster.BLOCK_SIZE)
          .as("the first walk's plan, made before the failover").containsEntry("lowerBoundBytes", bound)
          .containsEntry("plannedBytes", planned);
      assertThat((double) count(done, "movedBytes")).as("bytes moved against the lower bound")
          .isLessThanOrEqualTo(1.2 * bound);

      gears(cluster, 1).service().requestGear(0);
      GearTestCluster.awaitGear(cluster, 0);
      assertThat(fsck(cluster)).as("fsck exit code").isZero();
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
      System.out.printf("RelayoutFailoverTest wall time: %.1f s%n", (System.nanoTime() - started) / 1e9);
    }
  }

  /**
   * Restarts both NameNodes with {@code layout}, their EAFR state forgotten (they come back standby), makes NameNode 0
   * active and gives both a power manager over the same drivers.
   */
  private static void restartBoth(EafrCluster cluster, Map<String, PowerDriver> drivers, String layout)
      throws Exception {
    for (int nn = 1; nn >= 0; nn--) {
      Configuration nnConf = cluster.mini().getNameNode(nn).getConf();
      cluster.mini().getNameNode(nn).stop();
      EafrRuntime.release(nnConf);
      cluster.mini().getConfiguration(nn).set("eafr.layout", layout);
      cluster.mini().restartNameNode(nn, false);
    }
    cluster.mini().transitionToActive(0);
    cluster.mini().waitActive();
    for (int nn = 0; nn < 2; nn++) {
      cluster.runtime(nn).gears().power(MiniClusterPower.manager(cluster.mini(), drivers));
    }
    GenericTestUtils.waitFor(() -> !cluster.namesystem().isInSafeMode(), 100, 60_000);
  }

  private static GearRuntime gears(EafrCluster cluster, int nn) {
    return cluster.runtime(nn).gears();
  }

  private static RelayoutService relayout(EafrCluster cluster, int nn) {
    return cluster.runtime(nn).relayout();
  }

  private static Map<String, Object> step(RelayoutService service) {
    try {
      service.step();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return service.values();
  }

  private static long count(Map<String, Object> values, String key) {
    return ((Number) values.get(key)).longValue();
  }

  /** fsck of the whole namespace on the active NameNode (its own configuration names its web address). */
  private static int fsck(EafrCluster cluster) throws Exception {
    Configuration conf = new Configuration(cluster.nameNode().getConf());
    conf.set(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY,
        "hdfs://" + NetUtils.getHostPortString(cluster.nameNode().getNameNodeAddress()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int code = new DFSck(conf, new PrintStream(out, true, StandardCharsets.UTF_8.name())).run(new String[] {"/"});
    assertThat(out.toString(StandardCharsets.UTF_8.name())).contains("is HEALTHY");
    return code;
  }
}
