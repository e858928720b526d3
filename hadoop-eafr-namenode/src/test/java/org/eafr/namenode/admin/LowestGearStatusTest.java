package org.eafr.namenode.admin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.eafr.namenode.gear.GearTestCluster;
import org.eafr.namenode.testing.EafrCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code hdfs eafr status} and {@code plan} on a geared MiniDFSCluster whose lowest gear is short of one copy: 12
 * DataNodes of 16 MB, p = 2 primaries (32 MB), a file of 24 MB with 3 replicas and eafr.gear.capacity-headroom 0.5
 * (the primaries must hold 1.5 x one copy, 36 MB), so gear 0 holds under 90% of it and p must grow to 4 (g = 2),
 * whose equal-work layout holds the copy with its shares too.
 */
class LowestGearStatusTest {
  private static final long MB = 1L << 20;
  private static EafrCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = GearTestCluster.conf("lowest-gear");
    conf.set("eafr.gear.primaries", "2");
    conf.set("eafr.gear.capacity-headroom", "0.5");
    cluster = EafrCluster.start(conf, GearTestCluster.RACKS, null, 16 * MB);
    DFSTestUtil.createFile(cluster.fs(), new Path("/data/f"), 24 * MB, (short) 3, 1L);
    org.apache.hadoop.test.GenericTestUtils.waitFor(() -> cluster.runtime().gears().layout().isPresent(), 50, 60_000);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void status_saysHowMuchOfOneCopyTheLowestGearHolds_andThePToGrowTo() throws Exception {
    AdminRun json = AdminRun.run(cluster.conf(), "status", "-json");
    assertThat(json.code).as(json.err).isZero();
    JsonNode room = new ObjectMapper().readTree(json.out).path("gears").path("lowestGearRoom");

    assertThat(room.path("lowestGearDataNodes").asInt()).isEqualTo(2);
    assertThat(room.path("lowestGearUsableBytes").asLong()).isEqualTo(32 * MB);
    assertThat(room.path("oneCopyBytes").asLong()).isBetween(24 * MB, 25 * MB);
    assertThat(room.path("holdsOneCopy").asBoolean()).isFalse();
    assertThat(room.path("heldShare").asDouble()).isBetween(0.85, 0.89);
    assertThat(room.path("primariesNeeded").asInt()).isEqualTo(4);
    AdminRun text = AdminRun.run(cluster.conf(), "status");
    assertThat(text.out).contains("lowest gear (2 DataNodes, 0.0 GB usable) holds 8")
        .contains("of one copy").contains(": grow p to 4 ('hdfs eafr relayout grow' grows the layout and"
            + " relays out its blocks)");
  }

  @Test
  void plan_saysTheSame() throws Exception {
    AdminRun json = AdminRun.run(cluster.conf(), "plan", "-json");
    assertThat(json.code).as(json.err).isZero();
    JsonNode room = new ObjectMapper().readTree(json.out).path("gears").path("lowestGearRoom");

    assertThat(room.path("primariesNeeded").asInt()).isEqualTo(4);
    assertThat(room.path("holdsOneCopy").asBoolean()).isFalse();
    AdminRun text = AdminRun.run(cluster.conf(), "plan");
    assertThat(text.out).contains(": grow p to 4 ('hdfs eafr relayout grow' grows the layout and relays out its"
        + " blocks)");
  }
}
