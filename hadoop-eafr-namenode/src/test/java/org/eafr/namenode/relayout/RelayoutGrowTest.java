package org.eafr.namenode.relayout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eafr.namenode.relayout.RelayoutClusterTest.gears;
import static org.eafr.namenode.relayout.RelayoutClusterTest.relayout;
import static org.eafr.namenode.relayout.RelayoutClusterTest.restartNameNode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.AbstractMetric;
import org.apache.hadoop.metrics2.impl.MetricsCollectorImpl;
import org.apache.hadoop.test.GenericTestUtils;
import org.eafr.namenode.admin.AdminRun;
import org.eafr.namenode.gear.GearTestCluster;
import org.eafr.namenode.power.LogCapture;
import org.eafr.namenode.power.MiniClusterPower;
import org.eafr.namenode.testing.EafrCluster;
import org.eafr.placement.gear.GearedLayout;
import org.junit.jupiter.api.Test;

/**
 * The lowest gear grown as data grows: 12 DataNodes of 16 MB, equal-work with p = 2 and g = 2 (gears 0..5), 24 MB of
 * data stored with 3 replicas (37.5% of the raw capacity) and eafr.gear.capacity-headroom 0.5, so one copy with its
 * headroom (36 MB) is more than the 2 primaries' 32 MB and {@code status} names p = 4 (3 DataNodes hold 48 MB,
 * rounded up to g). {@code hdfs eafr relayout grow} grows the layout to p = 4 (gears 0..4, the chain's next 2
 * DataNodes joining gear 0) and relays out the blocks onto it; a NameNode restart in the middle keeps the grown
 * layout and the relayout goes on; then the lowest gear holds one copy, gear 0 runs on the 4 primaries and every file
 * reads back with its checksum.
 */
class RelayoutGrowTest {
  private static final long MB = 1L << 20;

  @Test
  void theLowestGearShortOfOneCopy_grows_relaysOut_andGearZeroSucceeds() throws Exception {
    long started = System.nanoTime();
    EafrCluster cluster = startShortOfOneCopy(RelayoutClusterTest.conf("relayout-grow", 2));
    try {
      writeData(cluster);
      JsonNode room = lowestGearRoom(cluster);
      assertThat(room.path("lowestGearDataNodes").asInt()).isEqualTo(2);
      assertThat(room.path("holdsOneCopy").asBoolean()).isFalse();
      assertThat(room.path("primariesNeeded").asInt()).isEqualTo(4);
      assertThat(metrics(cluster)).containsEntry("LowestGearShort", 1L).containsEntry("LowestGearDataNodes", 2L);

      AdminRun grow;
      try (LogCapture log = new LogCapture()) {
        grow = AdminRun.run(cluster.conf(), "relayout", "grow");
        gears(cluster).service().step();
        assertThat(log.text()).as("the gear shift's machine takes the growth with the layout")
            .doesNotContain("EAFR gear step failed");
      }
      assertThat(grow.code).as(grow.out + grow.err).isZero();
      assertThat(grow.out).contains("layout grown from p = 2 to p = 4 primaries (gears 0..4, gear 0 keeping 4"
          + " DataNodes on)");
      GearedLayout grown = gears(cluster).layout().orElseThrow();
      assertThat(grown.serversOn(0).size()).isEqualTo(4);
      assertThat(gears(cluster).state().primaries()).isEqualTo(4);
      assertThat(gears(cluster).state().gear()).isEqualTo(4);
      AdminRun again = AdminRun.run(cluster.conf(), "relayout", "grow");
      assertThat(again.code).isNotZero();
      assertThat(again.err).contains("relayout grow refused: the lowest gear (4 DataNodes").contains("nothing to grow");

      GenericTestUtils.waitFor(() -> ((Number) relayout(cluster).values().get("files")).longValue() >= 2, 50,
          60_000);
      restartNameNode(cluster, "equal-work");
      GenericTestUtils.waitFor(() -> gears(cluster).layout().isPresent(), 50, 60_000);
      assertThat(gears(cluster).layout().orElseThrow().serversOn(0).ids()).isEqualTo(grown.serversOn(0).ids());
      GenericTestUtils.waitFor(() -> "finished".equals(relayout(cluster).values().get("state")), 100, 60_000);

      Map<String, Object> done = relayout(cluster).values();
      assertThat(done).containsEntry("grownFrom", 2).containsEntry("grownTo", 4)
          .containsEntry("lowestGearDataNodes", 4);
      long moved = ((Number) done.get("movedBytes")).longValue();
      long bound = ((Number) done.get("lowerBoundBytes")).longValue();
      System.out.printf("relayout grow: lower bound %d bytes, moved %d bytes (%.3fx)%n", bound, moved,
          (double) moved / bound);
      assertThat(bound).isPositive();
      assertThat((double) moved).as("bytes moved against the lower bound").isLessThanOrEqualTo(1.2 * bound);
      assertThat(AdminRun.run(cluster.conf(), "relayout", "status").out)
          .contains("onto the layout grown from p = 2 to p = 4");
      // The DataNodes report their usage in heartbeats: the room is of what they last reported.
      cluster.mini().triggerHeartbeats();
      GenericTestUtils.waitFor(() -> lowestGearRoomQuietly(cluster).path("holdsOneCopy").asBoolean(), 100, 60_000);
      assertThat(metrics(cluster)).containsEntry("LowestGearShort", 0L).containsEntry("LowestGearDataNodes", 4L);

      gears(cluster).service().requestGear(0);
      GearTestCluster.awaitGear(cluster, 0);
      assertThat(GearTestCluster.running(cluster)).containsExactlyInAnyOrderElementsOf(grown.serversOn(0).ids());
      cluster.verifyChecksums();
    } finally {
      GearTestCluster.stop(cluster);
      System.out.printf("RelayoutGrowTest wall time: %.1f s%n", (System.nanoTime() - started) / 1e9);
    }
  }

  /** 12 DataNodes of 16 MB with {@code conf} and equal-work p = 2, g = 2, eafr.gear.capacity-headroom 0.5. */
  static EafrCluster startShortOfOneCopy(Configuration conf) throws Exception {
    conf.set("eafr.gear.primaries", "2");
    conf.set("eafr.gear.capacity-headroom", "0.5");
    EafrCluster cluster = EafrCluster.start(conf, GearTestCluster.RACKS, null, 16 * MB);
    cluster.runtime().gears().power(MiniClusterPower.manager(cluster.mini()));
    GenericTestUtils.waitFor(() -> gears(cluster).layout().isPresent(), 50, 60_000);
    return cluster;
  }

  /** 24 MB in 6 files of 4 blocks, 3 replicas each: one copy with its headroom is 36 MB. */
  static void writeData(EafrCluster cluster) throws Exception {
    for (int i = 0; i < 6; i++) {
      cluster.write("/data/f" + i, 3, 4 * EafrCluster.BLOCK_SIZE, 300 + i);
    }
  }

  /** The relayout metrics source's values now (JMX {@code EafrRelayout}). */
  private static Map<String, Number> metrics(EafrCluster cluster) {
    MetricsCollectorImpl collector = new MetricsCollectorImpl();
    new RelayoutMetrics(relayout(cluster)).getMetrics(collector, true);
    Map<String, Number> values = new HashMap<>();
    for (AbstractMetric metric : collector.getRecords().get(0).metrics()) {
      values.put(metric.name(), metric.value());
    }
    return values;
  }

  private static JsonNode lowestGearRoom(EafrCluster cluster) throws Exception {
    AdminRun status = AdminRun.run(cluster.conf(), "status", "-json");
    assertThat(status.code).as(status.err).isZero();
    return new ObjectMapper().readTree(status.out).path("gears").path("lowestGearRoom");
  }

  private static JsonNode lowestGearRoomQuietly(EafrCluster cluster) {
    try {
      return lowestGearRoom(cluster);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
